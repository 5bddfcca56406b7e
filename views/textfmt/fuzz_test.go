package textfmt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSanitizeIsStable checks what else holds for any input besides the
// absence of controls (FuzzSanitizeEmitsNoControls): sanitising is
// idempotent, because its output has nothing left to escape; text that
// needs no escaping comes back unchanged; Sanitize keeps every line feed
// and leaves no carriage return; SanitizeLine leaves neither; and no byte
// grows into more than four.
func FuzzSanitizeIsStable(f *testing.F) {
	for _, s := range []string{
		"", "plain", "a\nb", "a\r\nb", "50%\r100%", "\r", "\r\r\n", "\t\tx\ty", "ab\tc", "世界\t!", "\x1b[31mred",
		"\xff\xfe", "a\u009bb", "\u2028\u00a0", "\\x1b", "line\n\ttab",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, line := Sanitize(s), SanitizeLine(s)
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize(%q) = %q: want it unchanged by a second pass, got %q", s, out, again)
		}
		if again := SanitizeLine(line); again != line {
			t.Fatalf("SanitizeLine(%q) = %q: want it unchanged by a second pass, got %q", s, line, again)
		}
		if printable(s) && out != s {
			t.Fatalf("Sanitize(%q): want clean text unchanged, got %q", s, out)
		}
		if want, got := strings.Count(s, "\n"), strings.Count(out, "\n"); got != want {
			t.Fatalf("Sanitize(%q) = %q: want its %d line feeds kept, got %d", s, out, want, got)
		}
		if strings.Contains(out, "\r") {
			t.Fatalf("Sanitize(%q) = %q: want no carriage return", s, out)
		}
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("SanitizeLine(%q) = %q: want no line feed or carriage return", s, line)
		}
		if len(out) > 4*len(s) || len(line) > 4*len(s) {
			t.Fatalf("Sanitize(%q): want at most four bytes out per byte in, got %d and %d for %d",
				s, len(out), len(line), len(s))
		}
	})
}

// printable reports whether s is valid UTF-8 without C0 controls other than
// the line feed, DEL or C1 controls: text Sanitize has no reason to touch.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return false
		}
	}
	return true
}
