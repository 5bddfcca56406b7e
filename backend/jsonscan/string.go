package jsonscan

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Str reads a string value. Like encoding/json it replaces invalid UTF-8
// and unpaired surrogate escapes with U+FFFD.
func (s *Scanner) Str() string {
	body, escaped, valid := s.stringBody()
	if s.failed {
		return ""
	}
	if s.text == nil {
		if !escaped && valid {
			return string(body)
		}
		return s.decode(body, valid)
	}
	// Decoding never makes a string longer than its body but for invalid
	// UTF-8, which takes three bytes a byte at most.
	room := len(body)
	if !valid {
		room *= 3
	}
	out := s.text.room(room)
	from := out.Len()
	if !escaped && valid {
		out.Write(body)
	} else {
		s.unquote(out, body, valid)
	}
	return out.String()[from:]
}

// decode returns the string value of a body that holds escapes or invalid
// UTF-8.
func (s *Scanner) decode(body []byte, valid bool) string {
	var out strings.Builder
	if valid {
		out.Grow(len(body))
	} else {
		out.Grow(3 * len(body))
	}
	s.unquote(&out, body, valid)
	return out.String()
}

// stringBody consumes a string and returns its body as written: escaped
// says it holds escapes, valid that it is valid UTF-8. A control character
// fails, as in encoding/json.
func (s *Scanner) stringBody() (body []byte, escaped, valid bool) {
	if !s.consume('"') {
		s.Fail()
		return nil, false, true
	}
	rest, end := s.data[s.pos:], 0
	for {
		q := bytes.IndexByte(rest[end:], '"')
		if q < 0 {
			s.Fail()
			return nil, false, true
		}
		end += q
		backslashes := 0
		for backslashes < end && rest[end-1-backslashes] == '\\' {
			backslashes++
		}
		if backslashes%2 == 0 {
			break
		}
		end++
	}
	body = rest[:end]
	s.pos += end + 1
	ok, escaped, valid := scanText(body)
	if !ok {
		s.Fail()
	}
	return body, escaped, valid
}

// Bytes of a little-endian word, for scanText.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// scanText reports whether b is free of control characters, which
// encoding/json rejects in strings, whether it holds a backslash and
// whether it is valid UTF-8. Most of a log is string bodies, so it checks
// eight bytes a step: w-ones*' ' &^ w has a byte's high bit set where a
// byte of w is below ' ' (a borrow starts only there), and the same test
// of w^ones*'\\' against ones finds a zero byte, a backslash of w.
func scanText(b []byte) (ok, escaped, valid bool) {
	var seen, slashes uint64 // the bits of every byte; backslash marks
	rest := b
	for ; len(rest) >= 8; rest = rest[8:] {
		w := binary.LittleEndian.Uint64(rest)
		if (w-ones*' ')&^w&highs != 0 {
			return false, false, false
		}
		x := w ^ ones*'\\'
		slashes |= (x - ones) &^ x & highs
		seen |= w
	}
	for _, c := range rest {
		if c < ' ' {
			return false, false, false
		}
		if c == '\\' {
			slashes = highs
		}
		seen |= uint64(c)
	}
	return true, slashes != 0, seen&highs == 0 || utf8.Valid(b)
}

// Len reads a string value and returns the length in bytes of what Str
// would return, failing where Str fails, without writing the string: for
// a caller that needs only a text's size.
func (s *Scanner) Len() int {
	body, escaped, valid := s.stringBody()
	if s.failed {
		return 0
	}
	if !escaped && valid {
		return len(body)
	}
	n := 0
	for len(body) > 0 {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return n + textLen(body, valid)
		}
		r, size, ok := unescape(body[i:])
		if !ok {
			s.Fail()
			return 0
		}
		n += textLen(body[:i], valid) + utf8.RuneLen(r)
		body = body[i+size:]
	}
	return n
}

// unquote decodes a string body into out as encoding/json does: escapes,
// surrogate pairs joined and unpaired ones as U+FFFD, invalid UTF-8 as
// U+FFFD a byte. valid says the body is valid UTF-8. A malformed escape
// fails. Len counts what it writes.
func (s *Scanner) unquote(out *strings.Builder, body []byte, valid bool) {
	for len(body) > 0 {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			writeText(out, body, valid)
			return
		}
		r, size, ok := unescape(body[i:])
		if !ok {
			s.Fail()
			return
		}
		writeText(out, body[:i], valid)
		out.WriteRune(r)
		body = body[i+size:]
	}
}

// writeText writes b to out with each byte of invalid UTF-8 as U+FFFD.
func writeText(out *strings.Builder, b []byte, valid bool) {
	if valid {
		out.Write(b)
		return
	}
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out.WriteRune(r)
		b = b[n:]
	}
}

// textLen is how many bytes writeText writes for b.
func textLen(b []byte, valid bool) int {
	if valid {
		return len(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += utf8.RuneLen(r)
		b = b[size:]
	}
	return n
}

// unescape decodes the escape b starts with and returns its rune and
// length.
func unescape(b []byte) (rune, int, bool) {
	if len(b) < 2 {
		return 0, 0, false
	}
	switch b[1] {
	case '"', '\\', '/':
		return rune(b[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return 0, 0, false
		}
		if !utf16.IsSurrogate(r) {
			return r, 6, true
		}
		if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
			if r2, ok := hex4(b[8:]); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, 12, true
				}
			}
		}
		return utf8.RuneError, 6, true
	}
	return 0, 0, false
}

// validEscapes reports whether every escape in a string body is one
// encoding/json accepts.
func validEscapes(body []byte) bool {
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return true
		}
		body = body[i:]
		if len(body) < 2 {
			return false
		}
		n := 2
		switch body[1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, ok := hex4(body[2:]); !ok {
				return false
			}
			n = 6
		default:
			return false
		}
		body = body[n:]
	}
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
