package mcp

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/redact"
)

// clean makes text a server sent safe to show: control characters other
// than newline and tab become visible \xNN escapes (so a server cannot move
// the cursor or change colours), and invalid UTF-8 is replaced.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stderrTail keeps the last bytes a server wrote to stderr, for reports.
type stderrTail struct {
	redact redact.Redactor
	mu     sync.Mutex
	buf    []byte
}

const tailBytes = 4 << 10

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

// Lines is the last n non-empty lines, cleaned and with the server's
// credentials redacted, each at most 200 characters.
func (t *stderrTail) Lines(n int) []string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	for !utf8.ValidString(text) && len(text) > 0 {
		text = text[1:] // the cut may have split a character
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, "\r \t"); l != "" {
			if r := []rune(l); len(r) > 200 {
				l = string(r[:200]) + "…"
			}
			out = append(out, t.redact.Text(clean(l)))
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func (t *stderrTail) Reset() {
	t.mu.Lock()
	t.buf = nil
	t.mu.Unlock()
}
