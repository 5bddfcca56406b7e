// Package textfmt holds the pure text helpers shared by every front door:
// display sanitising of externally sourced strings and the number, duration,
// cost and path formats of the status row and notices. It imports nothing
// that draws, so line mode uses it too.
package textfmt

import (
	"strings"
	"unicode/utf8"
)

// tabWidth is the distance between tab stops when tabs become spaces.
const tabWidth = 4

// Sanitize makes s safe to print: every C0 and C1 control other than a line
// feed, DEL and every byte that is not valid UTF-8 is shown as a visible
// `\xNN` escape, so only tack ever emits terminal control sequences. A tab
// becomes spaces up to the next stop of four columns, and a CR that ends a
// CRLF pair is dropped (CRLF output reads as lines, a lone CR does not). The
// result never contains a byte below 0x20 other than '\n'.
func Sanitize(s string) string {
	return sanitize(s, false)
}

// SanitizeLine is Sanitize for single-row fields (titles, file names, header
// rows): line feeds and carriage returns are escaped as well, so the result
// never spans more than one row.
func SanitizeLine(s string) string {
	return sanitize(s, true)
}

func sanitize(s string, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	col := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			writeEscape(&b, s[i])
			col += 4
		case r == '\n' && !oneLine:
			b.WriteByte('\n')
			col = 0
		case r == '\r' && !oneLine && i+1 < len(s) && s[i+1] == '\n':
			// dropped: the following '\n' ends the line
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString("    "[:n])
			col += n
		case isControl(r):
			writeEscape(&b, byte(r))
			col += 4
		default:
			b.WriteString(s[i : i+size])
			col++
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no change, the common case, so Sanitize can
// return its argument without allocating.
func clean(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' && !oneLine:
		case c < 0x20 || c == 0x7f:
			return false
		case c >= 0x80:
			return cleanRunes(s[i:])
		}
	}
	return true
}

func cleanRunes(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if r < 0x20 || isControl(r) {
			// a control byte after the first non-ASCII rune: let sanitize decide
			return false
		}
		i += size
	}
	return true
}

// isControl reports C0 controls, DEL and the C1 controls U+0080–U+009F.
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

func writeEscape(b *strings.Builder, c byte) {
	const hex = "0123456789abcdef"
	b.WriteString(`\x`)
	b.WriteByte(hex[c>>4])
	b.WriteByte(hex[c&0xf])
}
