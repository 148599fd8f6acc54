package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/schema"
)

// zstdMagic starts every zstd frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a compacted copy of the index (VACUUM INTO), zstd-compressed for FILE.zst or --zstd",
		ArgsUsage: "FILE",
		Description: "sdl export sdl-index.db          # a compact SQLite file, readable with sqlite3\n" +
			"sdl export sdl-index.db.zst      # the same, zstd-compressed (for a release asset or a cache)\n\n" +
			"The copy holds every ledger version; bootstrap a clone from it with: sdl import FILE",
		Flags: []cli.Flag{dbFlag, jsonFlag,
			&cli.BoolFlag{Name: "zstd", Usage: "compress with zstd (the default when FILE ends in .zst)"},
			&cli.BoolFlag{Name: "force", Usage: "replace FILE if it exists"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("export takes one FILE, got %d arguments", c.NArg())
			}
			out := c.Args().First()
			db, err := dbPath(c)
			if err != nil {
				return err
			}
			if fileExists(out) && !c.Bool("force") {
				return hinted{fmt.Errorf("%s exists", out), "pass --force to replace it"}
			}
			compress := c.Bool("zstd") || strings.HasSuffix(out, ".zst")
			res, err := exportIndex(c.Context, db, out, compress)
			if err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, res)
			}
			u := newUI(c.App.Writer)
			fmt.Fprintf(u.w, "%s %s (%d versions) → %s · %s (the index is %s)\n", u.ok("exported"), res.Version,
				res.Versions, u.path(out), bytesText(res.Bytes), bytesText(res.IndexBytes))
			return nil
		},
	}
}

type exportResult struct {
	File       string `json:"file"`
	Version    string `json:"version"`
	Versions   int64  `json:"versions"`
	Zstd       bool   `json:"zstd"`
	Bytes      int64  `json:"bytes"`
	IndexBytes int64  `json:"indexBytes"`
}

// exportIndex writes a vacuumed copy of db to out, through a temporary file
// beside it so that out is never half-written.
func exportIndex(ctx context.Context, db, out string, compress bool) (*exportResult, error) {
	conn, err := schema.OpenReadOnly(db)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	res := &exportResult{File: out, Zstd: compress}
	if err := conn.QueryRowContext(ctx, "SELECT id, (SELECT COUNT(*) FROM versions) FROM versions ORDER BY seq DESC LIMIT 1").Scan(&res.Version, &res.Versions); err != nil {
		return nil, fmt.Errorf("export: read the ledger: %w", err)
	}
	if fi, err := os.Stat(db); err == nil {
		res.IndexBytes = fi.Size()
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	tmp, err := tempPath(dir, filepath.Base(abs))
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	// a copy in rollback-journal mode is one self-contained file
	if err := setJournalDelete(tmp); err != nil {
		return nil, err
	}
	final := tmp
	if compress {
		z, err := tempPath(dir, filepath.Base(abs))
		if err != nil {
			return nil, err
		}
		defer os.Remove(z)
		if err := zstdFile(tmp, z); err != nil {
			return nil, err
		}
		final = z
	}
	if err := os.Rename(final, abs); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if fi, err := os.Stat(abs); err == nil {
		res.Bytes = fi.Size()
	}
	return res, nil
}

func setJournalDelete(p string) error {
	w, err := schema.OpenWrite(p)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := w.Exec("PRAGMA journal_mode = DELETE"); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return w.Close()
}

// tempPath reserves a new empty-named path in dir (the file is removed, so
// that VACUUM INTO, which refuses an existing file, can create it).
func tempPath(dir, base string) (string, error) {
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return name, nil
}

func zstdFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	enc, err := zstd.NewWriter(out, zstd.WithEncoderLevel(zstd.SpeedBetterCompression))
	if err == nil {
		_, err = io.Copy(enc, in)
		if cerr := enc.Close(); err == nil {
			err = cerr
		}
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export: compress: %w", err)
	}
	return nil
}

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "install an exported index (plain or zstd) as .sdl/index.db, then bring it up to date",
		ArgsUsage: "FILE",
		Description: "sdl import sdl-index.db.zst      # in a fresh clone: the index of the export, then\n" +
			"                                 # an incremental run for what changed since\n\n" +
			"The file is checked first (an sdl index of this schema, intact, with a ledger);\n" +
			"a file that fails leaves the current index untouched.",
		Flags: []cli.Flag{dbFlag, jsonFlag, rootFlag,
			&cli.BoolFlag{Name: "force", Usage: "replace an existing index"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not run an incremental index after the import"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("import takes one FILE, got %d arguments", c.NArg())
			}
			root := c.String("root")
			if root == "" {
				root = "."
			}
			abs, err := filepath.Abs(root)
			if err != nil {
				return err
			}
			db := c.String("db")
			if db == "" {
				db = index.DefaultDB(abs)
			}
			if fileExists(db) && !c.Bool("force") {
				return hinted{fmt.Errorf("an index exists at %s", relTo(abs, db)), "pass --force to replace it"}
			}
			imported, err := importIndex(c.Context, c.Args().First(), db)
			if err != nil {
				return err
			}
			u := newUI(c.App.Writer)
			res := map[string]any{"db": db, "imported": imported}
			if !c.Bool("json") {
				fmt.Fprintf(u.w, "%s %s → %s\n", u.ok("imported"), imported, u.path(relTo(abs, db)))
			}
			if !c.Bool("no-index") {
				opts := index.Options{Root: abs, DB: db, SDLVersion: version}
				if t, ok := sourceDateEpoch(); ok {
					opts.Now = t
				}
				sum, err := index.Run(c.Context, opts)
				if err != nil {
					return err
				}
				rep := newIndexReport(c.Context, sum, abs, c.App.ErrWriter)
				res["index"] = rep
				if !c.Bool("json") {
					printSummary(u, rep)
				}
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, res)
			}
			return nil
		},
	}
}

// importIndex validates src (decompressing it if it is zstd) in a
// temporary file beside db, then renames it over db. It returns the
// newest ledger version of the file.
func importIndex(ctx context.Context, src, db string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
		return "", fmt.Errorf("%w: %v", index.ErrReadOnly, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(db), "."+filepath.Base(db)+".import*")
	if err != nil {
		return "", fmt.Errorf("%w: %v", index.ErrReadOnly, err)
	}
	defer os.Remove(tmp.Name())
	br := bufio.NewReader(in)
	head, _ := br.Peek(4)
	var r io.Reader = br
	if bytes.Equal(head, zstdMagic) {
		dec, err := zstd.NewReader(br)
		if err != nil {
			tmp.Close()
			return "", fmt.Errorf("import: %w", err)
		}
		defer dec.Close()
		r = dec
	}
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return "", fmt.Errorf("import: %s: %w", src, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	version, err := validateIndex(ctx, tmp.Name())
	if err != nil {
		return "", fmt.Errorf("import: %s: %w", src, err)
	}
	// a journal of the index being replaced must not be applied to the new file
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		os.Remove(db + suffix)
	}
	if err := os.Rename(tmp.Name(), db); err != nil {
		return "", fmt.Errorf("import: %w", err)
	}
	return version, nil
}

// validateIndex checks that p is an sdl index of this schema, intact, with
// at least one version.
func validateIndex(ctx context.Context, p string) (string, error) {
	if err := schema.Sniff(p); err != nil {
		hint := "it is not an sdl export; build the index here instead: sdl index"
		if errors.Is(err, schema.ErrVersion) {
			hint = "export it again with this sdl's version, or build the index here: sdl index"
		}
		return "", hinted{errors.New(strings.ReplaceAll(err.Error(), p+": ", "")), hint}
	}
	conn, err := schema.OpenReadOnly(p)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	var res string
	if err := conn.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
		if err != nil {
			res = err.Error()
		}
		return "", fmt.Errorf("%w (damaged: %s)", schema.ErrNotIndex, res)
	}
	var version string
	if err := conn.QueryRowContext(ctx, "SELECT id FROM versions ORDER BY seq DESC LIMIT 1").Scan(&version); err != nil {
		return "", fmt.Errorf("%w (no ledger version)", schema.ErrNotIndex)
	}
	return version, nil
}
