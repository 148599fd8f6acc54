package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/dustin/go-humanize"
)

// isTTY reports whether w is a terminal.
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// ui renders output styled on a terminal and plain otherwise.
type ui struct {
	w      io.Writer
	styled bool
	r      *lipgloss.Renderer
}

func newUI(w io.Writer) *ui {
	u := &ui{w: w, styled: isTTY(w) && os.Getenv("NO_COLOR") == ""}
	u.r = lipgloss.NewRenderer(w)
	return u
}

func (u *ui) style(s lipgloss.Style, text string) string {
	if !u.styled {
		return text
	}
	return s.Renderer(u.r).Render(text)
}

var (
	styleTitle = lipgloss.NewStyle().Bold(true)
	styleDim   = lipgloss.NewStyle().Faint(true)
	styleOK    = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleWarn  = lipgloss.NewStyle().Foreground(lipgloss.Color("3"))
	styleKind  = lipgloss.NewStyle().Foreground(lipgloss.Color("6"))
	styleName  = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("4"))
	stylePath  = lipgloss.NewStyle().Foreground(lipgloss.Color("5"))
)

func (u *ui) title(s string) string { return u.style(styleTitle, s) }
func (u *ui) dim(s string) string   { return u.style(styleDim, s) }
func (u *ui) ok(s string) string    { return u.style(styleOK, s) }
func (u *ui) warn(s string) string  { return u.style(styleWarn, s) }
func (u *ui) kind(s string) string  { return u.style(styleKind, s) }
func (u *ui) name(s string) string  { return u.style(styleName, s) }
func (u *ui) path(s string) string  { return u.style(stylePath, s) }

func bytesText(n int64) string { return humanize.Bytes(uint64(n)) }

// progressBar draws one line on a terminal, at most ten times a second.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	last  time.Time
	shown bool
}

func newProgressBar(w io.Writer) *progressBar { return &progressBar{w: w} }

func (p *progressBar) update(phase string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < 100*time.Millisecond && done != total {
		return
	}
	p.last = time.Now()
	const width = 30
	line := fmt.Sprintf("  %-8s", phase)
	if total > 0 {
		filled := done * width / total
		line += " " + strings.Repeat("━", filled) + strings.Repeat("─", width-filled) + fmt.Sprintf(" %d/%d", done, total)
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

func (p *progressBar) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// count writes n with the singular or plural noun: "1 memory file",
// "2 memory files".
func count[N int | int64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
