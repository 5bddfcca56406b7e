package llm

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/tack-agent/tack/backend/jsonscan"
)

// decodeChunk decodes one stream payload into w. A stream is thousands of
// small chunks whose few interesting fields sit among ids, fingerprints and
// nulls; walking the bytes and handing only tool calls, usage and errors to
// encoding/json is about three times faster than unmarshalling every chunk,
// which keeps parsing well above network speed.
func decodeChunk(data []byte, w *wireChunk) error {
	*w = wireChunk{Choices: w.Choices[:0]} // a stream decodes into one w: its choices keep their room
	s := chunkScan{Scanner: jsonscan.New(data, nil)}
	s.Object(func(key []byte) {
		switch string(key) {
		case "choices":
			if s.Null() {
				return
			}
			s.Array(func() {
				var ch wireChoice
				s.Object(func(key []byte) {
					switch string(key) {
					case "delta":
						s.delta(&ch.Delta)
					case "finish_reason":
						ch.FinishReason = s.str()
					default:
						s.Skip()
					}
				})
				w.Choices = append(w.Choices, ch)
			})
		case "usage":
			if !s.Null() { // DeepSeek sends "usage":null in every chunk
				s.into(&w.Usage)
			}
		case "error":
			if !s.Null() {
				s.into(&w.Error)
			}
		case "object":
			if raw := s.Raw(); bytes.IndexByte(raw, '\\') >= 0 {
				s.intoRaw(raw, &w.Object)
			} else {
				w.Object = errorObject(string(raw) == `"error"`)
			}
		case "message":
			w.Message = s.str()
		default:
			s.Skip()
		}
	})
	s.End()
	switch {
	case s.err != nil:
		return s.err
	case s.Failed():
		return errSyntax
	}
	return nil
}

func (s *chunkScan) delta(d *wireDelta) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "content":
			if s.Peek() == '[' {
				s.into(&d.Content) // an array of typed parts: rare, so encoding/json reads it
				return
			}
			d.Content.Text = s.str()
		case "reasoning_content":
			d.ReasoningContent = s.str()
		case "reasoning":
			d.Reasoning = s.str()
		case "tool_calls":
			s.into(&d.ToolCalls)
		default:
			s.Skip()
		}
	})
}

var errSyntax = errors.New("invalid JSON")

// chunkScan reads a chunk; err holds the error of a value handed to
// encoding/json, which is worded better than errSyntax.
type chunkScan struct {
	jsonscan.Scanner
	err error
}

// str reads a string value; null reads as "".
func (s *chunkScan) str() string {
	if s.Null() {
		return ""
	}
	return s.Str()
}

// into unmarshals the next value into v with encoding/json.
func (s *chunkScan) into(v any) {
	s.intoRaw(s.Raw(), v)
}

// intoRaw unmarshals raw, a value already read, into v with encoding/json.
func (s *chunkScan) intoRaw(raw []byte, v any) {
	if s.Failed() {
		return
	}
	if err := json.Unmarshal(raw, v); err != nil {
		s.err = err
		s.Fail()
	}
}
