// Package markdown renders Markdown to terminal lines with glamour, in the
// 16-colour palette, without the padding and margins glamour adds, so the
// lines compose into the transcript as they are.
package markdown

import (
	"regexp"
	"strings"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// maxRenderers bounds the per-width renderers kept; a resize drag visits
// many widths and only the latest matter.
const maxRenderers = 4

// Options choose the look of a Renderer.
type Options struct {
	// Colour paints headings, links and code in the palette; without it
	// the lines are plain text, without any SGR sequence or hyperlink.
	Colour bool
	// Dim renders the whole document faint and italic, for reasoning.
	// glamour has no faint attribute, so faint is added to each line.
	Dim bool
	// Background picks colours that read on it.
	Background theme.Background
}

// Renderer turns Markdown into lines. It keeps one glamour TermRenderer per
// width and must not be shared between goroutines.
type Renderer struct {
	opts  Options
	byW   map[int]*glamour.TermRenderer
	order []int
}

// New returns a Renderer with the given look.
func New(opts Options) *Renderer {
	return &Renderer{opts: opts, byW: map[int]*glamour.TermRenderer{}}
}

// Render returns src as styled lines no wider than width. The source is
// sanitised first, so control sequences in it show as `\xNN` text. Leading
// and trailing blank lines and the right padding glamour adds are removed;
// each styled line ends with a full SGR reset, so no style leaks into the
// next row. Tables are as wide as their content, not the whole width.
// Should glamour fail, the sanitised text is wrapped plainly.
func (r *Renderer) Render(src string, width int) []string {
	if width < 8 {
		width = 8
	}
	src = textfmt.Sanitize(src)
	tr, err := r.renderer(width)
	var out string
	if err == nil {
		out, err = tr.Render(src)
	}
	if err != nil {
		return Plain(src, width)
	}
	lines := trimLines(fitTables(strings.Split(out, "\n")))
	if !r.opts.Colour {
		for i, l := range lines {
			lines[i] = ansi.Strip(l)
		}
		return lines
	}
	if r.opts.Dim {
		for i, l := range lines {
			lines[i] = faint(l)
		}
	}
	return lines
}

// faint makes a whole line faint. glamour has no faint attribute, so the
// line starts faint and every reset inside it restores faint.
func faint(l string) string {
	if l == "" {
		return l
	}
	l = strings.ReplaceAll(l, "\x1b[0m", "\x1b[0;2m")
	l = strings.ReplaceAll(l, "\x1b[m", "\x1b[0;2m")
	return "\x1b[2m" + l + "\x1b[m"
}

func (r *Renderer) renderer(width int) (*glamour.TermRenderer, error) {
	if tr, ok := r.byW[width]; ok {
		return tr, nil
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(styleConfig(r.opts.Colour, r.opts.Dim, r.opts.Background)),
		glamour.WithWordWrap(width),
		glamour.WithChromaFormatter("terminal16"),
	)
	if err != nil {
		return nil, err
	}
	if len(r.order) >= maxRenderers {
		delete(r.byW, r.order[0])
		r.order = r.order[1:]
	}
	r.byW[width] = tr
	r.order = append(r.order, width)
	return tr, nil
}

// Plain wraps already sanitised text at width without any styling; it is
// the fallback when glamour fails and the rendering of text that streams
// inside an unfinished code fence.
func Plain(text string, width int) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		lines = append(lines, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
	}
	return lines
}

// trimLines removes glamour's right padding from every line and drops
// blank lines at both ends.
func trimLines(lines []string) []string {
	for i, l := range lines {
		lines[i] = trimRight(l)
	}
	start, end := 0, len(lines)
	for start < end && lines[start] == "" {
		start++
	}
	for end > start && lines[end-1] == "" {
		end--
	}
	return lines[start:end]
}

// trimRight drops trailing spaces, including spaces that sit between or
// after SGR sequences, and closes any style left open.
func trimRight(l string) string {
	if !strings.Contains(l, "\x1b") {
		return strings.TrimRight(l, " ")
	}
	plain := ansi.Strip(l)
	w := ansi.StringWidth(strings.TrimRight(plain, " "))
	if w == 0 {
		return ""
	}
	return trailingSGR.ReplaceAllString(ansi.Truncate(l, w, ""), "") + "\x1b[m"
}

// trailingSGR matches the style sequences left after the last visible
// character once the padding is cut.
var trailingSGR = regexp.MustCompile("(\x1b\\[[0-9;]*m)+$")
