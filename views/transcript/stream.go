package transcript

import (
	"strings"

	"github.com/tack-agent/tack/views/markdown"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// streamed renders Markdown that is still growing without re-rendering all
// of it per delta. Text streams append-only, so everything before the last
// paragraph break outside a code fence is final: it is rendered once, chunk
// by chunk, and kept. Only the unfinished tail is rendered per delta, as
// Markdown, or as plain code rows while it sits inside an open fence (it is
// highlighted once the fence closes). The settled message is rendered again
// as one document, so chunk seams never outlive the stream.
// codeIndent matches the margin markdown gives code blocks.
const codeIndent = 2

type streamed struct {
	width  int
	stable int      // bytes of the text rendered into lines
	lines  []string // rendering of text[:stable]
}

func (s *streamed) render(text string, width int, md *markdown.Renderer, th theme.Theme) []string {
	if s.width != width || len(text) < s.stable {
		*s = streamed{width: width}
	}
	cut, inFence := boundary(text)
	if cut > s.stable {
		s.lines = joinChunks(s.lines, md.Render(text[s.stable:cut], width))
		s.stable = cut
	}
	tail := text[s.stable:]
	if strings.TrimSpace(tail) == "" {
		return s.lines
	}
	var rows []string
	if inFence {
		// the fence line itself is the first line of the tail
		if _, code, ok := strings.Cut(strings.TrimLeft(tail, "\n"), "\n"); ok {
			for _, l := range markdown.Plain(textfmt.Sanitize(strings.TrimRight(code, "\n")), width-codeIndent) {
				rows = append(rows, strings.Repeat(" ", codeIndent)+th.Code.Render(l))
			}
		}
	} else {
		rows = md.Render(tail, width)
	}
	out := make([]string, 0, len(s.lines)+len(rows)+1)
	return joinChunks(append(out, s.lines...), rows)
}

// joinChunks appends a rendered chunk, separated by one blank row.
func joinChunks(lines, chunk []string) []string {
	if len(chunk) == 0 {
		return lines
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	return append(lines, chunk...)
}

// boundary returns the end of the last complete Markdown chunk in text (just
// after a blank line or a closing fence, outside any code fence) and whether
// the text after it is inside an open fence.
func boundary(text string) (cut int, inFence bool) {
	fence := ""
	pos := 0
	prevBlank := false
	for pos < len(text) {
		nl := strings.IndexByte(text[pos:], '\n')
		if nl < 0 {
			break // the last line is unfinished
		}
		line := text[pos : pos+nl]
		pos += nl + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence = ""
				cut = pos
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			if !prevBlank && cut < pos-nl-1 {
				cut = pos - nl - 1 // a fence opening starts a new chunk
			}
		case strings.TrimSpace(line) == "":
			if !prevBlank {
				cut = pos
			}
		}
		prevBlank = fence == "" && strings.TrimSpace(line) == ""
	}
	return cut, fence != ""
}
