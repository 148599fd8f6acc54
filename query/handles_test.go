package query

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLookupHandleReadsBackwards fills a sidecar with several blocks of
// records, some longer than a block, and finds the newest record of each
// handle wherever it lies, bounded by the window when one is given.
func TestLookupHandleReadsBackwards(t *testing.T) {
	x := &Index{Path: filepath.Join(t.TempDir(), "index.db")}
	var b strings.Builder
	add := func(h, version string, reqLen int) {
		req, _ := json.Marshal(map[string]string{"taskText": strings.Repeat("x", reqLen)})
		line, _ := json.Marshal(handleRecord{Handle: h, Version: version, Request: req})
		b.Write(line)
		b.WriteByte('\n')
	}
	add("sl_first", "v1", 10)
	add("sl_twice", "v1", 10)
	for i := range 3000 {
		add(fmt.Sprintf("sl_%04d", i), "v1", 100)
		if i == 1500 {
			add("sl_long", "v1", 3*handleBlock) // spans blocks
			add("sl_twice", "v2", 10)
		}
	}
	add("sl_last", "v1", 10)
	if err := os.WriteFile(x.handlesPath(), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 4*handleBlock {
		t.Fatalf("sidecar of %d bytes spans too few blocks", b.Len())
	}
	for h, version := range map[string]string{"sl_first": "v1", "sl_twice": "v2", "sl_long": "v1", "sl_last": "v1", "sl_0000": "v1", "sl_2999": "v1"} {
		rec := x.lookupHandle(h, 0)
		if rec == nil || rec.Handle != h || rec.Version != version {
			t.Errorf("lookup %s = %+v, want version %s", h, rec, version)
		}
	}
	if rec := x.lookupHandle("sl_long", 0); rec != nil && len(rec.Request) < 3*handleBlock {
		t.Errorf("sl_long's request read short: %d bytes", len(rec.Request))
	}
	if rec := x.lookupHandle("sl_missing", 0); rec != nil {
		t.Errorf("a handle never recorded was found: %+v", rec)
	}
	// the window: the last record is within it, the first is not
	if x.lookupHandle("sl_last", handleBlock) == nil {
		t.Error("the newest record is not found within one block")
	}
	if x.lookupHandle("sl_first", handleBlock) != nil {
		t.Error("the oldest record is found within one block of the end")
	}
}
