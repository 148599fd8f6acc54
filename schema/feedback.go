package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Feedback is one agent feedback record (sdl.agent.feedback): a line of
// the sidecar file and a row of the feedback table.
type Feedback struct {
	FeedbackID     string   `json:"feedbackId"`
	VersionID      string   `json:"versionId"`
	SliceHandle    string   `json:"sliceHandle"`
	UsefulSymbols  []string `json:"usefulSymbols"`
	MissingSymbols []string `json:"missingSymbols"`
	TaskTags       []string `json:"taskTags"`
	TaskType       string   `json:"taskType"`
	TaskText       string   `json:"taskText"`
	CreatedAt      string   `json:"createdAt"`
}

// maxFeedbackLine bounds one line of the sidecar.
const maxFeedbackLine = 4 << 20

// FeedbackPath is the feedback sidecar of the index at db: feedback.jsonl
// next to it, append-only, one JSON object a line.
func FeedbackPath(db string) string { return filepath.Join(filepath.Dir(db), "feedback.jsonl") }

// AppendFeedback appends one record to the sidecar at path. The line goes
// out in one write to a file opened O_APPEND, so records of concurrent
// writers never interleave.
func AppendFeedback(path string, f *Feedback) error {
	line, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("record feedback: %w", err)
	}
	if len(line) >= maxFeedbackLine {
		return fmt.Errorf("record feedback: the record is %d bytes, over %d", len(line), maxFeedbackLine)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("record feedback: %w", err)
	}
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("record feedback: %w", err)
	}
	_, err = fh.Write(append(line, '\n'))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("record feedback to %s: %w", path, err)
	}
	return nil
}

// ReadFeedback reads the sidecar at path from byte offset on. It returns
// the records, the offset just after the last complete line, and how many
// lines were not valid records (skipped). A missing file has no records.
func ReadFeedback(path string, offset int64) ([]Feedback, int64, int, error) {
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, 0, nil
	}
	if err != nil {
		return nil, offset, 0, fmt.Errorf("read feedback: %w", err)
	}
	defer fh.Close()
	if _, err := fh.Seek(offset, io.SeekStart); err != nil {
		return nil, offset, 0, fmt.Errorf("read feedback: %w", err)
	}
	r := bufio.NewReaderSize(fh, 64<<10)
	var out []Feedback
	bad := 0
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] != '\n' {
			break // a line still being written: read it next time
		}
		if len(line) > 0 {
			offset += int64(len(line))
			var f Feedback
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if json.Unmarshal(t, &f) != nil || f.FeedbackID == "" {
					bad++
				} else {
					out = append(out, f)
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, offset, bad, fmt.Errorf("read feedback: %w", err)
		}
	}
	return out, offset, bad, nil
}
