package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// decodeChunk decodes one stream payload into w. A stream is thousands of
// small chunks whose few interesting fields sit among ids, fingerprints and
// nulls; walking the bytes and handing only tool calls, usage and errors to
// encoding/json is about three times faster than unmarshalling every chunk,
// which keeps parsing well above network speed.
func decodeChunk(data []byte, w *wireChunk) error {
	*w = wireChunk{}
	s := jsonScan{b: data}
	s.object(func(key []byte) {
		switch string(key) {
		case "choices":
			s.array(func() {
				var ch wireChoice
				s.object(func(key []byte) {
					switch string(key) {
					case "delta":
						s.delta(&ch.Delta)
					case "finish_reason":
						ch.FinishReason = s.str()
					default:
						s.skip()
					}
				})
				w.Choices = append(w.Choices, ch)
			})
		case "usage":
			s.into(&w.Usage)
		case "error":
			s.into(&w.Error)
		default:
			s.skip()
		}
	})
	s.ws()
	if s.err == nil && s.i != len(s.b) {
		s.fail()
	}
	return s.err
}

func (s *jsonScan) delta(d *wireDelta) {
	s.object(func(key []byte) {
		switch string(key) {
		case "content":
			d.Content = s.str()
		case "reasoning_content":
			d.ReasoningContent = s.str()
		case "reasoning":
			d.Reasoning = s.str()
		case "tool_calls":
			s.into(&d.ToolCalls)
		default:
			s.skip()
		}
	})
}

var errSyntax = errors.New("invalid JSON")

// jsonScan walks JSON text without building values. The first error sticks
// and turns every later step into a no-op.
type jsonScan struct {
	b   []byte
	i   int
	err error
}

func (s *jsonScan) fail() {
	if s.err == nil {
		s.err = errSyntax
		s.i = len(s.b)
	}
}

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte, 0 at the end.
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// expect consumes c or fails.
func (s *jsonScan) expect(c byte) {
	if s.peek() != c {
		s.fail()
		return
	}
	s.i++
}

// object calls member for each key, positioned at its value, which member
// must consume. A null counts as an empty object.
func (s *jsonScan) object(member func(key []byte)) {
	if s.null() {
		return
	}
	s.expect('{')
	for s.err == nil && s.peek() != '}' {
		start, end := s.stringSpan()
		s.expect(':')
		member(s.b[start:end])
		if s.peek() == ',' {
			s.i++
		} else if s.peek() != '}' {
			s.fail()
		}
	}
	s.expect('}')
}

// array calls elem for each element, which elem must consume. A null counts
// as an empty array.
func (s *jsonScan) array(elem func()) {
	if s.null() {
		return
	}
	s.expect('[')
	for s.err == nil && s.peek() != ']' {
		elem()
		if s.peek() == ',' {
			s.i++
		} else if s.peek() != ']' {
			s.fail()
		}
	}
	s.expect(']')
}

func (s *jsonScan) null() bool {
	if s.peek() == 'n' && bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// str reads a string value; null reads as "".
func (s *jsonScan) str() string {
	if s.null() {
		return ""
	}
	start, end := s.stringSpan()
	if s.err != nil {
		return ""
	}
	raw := s.b[start:end]
	// encoding/json turns invalid UTF-8 into U+FFFD; so does the slow path.
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	var out string
	if err := json.Unmarshal(s.b[start-1:end+1], &out); err != nil {
		s.fail()
	}
	return out
}

// stringSpan consumes a string token and returns the bounds of its body.
func (s *jsonScan) stringSpan() (start, end int) {
	s.expect('"')
	start = s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
			continue
		case '"':
			end = s.i
			s.i++
			return start, end
		}
		s.i++
	}
	s.fail()
	return start, start
}

// skip consumes any value.
func (s *jsonScan) skip() {
	switch s.peek() {
	case '"':
		s.stringSpan()
	case '{':
		s.object(func([]byte) { s.skip() })
	case '[':
		s.array(s.skip)
	case 0:
		s.fail()
	default:
		start := s.i
		for s.i < len(s.b) && bytes.IndexByte([]byte(",}] \t\r\n"), s.b[s.i]) < 0 {
			s.i++
		}
		if s.i == start {
			s.fail()
		}
	}
}

// into unmarshals the next value into v with encoding/json.
func (s *jsonScan) into(v any) {
	start := s.i
	s.skip()
	if s.err == nil {
		if err := json.Unmarshal(s.b[start:s.i], v); err != nil {
			s.err = err
		}
	}
}
