// Package markdown renders Markdown to terminal lines in the 16-colour
// palette, without padding or margins, so the lines compose into the
// transcript as they are. It parses with goldmark and package gfm
// (GitHub's tables, strikethrough, task lists and autolinks) and
// highlights code with chroma lexers built on first use.
package markdown

import (
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/text"

	"github.com/tack-agent/tack/views/markdown/gfm"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Options choose the look of a Renderer.
type Options struct {
	// Colour paints headings, links and code in the palette; without it
	// the lines are plain text, without any SGR sequence or hyperlink.
	Colour bool
	// Dim renders the whole document faint and italic, for reasoning.
	Dim bool
	// Background picks colours that read on it.
	Background theme.Background
	// Dir is the directory a link to a relative path (a file the model
	// names, "./config.go") starts from; with it such a link, and one to
	// an absolute path, opens the file (file://), as a click in the
	// terminal can. Without it the link carries its address as written.
	Dir string
}

// Renderer turns Markdown into lines.
type Renderer struct {
	opts   Options
	styles styles
}

// New returns a Renderer with the given look.
func New(opts Options) *Renderer {
	return &Renderer{opts: opts, styles: newStyles(opts.Colour, opts.Dim, opts.Background)}
}

// gfmParser parses Markdown as GitHub does. goldmark's parser keeps the state
// of a parse in that parse, so one serves every Renderer; it is built on
// the first Render, not on the path to the first frame.
var gfmParser = sync.OnceValue(gfm.NewParser)

// Render returns src as styled lines no wider than width. The source is
// sanitised first, so control sequences in it show as `\xNN` text. Blank
// lines at both ends are removed; each styled line ends with a full SGR
// reset, so no style leaks into the next row. Tables are as wide as their
// content, not the whole width.
func (r *Renderer) Render(src string, width int) []string {
	if width < 8 {
		width = 8
	}
	source := []byte(textfmt.Sanitize(src))
	rd := &renderer{src: source, width: width, styles: &r.styles, dir: r.opts.Dir}
	if r.opts.Colour {
		bg := r.opts.Background
		rd.code = func(code, language string) string { return highlight(code, language, bg) }
	}
	rd.document(gfmParser().Parse(text.NewReader(source)))
	lines := fitWidth(trimLines(strings.Split(rd.out.String(), "\n")), width)
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

// faint makes a whole line faint: the line starts faint and every reset
// inside it restores faint.
func faint(l string) string {
	if l == "" {
		return l
	}
	l = strings.ReplaceAll(l, "\x1b[0m", "\x1b[0;2m")
	l = strings.ReplaceAll(l, "\x1b[m", "\x1b[0;2m")
	return "\x1b[2m" + l + "\x1b[m"
}

// Plain wraps already sanitised text at width without any styling; it is
// the rendering of text that streams inside an unfinished code fence.
func Plain(text string, width int) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		lines = append(lines, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
	}
	return lines
}

// fitWidth breaks the rare line the wrapping left wider than width (a word
// exactly as wide as the line, then spaces and a hyphen) at width.
func fitWidth(lines []string, width int) []string {
	for i := 0; i < len(lines); i++ {
		if ansi.StringWidth(lines[i]) <= width {
			continue
		}
		parts := strings.Split(ansi.Hardwrap(lines[i], width, true), "\n")
		for j, p := range parts {
			parts[j] = trimRight(p)
		}
		lines = append(lines[:i], append(parts, lines[i+1:]...)...)
		i += len(parts) - 1
	}
	return lines
}

// trimLines removes the spaces at the end of every line and drops blank
// lines at both ends.
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
	return trailingSGR().ReplaceAllString(ansi.Truncate(l, w, ""), "") + "\x1b[m"
}

// trailingSGR matches the style sequences left after the last visible
// character once the trailing spaces are cut.
var trailingSGR = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(\x1b\\[[0-9;]*m)+$") })
