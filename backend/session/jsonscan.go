package session

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner decodes the JSON of event lines without reflection. It decodes
// only what it can decode exactly as encoding/json would and fails on
// anything else: a syntax error, an unknown or escaped key, a number that
// is not an integer, a null where encoding/json would leave a value alone,
// invalid UTF-8, a surrogate escape. A failed line is decoded again with
// encoding/json, which also words the error. The first failure sticks and
// turns every later step into a no-op.
type scanner struct {
	b      []byte
	i      int
	failed bool
	text   *textArena // holds the decoded strings
}

// A textArena's allocations grow from minTextChunk to textChunk bytes, so
// that decoding a few lines takes little.
const minTextChunk, textChunk = 1 << 10, 64 << 10

// textArena holds the decoded strings of many lines in a few large
// allocations, which are cheaper to make and for the collector to track
// than a string each. A string keeps its whole chunk alive, which costs
// nothing when, as on load, all of a log's events are kept.
type textArena struct {
	cur  *strings.Builder
	next int // the size of the next chunk
}

// room returns the chunk to write a string of at most n bytes to. The
// strings are slices of the chunk's String; writes only append, so earlier
// ones never change.
func (a *textArena) room(n int) *strings.Builder {
	if a.cur == nil || a.cur.Cap()-a.cur.Len() < n {
		a.next = min(max(2*a.next, minTextChunk), textChunk)
		a.cur = new(strings.Builder)
		a.cur.Grow(max(n, a.next))
	}
	return a.cur
}

func (s *scanner) fail() {
	s.failed = true
	s.i = len(s.b)
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// consume skips whitespace, then c if it comes next, and reports whether
// it did.
func (s *scanner) consume(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) expect(c byte) {
	if !s.consume(c) {
		s.fail()
	}
}

// end fails unless only whitespace is left.
func (s *scanner) end() {
	s.ws()
	if s.i != len(s.b) {
		s.fail()
	}
}

// null consumes a null literal if one comes next.
func (s *scanner) null() bool {
	s.ws()
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// object calls member for each key, positioned at its value, which member
// must consume or fail. A null object has no keys, as for encoding/json
// decoding into a struct. Keys are compared raw, so an escaped key fails.
func (s *scanner) object(member func(key []byte)) {
	if s.null() {
		return
	}
	s.expect('{')
	if s.consume('}') {
		return
	}
	for !s.failed {
		key, escaped := s.stringBody()
		if escaped {
			s.fail()
		}
		s.expect(':')
		member(key)
		if !s.consume(',') {
			s.expect('}')
			return
		}
	}
}

// array calls elem for each element, which elem must consume.
func (s *scanner) array(elem func()) {
	s.expect('[')
	if s.consume(']') {
		return
	}
	for !s.failed {
		elem()
		if !s.consume(',') {
			s.expect(']')
			return
		}
	}
}

// list decodes an array into *p, each element with decode. Like
// encoding/json, null sets *p to nil and [] to an empty slice. A second
// array for the same field fails: encoding/json would decode it into the
// first one's elements.
func list[T any](s *scanner, p *[]T, decode func(*T)) {
	if s.null() {
		*p = nil
		return
	}
	if *p != nil {
		s.fail()
		return
	}
	out := []T{}
	s.array(func() {
		var v T
		decode(&v)
		out = append(out, v)
	})
	*p = out
}

// pointer decodes an object into **p with decode, allocating *p if it is
// nil; null sets *p to nil, as encoding/json does.
func pointer[T any](s *scanner, p **T, decode func(*T)) {
	if s.null() {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(T)
	}
	decode(*p)
}

// str reads a string value. Decoding never makes a string longer than
// its body, so the body's length is enough room.
func (s *scanner) str() string {
	body, escaped := s.stringBody()
	if s.failed {
		return ""
	}
	out := s.text.room(len(body))
	from := out.Len()
	if escaped {
		s.unescape(out, body)
	} else {
		out.Write(body)
	}
	return out.String()[from:]
}

// stringBody consumes a string and returns its body as written; escaped
// says it holds escapes. Control characters and invalid UTF-8 fail.
func (s *scanner) stringBody() (body []byte, escaped bool) {
	if !s.consume('"') {
		s.fail()
		return nil, false
	}
	rest, end := s.b[s.i:], 0
	for {
		q := bytes.IndexByte(rest[end:], '"')
		if q < 0 {
			s.fail()
			return nil, false
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
	s.i += end + 1
	if !validText(body) {
		s.fail()
	}
	return body, bytes.IndexByte(body, '\\') >= 0
}

// Bytes of a little-endian word, for validText.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// validText reports whether b is valid UTF-8 without control characters,
// which encoding/json rejects in strings. Most of a log is string bodies,
// so it checks eight bytes a step: w-ones*' ' &^ w has a byte's high bit
// set where a byte of w is below ' ' (a borrow starts only there).
func validText(b []byte) bool {
	var seen uint64 // the bits of every byte, for the ASCII test
	rest := b
	for ; len(rest) >= 8; rest = rest[8:] {
		w := binary.LittleEndian.Uint64(rest)
		if (w-ones*' ')&^w&highs != 0 {
			return false
		}
		seen |= w
	}
	for _, c := range rest {
		if c < ' ' {
			return false
		}
		seen |= uint64(c)
	}
	return seen&highs == 0 || utf8.Valid(b)
}

// unescape decodes the body of a string that holds escapes into out.
func (s *scanner) unescape(out *strings.Builder, body []byte) {
	for len(body) > 0 {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			out.Write(body)
			break
		}
		out.Write(body[:i])
		body = body[i+1:]
		width := 1
		switch body[0] {
		case '"', '\\', '/':
			out.WriteByte(body[0])
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			r, ok := hex4(body[1:])
			if !ok || utf16.IsSurrogate(r) {
				s.fail()
				return
			}
			out.WriteRune(r)
			width = 5
		default:
			s.fail()
			return
		}
		body = body[width:]
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

// maxDigits keeps every integer the scanner reads inside int64; longer
// ones are left to encoding/json.
const maxDigits = 18

// int64 reads an integer. Fractions and exponents fail, as encoding/json
// fails to put them in an integer field.
func (s *scanner) int64() int64 {
	s.ws()
	neg := s.i < len(s.b) && s.b[s.i] == '-'
	if neg {
		s.i++
	}
	start := s.i
	var n int64
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		n = n*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > maxDigits || digits > 1 && s.b[start] == '0' {
		s.fail()
		return 0
	}
	if neg {
		return -n
	}
	return n
}

func (s *scanner) int() int {
	n := s.int64()
	if int64(int(n)) != n {
		s.fail()
	}
	return int(n)
}

func (s *scanner) bool() bool {
	s.ws()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false
	}
	s.fail()
	return false
}
