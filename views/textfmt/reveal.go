package textfmt

import (
	"fmt"
	"strings"
)

// Reveal is Sanitize for text a person must read exactly to decide on it
// (the command of an approval): it also shows as escapes (\u202e) the
// characters that change how the text around them reads without being
// seen themselves, which bash and the file system do not ignore:
// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), the directional marks (U+200E, U+200F, U+061C),
// zero-width characters (U+200B–U+200D, U+2060, U+FEFF), the line and
// paragraph separators and tag characters (U+E0000–U+E007F).
func Reveal(s string) string { return reveal(Sanitize(s)) }

// RevealLine is Reveal for single-row fields, as SanitizeLine.
func RevealLine(s string) string { return reveal(SanitizeLine(s)) }

func reveal(s string) string {
	if strings.IndexFunc(s, invisible) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch {
		case !invisible(r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// invisible reports the characters Reveal escapes.
func invisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}
