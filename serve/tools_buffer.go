package serve

import (
	"context"

	"github.com/sdl-dev/sdl/query"
)

// BufferCheckpointRequest is sdl.buffer.checkpoint.
type BufferCheckpointRequest struct {
	Reason string `json:"reason,omitempty"`
}

// BufferStatusRequest takes only a repoId.
type BufferStatusRequest struct{}

func bufferTools() []*Tool {
	push := &Tool{
		Name:  "sdl.buffer.push",
		Title: "Push an editor buffer",
		Description: "For editor integrations: send the full text of an open file on open, change, save and close. Until " +
			"it is saved, search, cards, slices, skeletons and hot paths answer from this text (an overlay parsed in the " +
			"background, at once when a query needs it), so a function renamed in the buffer is found by its new name. " +
			"save (or eventType checkpoint) indexes the file into the shared index as a new version; close drops the " +
			"buffer. filePath is relative to the repository root; content is at most 5 MB.",
		OwnIndex: true,
		Args: []Arg{repoArg,
			{Name: "eventType", Type: "string", Required: true, Enum: eventTypes},
			{Name: "filePath", Type: "string", Required: true, Description: "Relative to the repository root; no \"..\"."},
			{Name: "content", Type: "string", Required: true, Description: "The buffer's full text, at most 5 MB (\"\" for close)."},
			{Name: "version", Type: "integer", Required: true, Description: "The editor's buffer version; an older version than the overlay holds is ignored."},
			{Name: "dirty", Type: "boolean", Required: true, Description: "Whether the buffer has unsaved changes."},
			{Name: "timestamp", Type: "string", Required: true, Description: "ISO 8601 time of the event."},
			{Name: "language", Type: "string", Description: "The editor's language id (sdl goes by the file extension)."},
			{Name: "cursor", Type: "object", Description: "{line, col}"},
			{Name: "selections", Type: "array", Items: "object", Description: "[{startLine, startCol, endLine, endCol}]"},
		},
		Example: `{"eventType": "change", "filePath": "src/auth/token.ts", "content": "export function validateToken() {}", "version": 12, "dirty": true, "timestamp": "2026-03-07T12:00:00.000Z"}`,
	}
	checkpoint := &Tool{
		Name:  "sdl.buffer.checkpoint",
		Title: "Checkpoint the buffers",
		Description: "Index every open buffer into the shared index now (unsaved text included), as one new ledger " +
			"version, instead of waiting for a save. Returns how many files were checkpointed and the version.",
		OwnIndex: true,
		Args:     []Arg{repoArg, {Name: "reason", Type: "string", Description: "Why, for the log."}},
		Example:  `{"reason": "manual"}`,
	}
	status := &Tool{
		Name:  "sdl.buffer.status",
		Title: "Live buffer status",
		Description: "Diagnostics of the live buffers: open and dirty buffers, the parse queue, whether a checkpoint is " +
			"pending, the last event and the last checkpoint's result, and which files the overlay answers from.",
		ReadOnly: true, OwnIndex: true,
		Args:    []Arg{repoArg},
		Example: `{}`,
	}
	return []*Tool{
		bind(push, func(ctx context.Context, r *Repo, _ *query.Index, req *BufferPushRequest) (any, error) {
			return r.live.push(req)
		}),
		bind(checkpoint, func(ctx context.Context, r *Repo, _ *query.Index, req *BufferCheckpointRequest) (any, error) {
			resp, err := r.live.checkpoint(ctx, req.Reason, true)
			if err != nil {
				return nil, err
			}
			if err := r.live.parse(ctx); err != nil {
				r.live.log.Printf("buffers %s: %v", r.ID, err)
			}
			return resp, nil
		}),
		bind(status, func(ctx context.Context, r *Repo, _ *query.Index, req *BufferStatusRequest) (any, error) {
			return r.live.status(), nil
		}),
	}
}
