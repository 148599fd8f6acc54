package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sdl-dev/sdl/index"
	"github.com/sdl-dev/sdl/schema"
	"github.com/sdl-dev/sdl/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "answer MCP requests about one or more indexed repositories (stdio by default)",
		Description: "sdl serve                      # the repository around the working directory, over stdio\n" +
			"sdl serve --repo api=../api --repo web=../web\n" +
			"sdl serve --http 127.0.0.1:7331   # streamable HTTP at /mcp\n" +
			"sdl serve --watch                 # and index saved files as they change",
		Flags: []cli.Flag{dbFlag, rootFlag,
			&cli.StringSliceFlag{Name: "repo", Usage: "a repository as ID=PATH (repeatable); default: the current one, named after its folder"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on this address instead of stdio (loopback unless --token)"},
			&cli.StringFlag{Name: "token", Usage: "bearer token required by the HTTP transport", EnvVars: []string{"SDL_TOKEN"}},
			&cli.StringFlag{Name: "log", Usage: "write logs to this file instead of stderr"},
			&cli.IntFlag{Name: "max-output-tokens", Usage: "the largest answer, in tokens", Value: serve.DefaultMaxOutputTokens},
			&cli.DurationFlag{Name: "timeout", Usage: "the longest an HTTP request may run", Value: 2 * time.Minute},
			&cli.IntFlag{Name: "max-concurrent", Usage: "HTTP requests served at once; more wait a second, then get 503", Value: 64},
			&cli.Int64Flag{Name: "max-body-bytes", Usage: "the largest HTTP request body", Value: 8 << 20},
			&cli.BoolFlag{Name: "watch", Usage: "index files as they are saved (debounced), so answers never fall behind the disk"},
			&cli.StringFlag{Name: "tools", Value: serve.SurfaceAll, Usage: "the tools listed to the client: all (31 tools, about 9,600 tokens of definitions), " +
				"ladder (the context ladder and the gateway, 10 tools, about 3,500 tokens) or gateway (sdl_action_search, sdl_manual " +
				"and sdl_chain, which reach every action: 3 tools, about 830 tokens)"},
		},
		Action: func(c *cli.Context) error {
			if err := serve.CheckSurface(c.String("tools")); err != nil {
				return usagef("--tools: %v", err)
			}
			srv, repos, logf, err := newServer(c)
			if errors.Is(err, schema.ErrNoIndex) && len(c.StringSlice("repo")) == 0 {
				// no index yet: serve the repository around the working
				// directory (or --root) and build its index meanwhile, so
				// that the client connects and can watch it happen
				root := c.String("root")
				if root == "" {
					root = defaultRoot()
				}
				abs, aerr := filepath.Abs(root)
				if aerr != nil {
					return aerr
				}
				db := c.String("db")
				if db != "" {
					if db, aerr = filepath.Abs(db); aerr != nil {
						return aerr
					}
				}
				srv, repos, logf, err = newServerOver(c, []*serve.Repo{serve.NewRepo("", abs, db)})
			}
			if err != nil {
				return err
			}
			for _, id := range repos.IDs() {
				r, _ := repos.Get(id)
				if fileExists(r.DB) {
					continue
				}
				if !c.IsSet("root") && !c.IsSet("repo") && !fileExists(filepath.Join(r.Root, ".git")) {
					// not a repository anyone named: indexing a home
					// directory by surprise would take long and answer
					// nothing useful; sdl_index_refresh indexes it on demand
					srv.Log().Printf("%s has no index and is not a git work tree: call sdl_index_refresh or run sdl index there", r.Root)
					continue
				}
				if r.IndexInBackground(c.Context, index.Options{SDLVersion: version}, srv.Log().Printf, nil) {
					srv.Log().Printf("%s has no index yet: indexing it into %s; tools answer once it is built", r.Root, r.DB)
				}
			}
			defer repos.Close()
			if logf != nil {
				defer logf.Close()
			}
			if c.Bool("watch") {
				ctx, cancel := context.WithCancel(c.Context)
				defer cancel()
				for _, id := range repos.IDs() {
					r, _ := repos.Get(id)
					go serve.Watch(ctx, r, serve.WatchOptions{SDLVersion: version, Log: srv.Log()})
				}
			}
			if addr := c.String("http"); addr != "" {
				return serveHTTP(c.Context, srv, addr, serve.HTTPOptions{
					Token: c.String("token"), Timeout: c.Duration("timeout"),
					MaxConcurrent: c.Int("max-concurrent"), MaxBodyBytes: c.Int64("max-body-bytes"),
				}, c.App.ErrWriter)
			}
			return srv.ServeStdio(c.Context, c.App.Reader, c.App.Writer)
		},
	}
}

// newServer builds the server of a serve or tool command.
func newServer(c *cli.Context) (*serve.Server, *serve.Repos, *os.File, error) {
	var list []*serve.Repo
	for _, spec := range c.StringSlice("repo") {
		id, path, ok := strings.Cut(spec, "=")
		if !ok {
			id, path = "", spec
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, nil, nil, err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, nil, nil, usagef("--repo %s: %s is not a directory", spec, path)
		}
		list = append(list, serve.NewRepo(id, abs, ""))
	}
	if len(list) == 0 {
		repos, err := reposFor(c)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, id := range repos.IDs() {
			r, _ := repos.Get(id)
			list = append(list, r)
		}
	}
	return newServerOver(c, list)
}

// newServerOver builds the server over the given repositories.
func newServerOver(c *cli.Context, list []*serve.Repo) (*serve.Server, *serve.Repos, *os.File, error) {
	repos, err := serve.NewRepos(list...)
	if err != nil {
		return nil, nil, nil, usagef("%v", err)
	}
	logger := log.New(c.App.ErrWriter, "sdl: ", log.LstdFlags)
	var logf *os.File
	logPath := c.String("log")
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("open log: %w", err)
		}
		logger = log.New(f, "", log.LstdFlags)
		logf = f
	}
	max := serve.DefaultMaxOutputTokens
	if c.IsSet("max-output-tokens") {
		max = c.Int("max-output-tokens")
	}
	srv := serve.New(serve.NewRegistry(), repos, serve.Options{Version: version, MaxOutputTokens: max, Log: logger, LogPath: logPath,
		Tools: c.String("tools")})
	return srv, repos, logf, nil
}

func serveHTTP(ctx context.Context, srv *serve.Server, addr string, o serve.HTTPOptions, errw interface{ Write([]byte) (int, error) }) error {
	if err := serve.CheckAddr(addr, o.Token); err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	hs := &http.Server{Handler: srv.HTTPHandler(o), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(errw, "sdl: serving MCP on http://%s/mcp\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
