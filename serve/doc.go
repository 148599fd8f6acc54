// Package serve exposes sdl's tools: the registry of tools of the spec
// (names, descriptions for agents, argument decoding and validation), the
// repositories they answer about, and the MCP server that carries them.
// `sdl tool NAME JSON` calls the same registry without a server, so the
// terminal and an agent reach the same code.
package serve
