package serve

import (
	"fmt"
	"sort"
	"strings"
)

// Surfaces are the sets of tools a server lists. Every tool definition
// rides along on every agent turn (all 31 are about 41 KB), so a client may
// ask for fewer: the ladder of the spec, or the code-mode gateway, where
// sdl_action_search and sdl_manual describe every action and sdl_chain runs
// any of them. A tool left off the list is still reached through sdl_chain,
// and the server's answers name it that way (see Registry.advertised).
const (
	SurfaceAll     = "all"
	SurfaceLadder  = "ladder"
	SurfaceGateway = "gateway"
)

// Surfaces lists the surface names, for flags and their help.
var Surfaces = []string{SurfaceLadder, SurfaceGateway, SurfaceAll}

// gatewayTools find and run every other action.
var gatewayTools = []string{"sdl.action.search", "sdl.manual", "sdl.chain"}

// surfaceTools are the spec names of the tools each surface lists, beyond
// the gateway's, which every surface has; nil means every tool.
var surfaceTools = map[string][]string{
	SurfaceAll: nil,
	// the context ladder: find, card, slice, skeleton, hot path, window,
	// and the refresh an agent needs after editing
	SurfaceLadder: {"sdl.symbol.search", "sdl.symbol.getCard", "sdl.slice.build", "sdl.code.getSkeleton",
		"sdl.code.getHotPath", "sdl.code.needWindow", "sdl.index.refresh"},
	SurfaceGateway: {},
}

// ErrSurface means an unknown surface name.
var ErrSurface = fmt.Errorf("unknown tool surface; choose %s", strings.Join(Surfaces, ", "))

// setSurface makes the registry list only the tools of a surface.
func (r *Registry) setSurface(name string) error {
	if name == "" {
		name = SurfaceAll
	}
	names, ok := surfaceTools[name]
	if !ok {
		return fmt.Errorf("%w: %q", ErrSurface, name)
	}
	r.surface = nil
	if names == nil {
		return nil
	}
	r.surface = map[string]bool{}
	for _, n := range append(append([]string{}, gatewayTools...), names...) {
		t, err := r.Lookup(n)
		if err != nil {
			return err
		}
		r.surface[t.Name] = true
	}
	return nil
}

// Listed reports whether the server lists the tool.
func (r *Registry) Listed(t *Tool) bool { return r.surface == nil || r.surface[t.Name] }

// ListedTools are the tools the server lists, by name.
func (r *Registry) ListedTools() []*Tool {
	var out []*Tool
	for _, t := range r.tools {
		if r.Listed(t) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AdvertisedText rewrites the tool names in s as a server of the surface
// names them to its clients: text written for an agent of that server
// (sdl init's instructions) names only tools it can call.
func AdvertisedText(surface, s string) (string, error) {
	r := NewRegistry()
	(&Server{reg: r}).addOwnTools(r) // only their definitions are read
	if err := r.setSurface(surface); err != nil {
		return "", err
	}
	return r.advertised(s), nil
}
