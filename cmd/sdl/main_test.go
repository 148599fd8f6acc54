package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sdl-dev/sdl/schema"
)

var update = flag.Bool("update", false, "update the scripts' golden outputs")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sdl": func() { os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts of testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			env.Setenv("SOURCE_DATE_EPOCH", "1700000000")
			// the sdl program itself, for scripts that take it off PATH
			for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
				if p := filepath.Join(dir, "sdl"); fileExists(p) {
					env.Setenv("SDL_BIN", p)
					break
				}
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mkdb":   cmdMkdb,
			"sql":    cmdSQL,
			"nobody": cmdNobody,
			"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: truncate PATH SIZE")
				}
				n, err := strconv.ParseInt(args[1], 10, 64)
				ts.Check(err)
				ts.Check(os.Truncate(ts.MkAbs(args[0]), n))
			},
		},
	})
}

// cmdMkdb writes a database that is not a usable sdl index:
// mkdb foreign|oldschema|garbage PATH
func cmdMkdb(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mkdb foreign|oldschema|garbage PATH")
	}
	p := ts.MkAbs(args[1])
	switch args[0] {
	case "garbage":
		ts.Check(os.WriteFile(p, []byte("this is not a database\n"), 0o644))
		return
	case "foreign", "oldschema":
	default:
		ts.Fatalf("unknown kind %q", args[0])
	}
	db, err := sql.Open("sqlite", p)
	ts.Check(err)
	defer db.Close()
	_, err = db.Exec("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES('keep me')")
	ts.Check(err)
	if args[0] == "oldschema" {
		_, err = db.Exec(fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", schema.ApplicationID, schema.Version+100))
		ts.Check(err)
	}
}

// cmdSQL runs a query on a database and prints its rows, one per line with
// columns separated by '|': sql PATH QUERY
func cmdSQL(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sql PATH QUERY")
	}
	db, err := sql.Open("sqlite", "file:"+ts.MkAbs(args[0])+"?mode=ro")
	ts.Check(err)
	defer db.Close()
	rows, err := db.Query(args[1])
	if neg {
		if err == nil {
			ts.Fatalf("query succeeded")
		}
		return
	}
	ts.Check(err)
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		ts.Check(rows.Scan(ptrs...))
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = v.String
		}
		fmt.Fprintln(ts.Stdout(), strings.Join(parts, "|"))
	}
	ts.Check(rows.Err())
}

// cmdNobody runs sdl as a user who may not write what root made read-only:
// nobody sdl ARGS... As root (CI containers), permissions do not bind, so
// the command runs a copy of this binary as uid 65534; otherwise it runs
// sdl as the current user.
func cmdNobody(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || args[0] != "sdl" {
		ts.Fatalf("usage: nobody sdl ARGS...")
	}
	if os.Geteuid() != 0 {
		err := ts.Exec("sdl", args[1:]...)
		if neg != (err != nil) {
			ts.Fatalf("nobody sdl: unexpected result: %v", err)
		}
		return
	}
	work := ts.Getenv("WORK")
	// nobody must reach $WORK: open the directories above it for search.
	for d := work; d != os.TempDir() && d != "/" && d != "."; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			os.Chmod(d, fi.Mode().Perm()|0o011)
		}
	}
	bin := filepath.Join(work, ".nobody-bin")
	exe := filepath.Join(bin, "sdl")
	if _, err := os.Stat(exe); err != nil {
		self, err := os.Executable()
		ts.Check(err)
		data, err := os.ReadFile(self)
		ts.Check(err)
		ts.Check(os.MkdirAll(bin, 0o755))
		ts.Check(os.WriteFile(exe, data, 0o755))
	}
	var err error
	for try := 0; ; try++ {
		cmd := exec.Command(exe, args[1:]...)
		cmd.Dir = ts.MkAbs(".")
		cmd.Env = []string{"HOME=" + work, "NO_COLOR=1", "PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir()}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
		err = cmd.Run()
		// the copy just written may still be open in a process another
		// test forked and has not exec'd yet (golang.org/issue/22315)
		if !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		ts.Fatalf("nobody sdl: %v", err) // did not run at all
	}
	if neg != (err != nil) {
		ts.Fatalf("nobody sdl: unexpected result: %v", err)
	}
}
