package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/xrash/smetrics"
)

// parsedArgs is a command line made ready for urfave/cli.
type parsedArgs struct {
	args []string // flags ahead of the arguments, which follow "--"
	path []string // the command and subcommand names, as in ["memory", "query"]
	json bool     // --json was given: errors are printed as JSON too
}

// unknownFlag is a flag the command does not define.
type unknownFlag struct {
	flag    string
	path    []string
	suggest string // a defined flag it may be a misspelling of
}

func (e unknownFlag) Error() string {
	if e.text() {
		return strings.Join(e.path, " ") + ": " + strconv.Quote(e.flag) + " starts with a dash, so it reads as a flag"
	}
	if len(e.path) == 0 {
		return "no flag " + e.flag + " before the command"
	}
	return strings.Join(e.path, " ") + ": no flag " + e.flag
}

// text tells a quoted argument with spaces ("--line-range is ignored", a
// task taken from a changelog) from a mistyped flag.
func (e unknownFlag) text() bool {
	return len(e.path) > 0 && strings.ContainsAny(e.flag, " \t\n")
}

func (e unknownFlag) hint() string {
	if e.text() {
		return "put -- before it: sdl " + strings.Join(e.path, " ") + " -- " + strconv.Quote(e.flag)
	}
	h := "see: " + helpCommand(e.path)
	if e.suggest != "" {
		h = "did you mean --" + e.suggest + "? " + h
	}
	return h
}

// helpCommand is the command that prints the help of a command path.
func helpCommand(path []string) string {
	switch len(path) {
	case 0:
		return "sdl help"
	case 1:
		return "sdl help " + path[0]
	}
	return "sdl " + strings.Join(path, " ") + " --help"
}

// versionFlags ask for the version without a command.
var versionFlags = map[string]bool{"--version": true, "-version": true, "-v": true}

// parseArgs is the one place that decides how a command line splits into
// flags and arguments. urfave/cli v2 stops reading flags at the first
// argument, so "sdl search JSON --json" would search for "JSON --json":
// here every flag of the command found anywhere after its name is moved
// ahead of the arguments, using the command's own definitions to tell a flag
// that takes a value from a boolean. "--" ends the flags; a flag the
// command does not define is an error, never text.
func parseArgs(app *cli.App, args []string) (parsedArgs, error) {
	args = dropUnexpandedRoot(app.ErrWriter, args)
	if len(args) >= 2 && versionFlags[args[1]] {
		// sdl --version [--json] is sdl version [--json]
		args = append([]string{args[0], "version"}, args[2:]...)
	}
	if len(args) >= 3 && (args[1] == "help" || args[1] == "h") {
		// urfave/cli's help of a group leaves out its subcommands;
		// sdl help memory is sdl memory --help, which lists them
		if g := app.Command(args[2]); g != nil && len(g.Subcommands) > 0 {
			args = append(append([]string{args[0]}, args[2:]...), "--help")
		}
	}
	p := parsedArgs{args: args}
	if len(args) < 2 {
		return p, nil
	}
	if a := args[1]; strings.HasPrefix(a, "-") && a != "-" {
		// sdl's own flags are --version and --help; a command's flags
		// go after its name (or anywhere after it)
		name := strings.TrimLeft(a, "-")
		if name != "help" && name != "h" {
			return p, unknownFlag{flag: a, suggest: closestFlag(name, map[string]bool{"version": false, "help": false})}
		}
	}
	at := 1
	cmd := app.Command(args[at])
	if cmd == nil || cmd.Name == "help" {
		return p, nil // help, or a mistake that run reports
	}
	p.path = []string{cmd.Name}
	for len(cmd.Subcommands) > 0 {
		if at+1 >= len(args) {
			return p, nil
		}
		sub := cmd.Command(args[at+1])
		if sub == nil || sub.Name == "help" {
			return p, nil // urfave/cli prints the group's help or refuses the name
		}
		at++
		cmd = sub
		p.path = append(p.path, cmd.Name)
	}
	takesValue := map[string]bool{"help": false, "h": false}
	for _, f := range cmd.Flags {
		v := true
		if d, ok := f.(cli.DocGenerationFlag); ok {
			v = d.TakesValue()
		}
		for _, n := range f.Names() {
			takesValue[n] = v
		}
	}
	var flags, rest []string
	tail := args[at+1:]
	for i := 0; i < len(tail); i++ {
		a := tail[i]
		if a == "--" {
			rest = append(rest, tail[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		tv, known := takesValue[name]
		if !known {
			if _, err := strconv.ParseFloat(a, 64); err == nil {
				rest = append(rest, a) // a negative number is an argument
				continue
			}
			return p, unknownFlag{flag: a, path: p.path, suggest: closestFlag(name, takesValue)}
		}
		if name == "help" || name == "h" {
			// the command's help, whatever else the line holds
			p.args = append(append([]string{}, args[:at+1]...), "--help")
			return p, nil
		}
		flags = append(flags, a)
		if name == "json" {
			b, err := strconv.ParseBool(value)
			p.json = !hasValue || err == nil && b
		}
		if tv && !hasValue {
			if i+1 >= len(tail) {
				return p, usagef("%s: flag needs an argument: %s", strings.Join(p.path, " "), a)
			}
			i++
			flags = append(flags, tail[i])
		}
	}
	out := append([]string{}, args[:at+1]...)
	out = append(out, flags...)
	if len(rest) > 0 {
		out = append(out, "--")
		out = append(out, rest...)
	}
	p.args = out
	return p, nil
}

// closestFlag is the defined flag name nearest to a mistyped one, or "".
func closestFlag(name string, defined map[string]bool) string {
	best, bestD := "", 3 // at most two edits away
	for n := range defined {
		if len(n) < 2 {
			continue
		}
		d := smetrics.WagnerFischer(name, n, 1, 1, 1)
		if strings.HasPrefix(n, name) && len(name) >= 3 {
			d = 1
		}
		if d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	return best
}

// closestCommand is the command a mistyped name may mean, as closestFlag.
func closestCommand(app *cli.App, name string) string {
	names := map[string]bool{}
	for _, c := range app.Commands {
		if !c.Hidden {
			names[c.Name] = true
		}
	}
	return closestFlag(name, names)
}

// dropUnexpandedRoot removes a --root whose value is a variable nobody
// expanded: sdl init writes --root ${CLAUDE_PROJECT_DIR:-.} or
// ${workspaceFolder} into client configs, and a client that does not expand
// them passes the text as it is. Without --root, sdl takes the repository
// around the working directory, which is where such clients start it.
func dropUnexpandedRoot(stderr io.Writer, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		val, inline := "", false
		switch {
		case (a == "--root" || a == "-root") && i+1 < len(args):
			val = args[i+1]
		case strings.HasPrefix(a, "--root=") || strings.HasPrefix(a, "-root="):
			val, inline = a[strings.IndexByte(a, '=')+1:], true
		}
		if strings.Contains(val, "${") {
			fmt.Fprintf(stderr, "sdl: warning: --root %s is a variable the client did not expand: using the repository around the working directory\n", val)
			if !inline {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}
