// Package jsonscan walks JSON text without reflection, for the hot paths
// that decode a few known fields from many small documents: stream chunks
// and session log lines. Its callers switch on keys and pull each value
// with the method for its type; whatever a Scanner returns, it decodes as
// encoding/json would.
package jsonscan

// Scanner reads one JSON text. The first failure sticks: it moves the
// position to the end, so every later step is a no-op that returns a zero
// value, and Failed reports it.
type Scanner struct {
	data   []byte
	pos    int
	failed bool
	text   *Arena // holds decoded strings when not nil
	key    []byte // the decoded form of an escaped key
}

// New returns a Scanner over data. With a non-nil text the strings it
// decodes are written there; with nil each is allocated on its own.
func New(data []byte, text *Arena) Scanner {
	return Scanner{data: data, text: text}
}

// Fail marks the scan failed, for a caller that meets a value it cannot take.
func (s *Scanner) Fail() {
	s.failed = true
	s.pos = len(s.data)
}

// Failed reports whether the scan has failed.
func (s *Scanner) Failed() bool { return s.failed }

func (s *Scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// Peek skips whitespace and returns the next byte, 0 at the end.
func (s *Scanner) Peek() byte {
	s.ws()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// consume skips whitespace, then c if it comes next, and reports whether
// it did.
func (s *Scanner) consume(c byte) bool {
	s.ws()
	return s.accept(c)
}

// accept consumes c if it comes next and reports whether it did.
func (s *Scanner) accept(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *Scanner) expect(c byte) {
	if !s.consume(c) {
		s.Fail()
	}
}

// End fails unless only whitespace is left.
func (s *Scanner) End() {
	s.ws()
	if s.pos != len(s.data) {
		s.Fail()
	}
}

// literal consumes word if it comes next.
func (s *Scanner) literal(word string) bool {
	s.ws()
	if end := s.pos + len(word); end <= len(s.data) && string(s.data[s.pos:end]) == word {
		s.pos += len(word)
		return true
	}
	return false
}

// Null consumes a null if one comes next and reports whether it did.
func (s *Scanner) Null() bool { return s.literal("null") }

// Bool reads true or false.
func (s *Scanner) Bool() bool {
	switch {
	case s.literal("true"):
		return true
	case s.literal("false"):
		return false
	}
	s.Fail()
	return false
}

// Object calls member for each key, decoded, positioned at its value,
// which member must consume or fail. A null object has no keys, as for
// encoding/json decoding into a struct. key is valid until member scans
// further.
func (s *Scanner) Object(member func(key []byte)) {
	if s.Null() {
		return
	}
	s.expect('{')
	if s.consume('}') {
		return
	}
	for !s.failed {
		key, escaped, valid := s.stringBody()
		if (escaped || !valid) && !s.failed {
			s.key = append(s.key[:0], s.decode(key, valid)...)
			key = s.key
		}
		s.expect(':')
		member(key)
		if !s.consume(',') {
			s.expect('}')
			return
		}
	}
}

// Array calls elem for each element, which elem must consume or fail.
// Unlike Object it does not take null, whose meaning for a slice is the
// caller's.
func (s *Scanner) Array(elem func()) {
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

// Skip consumes any value, validating it as encoding/json would.
func (s *Scanner) Skip() {
	switch s.Peek() {
	case '"':
		if body, escaped, _ := s.stringBody(); escaped && !validEscapes(body) {
			s.Fail()
		}
	case '{':
		s.Object(func([]byte) { s.Skip() })
	case '[':
		s.Array(s.Skip)
	case 't', 'f':
		s.Bool()
	case 'n':
		if !s.Null() {
			s.Fail()
		}
	default:
		s.number()
	}
}

// Offset is how far into the text the scan has come.
func (s *Scanner) Offset() int { return s.pos }

// Raw consumes any value and returns its text.
func (s *Scanner) Raw() []byte {
	s.ws()
	start := s.pos
	s.Skip()
	if s.failed {
		return nil
	}
	return s.data[start:s.pos]
}

// number consumes a number as JSON spells it: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func (s *Scanner) number() {
	s.ws()
	s.accept('-')
	switch {
	case s.accept('0'):
	case s.pos < len(s.data) && '1' <= s.data[s.pos] && s.data[s.pos] <= '9':
		s.digits()
	default:
		s.Fail()
		return
	}
	if s.accept('.') && s.digits() == 0 {
		s.Fail()
		return
	}
	if s.accept('e') || s.accept('E') {
		if !s.accept('+') {
			s.accept('-')
		}
		if s.digits() == 0 {
			s.Fail()
		}
	}
}

// digits consumes a run of digits and returns its length.
func (s *Scanner) digits() int {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}

// maxDigits keeps every integer Int64 reads inside int64; longer ones
// fail, for the caller to leave to encoding/json.
const maxDigits = 18

// Int64 reads an integer of at most 18 digits. Fractions and exponents
// fail, as encoding/json fails to put them in an integer field.
func (s *Scanner) Int64() int64 {
	s.ws()
	neg := s.accept('-')
	start := s.pos
	var n int64
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		n = n*10 + int64(s.data[s.pos]-'0')
		s.pos++
	}
	digits := s.pos - start
	if digits == 0 || digits > maxDigits || digits > 1 && s.data[start] == '0' {
		s.Fail()
		return 0
	}
	if neg {
		return -n
	}
	return n
}

// Int reads an integer that fits an int.
func (s *Scanner) Int() int {
	n := s.Int64()
	if int64(int(n)) != n {
		s.Fail()
	}
	return int(n)
}
