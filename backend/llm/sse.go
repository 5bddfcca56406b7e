package llm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// errDone reports the [DONE] sentinel that ends an OpenAI-compatible stream.
var errDone = errors.New("[DONE]")

// sseReader splits a server-sent-events body into data payloads. Comment
// lines (": keep-alive") and fields other than data are skipped; "data:"
// works with or without a following space; a blank line dispatches.
type sseReader struct {
	br   *bufio.Reader
	data []byte // payload being assembled; reused between events
	long []byte // a line longer than the bufio buffer
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next event's payload, valid until the following call.
// It returns errDone at [DONE] and io.EOF when the body ends first.
func (r *sseReader) next() ([]byte, error) {
	r.data = r.data[:0]
	pending := false
	for {
		line, err := r.line()
		if len(line) == 0 && pending && (err == nil || err == io.EOF) {
			if bytes.Equal(r.data, []byte("[DONE]")) {
				return nil, errDone
			}
			return r.data, nil
		}
		if value, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if pending {
				r.data = append(r.data, '\n')
			}
			value, _ = bytes.CutPrefix(value, []byte(" "))
			r.data = append(r.data, value...)
			pending = true
		}
		if err != nil && (err != io.EOF || !pending) {
			return nil, err
		}
	}
}

// line reads one line without its line ending. At the end of the body it
// returns the unterminated tail, then an empty line with io.EOF.
func (r *sseReader) line() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), err
}

// body is a response body that can explain its own read failures:
// cancellation, an idle timeout or a broken connection.
type body interface {
	io.ReadCloser
	failure(err error) *Error
}

// stream turns SSE payloads into Chunks. Usage and finish are held back
// until [DONE] so that usage always precedes finish, whichever order the
// server sent them in.
type stream struct {
	body      body
	requestID string
	sse       *sseReader
	wire      wireChunk
	queue     []Chunk
	head      int
	err       error // returned once the queue is drained: io.EOF or an *Error

	finish    string
	usage     *Usage
	content   bool // any reasoning, text or tool call arrived
	toolCalls bool
}

func newStream(b body, requestID string) *stream {
	return &stream{body: b, requestID: requestID, sse: newSSEReader(b)}
}

// Next returns the next chunk; io.EOF after the finish chunk.
func (s *stream) Next() (Chunk, error) {
	for s.head == len(s.queue) {
		if s.err != nil {
			return Chunk{}, s.err
		}
		s.queue, s.head = s.queue[:0], 0
		s.err = s.advance()
		if e, ok := s.err.(*Error); ok && e.RequestID == "" {
			e.RequestID = s.requestID
		}
	}
	c := s.queue[s.head]
	s.head++
	return c, nil
}

// Close releases the connection. It may run concurrently with a blocked
// Next, which then reports the stream aborted.
func (s *stream) Close() error { return s.body.Close() }

// advance reads one event and queues its chunks. A non-nil result ends the
// stream once the queue is drained.
func (s *stream) advance() error {
	data, err := s.sse.next()
	switch {
	case err == errDone:
		return s.done()
	case err == io.EOF:
		return &Error{Kind: ErrStreamClosed, Message: "the provider closed the stream before it finished (no [DONE]); try again"}
	case err != nil:
		return s.body.failure(err)
	}
	if err := decodeChunk(data, &s.wire); err != nil {
		return &Error{Kind: ErrMalformed, Err: err, Message: fmt.Sprintf(
			"the provider sent data tack cannot decode (%v) in %q; try again, and report it if it persists", err, clip(data, 120))}
	}
	if e := s.wire.Error; e != nil {
		return &Error{Kind: ErrServer, Message: "the provider reported an error mid-stream; " + autoRetry + "try again later (" + e.Message + ")"}
	}
	s.translate()
	return nil
}

func (s *stream) translate() {
	for _, ch := range s.wire.Choices {
		d := &ch.Delta
		if r := d.ReasoningContent + d.Reasoning; r != "" {
			s.push(Chunk{Kind: ChunkReasoning, Text: r})
		}
		if d.Content != "" {
			s.push(Chunk{Kind: ChunkText, Text: d.Content})
		}
		for _, tc := range d.ToolCalls {
			delta := ToolCallDelta{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
			if tc.Index != nil {
				delta.Index = *tc.Index
			}
			if delta.ID != "" || delta.Name != "" || delta.Arguments != "" {
				s.toolCalls = true
				s.push(Chunk{Kind: ChunkToolCall, ToolCall: &delta})
			}
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
		}
	}
	if s.wire.Usage != nil {
		u := s.wire.Usage.usage()
		s.usage = &u
	}
}

func (s *stream) push(c Chunk) {
	s.content = true
	s.queue = append(s.queue, c)
}

// done queues the held-back usage and the finish, or ends with the error a
// finish reason stands for. A missing finish reason reads as stop.
func (s *stream) done() error {
	if s.usage != nil {
		s.queue = append(s.queue, Chunk{Kind: ChunkUsage, Usage: s.usage})
	}
	var reason FinishReason
	switch s.finish {
	case "stop", "":
		reason = FinishStop
		if s.toolCalls {
			reason = FinishToolCalls // some servers end tool calls with stop
		}
	case "tool_calls", "function_call":
		reason = FinishToolCalls
	case "length":
		reason = FinishMaxTokens
	default:
		return &Error{Kind: ErrModelStopped, Message: stoppedMessage(s.finish)}
	}
	if reason == FinishStop && !s.content {
		return &Error{Kind: ErrEmptyResponse, Message: "the model returned an empty response; " + autoRetry + "try again"}
	}
	s.queue = append(s.queue, Chunk{Kind: ChunkFinish, Finish: reason})
	return io.EOF
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// stoppedMessage explains a finish reason tack cannot continue from: the
// provider's filter, or the server running short of capacity.
func stoppedMessage(finish string) string {
	advice := "try again, or rephrase the request"
	switch finish {
	case "content_filter":
		advice = "the provider's content filter stopped the answer; rephrase the request"
	case "insufficient_system_resource":
		advice = "the provider ran out of capacity; try again later"
	}
	return "model stopped: " + finish + "; " + advice
}
