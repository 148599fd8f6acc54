package query

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Handles name a slice so that a later call (spillover, refresh) can find
// it again. A handle is derived from the version and the request: the same
// request at the same version gets the same handle in any process. The
// request itself is appended to a shared sidecar file next to the index
// (.sdl/handles.jsonl), so a restarted server or another process resolves
// it; no server keeps a table. Where the sidecar cannot be written, the
// handle carries the request itself, encoded.

// ErrHandle means a handle is unknown or malformed.
var ErrHandle = errors.New("unknown handle")

const (
	slicePrefix     = "sl_"
	spilloverPrefix = "sp_"
	inlinePrefix    = "slx_"
	maxHandleLines  = 20000
)

type handleRecord struct {
	Handle    string          `json:"handle"`
	Version   string          `json:"version"`
	CreatedAt string          `json:"createdAt"`
	Request   json.RawMessage `json:"request"`
}

func (x *Index) handlesPath() string { return filepath.Join(filepath.Dir(x.Path), "handles.jsonl") }

// makeHandle derives the handle of a request at a version and records it.
func (x *Index) makeHandle(versionHash string, req *SliceRequest) (string, error) {
	js, err := json.Marshal(req)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append([]byte(versionHash+"\x00"), js...))
	h := slicePrefix + hex.EncodeToString(sum[:10])
	if x.lookupHandle(h, handleDedupWindow) != nil {
		return h, nil
	}
	rec := handleRecord{Handle: h, Version: versionHash, CreatedAt: time.Now().UTC().Format(time.RFC3339), Request: js}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(x.handlesPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		// a read-only checkout: the handle carries the request
		return inlinePrefix + base64.RawURLEncoding.EncodeToString(js), nil
	}
	defer f.Close()
	// one write call per record: O_APPEND keeps concurrent writers' lines whole
	if _, err := f.Write(append(line, '\n')); err != nil {
		return inlinePrefix + base64.RawURLEncoding.EncodeToString(js), nil
	}
	return h, nil
}

// lookupHandle finds the newest record of a handle. The sidecar only
// grows, so it is read backwards from its end, a block at a time, and the
// search stops at the first match: a recent handle costs one read however
// long the file, and within > 0 bounds the bytes read when a miss is
// cheaper than the whole file (0 reads all of it).
func (x *Index) lookupHandle(h string, within int64) *handleRecord {
	f, err := os.Open(x.handlesPath())
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	needle := []byte(`"handle":"` + h + `"`)
	end := st.Size()
	var carry []byte // the start of the line cut by the previous (later) block
	for end > 0 && (within <= 0 || st.Size()-end < within) {
		off := max(0, end-handleBlock)
		data := make([]byte, end-off, end-off+int64(len(carry)))
		if _, err := f.ReadAt(data, off); err != nil {
			return nil
		}
		data = append(data, carry...)
		lines := data
		if off > 0 {
			// the first line may begin in the block before
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				carry, end = data, off
				continue
			}
			lines, carry = data[i+1:], data[:i+1]
		}
		for len(lines) > 0 {
			j := bytes.LastIndex(lines, needle)
			if j < 0 {
				break
			}
			start := bytes.LastIndexByte(lines[:j], '\n') + 1
			line := lines[start:]
			if k := bytes.IndexByte(line, '\n'); k >= 0 {
				line = line[:k]
			}
			var rec handleRecord
			if json.Unmarshal(line, &rec) == nil && rec.Handle == h {
				return &rec
			}
			lines = lines[:start]
		}
		end = off
	}
	return nil
}

const (
	// handleBlock is how much of the sidecar one read takes.
	handleBlock = 64 << 10
	// handleDedupWindow is how far back a new slice looks for its own
	// record before appending it: a repeat of a recent request adds no
	// line, an older one adds a duplicate (harmless: the newest is read).
	handleDedupWindow = 1 << 20
)

// sliceRequestOf recovers the request behind a slice or spillover handle.
func (x *Index) sliceRequestOf(h string) (*SliceRequest, string, error) {
	var req SliceRequest
	switch {
	case strings.HasPrefix(h, inlinePrefix):
		js, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(h, inlinePrefix))
		if err != nil || json.Unmarshal(js, &req) != nil {
			return nil, "", fmt.Errorf("%w: %q is not a valid inline slice handle", ErrHandle, shortHandle(h))
		}
		return &req, "", nil
	case strings.HasPrefix(h, slicePrefix), strings.HasPrefix(h, spilloverPrefix):
		key := slicePrefix + strings.TrimPrefix(strings.TrimPrefix(h, slicePrefix), spilloverPrefix)
		rec := x.lookupHandle(key, 0)
		if rec == nil {
			return nil, "", fmt.Errorf("%w: %q (build a new slice with sdl.slice.build)", ErrHandle, shortHandle(h))
		}
		if err := json.Unmarshal(rec.Request, &req); err != nil {
			return nil, "", fmt.Errorf("%w: %q: %v", ErrHandle, shortHandle(h), err)
		}
		return &req, rec.Version, nil
	}
	return nil, "", fmt.Errorf("%w: %q does not start with %s or %s", ErrHandle, shortHandle(h), slicePrefix, spilloverPrefix)
}

func shortHandle(h string) string {
	if len(h) > 40 {
		return h[:40] + "..."
	}
	return h
}

// spilloverOf names the overflow of a slice.
func spilloverOf(sliceHandle string) string {
	if strings.HasPrefix(sliceHandle, slicePrefix) {
		return spilloverPrefix + strings.TrimPrefix(sliceHandle, slicePrefix)
	}
	return sliceHandle
}
