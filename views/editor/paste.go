package editor

import (
	"fmt"
	"strings"
)

// A paste over these sizes shows as one marker row and is expanded when the
// text is submitted, so a large paste neither floods the editor nor loses a
// byte to its line limits.
const (
	pasteMaxLines = 10
	pasteMaxBytes = 1000
)

// paste is one large paste of the current draft, its number and its
// marker.
type paste struct {
	n            int
	marker, text string
}

// pastes are the large pastes of the current draft. It is a value: add
// returns a new list, so an Editor copy never sees another's pastes.
type pastes []paste

// add returns the list with the paste recorded and what to insert: the
// text itself when it is small, otherwise a marker such as
// `[paste #1 +42 lines]`. Line ends arrive as CR from most terminals
// (xterm, tmux, iTerm2 send what the Return key sends), as CRLF from some;
// both become LF, so the marker counts lines and the model gets newlines.
func (p pastes) add(text string) (pastes, string) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := lineCount(text)
	if lines <= pasteMaxLines && len(text) <= pasteMaxBytes {
		return p, text
	}
	n := 1 // numbers stay unique when earlier pastes were edited away
	for _, x := range p {
		n = max(n, x.n+1)
	}
	marker := fmt.Sprintf("[paste #%d +%d lines]", n, lines)
	return append(p[:len(p):len(p)], paste{n, marker, text}), marker
}

// lineCount is the number of lines in text: a last line ending (a file
// copied whole) ends the last line rather than starting another.
func lineCount(text string) int {
	return strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
}

// expand replaces every marker still in text with its paste.
func (p pastes) expand(text string) string {
	for _, x := range p {
		text = strings.Replace(text, x.marker, x.text, 1)
	}
	return text
}

// collapse puts back the marker of every paste of p whose text is whole in
// text, adding the paste to kept, and returns kept and the text.
func (p pastes) collapse(kept pastes, text string) (pastes, string) {
	for _, x := range p {
		if i := strings.Index(text, x.text); i >= 0 {
			text = text[:i] + x.marker + text[i+len(x.text):]
			kept = append(kept, x)
		}
	}
	return kept, text
}
