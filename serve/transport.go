package serve

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves one client on in and out until in closes or ctx is
// done. Nothing but MCP messages goes to out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	st := server.NewStdioServer(s.mcp)
	st.SetErrorLogger(s.opts.Log)
	err := st.Listen(ctx, in, out)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// HTTPOptions bound the HTTP transport.
type HTTPOptions struct {
	// Token, when set, is required as "Authorization: Bearer TOKEN".
	Token string
	// MaxBodyBytes bounds a request body (default 8 MB).
	MaxBodyBytes int64
	// Timeout bounds a request (default 2 minutes).
	Timeout time.Duration
	// MaxConcurrent bounds the requests served at once (default 64);
	// beyond, a request waits up to a second, then gets 503.
	MaxConcurrent int
}

// ErrToken means a non-loopback address was asked for without a token.
var ErrToken = errors.New("a bearer token is required to serve beyond loopback")

// CheckAddr refuses a non-loopback listen address without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %w (use host:port, e.g. 127.0.0.1:7331)", addr, err)
	}
	if isLoopback(host) || token != "" {
		return nil
	}
	return fmt.Errorf("%w (%s): pass --token or SDL_TOKEN, or listen on 127.0.0.1", ErrToken, addr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HTTPHandler serves streamable HTTP MCP at /mcp, behind the token, the
// body limit, the timeout and the concurrency cap.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 8 << 20
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = 64
	}
	mcpHTTP := server.NewStreamableHTTPServer(s.mcp, server.WithEndpointPath("/mcp"))
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok\n") })
	mux.Handle("/mcp", mcpHTTP)
	limited := limit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxBodyBytes)
		ctx, cancel := context.WithTimeout(r.Context(), o.Timeout)
		defer cancel()
		tw := &trackWriter{ResponseWriter: w}
		mux.ServeHTTP(tw, r.WithContext(ctx))
		if !tw.wrote && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			http.Error(w, fmt.Sprintf("request timed out after %v: ask for less (a smaller limit or budget), or start sdl serve with a longer --timeout", o.Timeout), http.StatusGatewayTimeout)
		}
	}), o.MaxConcurrent, time.Second)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.Token != "" && r.URL.Path != "/healthz" {
			auth := r.Header.Get("Authorization")
			got, ok := strings.CutPrefix(auth, "Bearer ")
			switch {
			case !ok:
				unauthorized(w, "invalid_request", "missing bearer token: start the client with Authorization: Bearer TOKEN, "+
					"the token sdl serve was given (--token or SDL_TOKEN); e.g. mcp-inspector --cli URL --transport http --header \"Authorization: Bearer TOKEN\"")
				return
			case subtle.ConstantTimeCompare([]byte(got), []byte(o.Token)) != 1:
				unauthorized(w, "invalid_token", "wrong bearer token: send Authorization: Bearer TOKEN with the token sdl serve was given (--token or SDL_TOKEN)")
				return
			}
		}
		if r.Method == http.MethodGet && r.URL.Path == "/mcp" && r.Header.Get(server.HeaderKeySessionID) == "" {
			// the notification stream belongs to a session: without one
			// there is nothing to stream, and an open stream would hang a
			// browser or curl forever
			jsonRPCError(w, http.StatusBadRequest, -32600, "GET /mcp opens the notification stream of a session: send the "+
				"Mcp-Session-Id header that initialize returned. MCP clients POST JSON-RPC requests to /mcp; /healthz answers a plain GET")
			return
		}
		if r.Method == http.MethodGet {
			// a client's notification stream: idle for its life, it
			// would hold a slot that requests doing work need
			mux.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
}

// unauthorized refuses a request without the right token, in the words of
// RFC 6750 (the WWW-Authenticate error and its description) and of MCP (a
// JSON-RPC error body), so that a client shows the reason whichever it reads.
// It names no authorization server: sdl takes a token given to it, not OAuth.
func unauthorized(w http.ResponseWriter, code, msg string) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="sdl", error=%q, error_description=%q`, code, msg))
	jsonRPCError(w, http.StatusUnauthorized, -32001, msg)
}

// jsonRPCError answers with a JSON-RPC error that belongs to no request.
func jsonRPCError(w http.ResponseWriter, status, code int, msg string) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// limit serves at most n requests at once; a request beyond waits up to
// wait for a slot, then gets 503 with a Retry-After.
func limit(h http.Handler, n int, wait time.Duration) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		case <-t.C:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many requests in flight; retry", http.StatusServiceUnavailable)
			return
		case <-r.Context().Done():
			return
		}
		h.ServeHTTP(w, r)
	})
}

// trackWriter notes whether a handler wrote anything, so that a request
// that ran out of time gets an answer that says so instead of nothing.
type trackWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackWriter) WriteHeader(code int) { w.wrote = true; w.ResponseWriter.WriteHeader(code) }

func (w *trackWriter) Write(p []byte) (int, error) { w.wrote = true; return w.ResponseWriter.Write(p) }

func (w *trackWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *trackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
