package llm

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// errDone reports the [DONE] sentinel that ends an OpenAI-compatible stream.
var errDone = errors.New("[DONE]")

// MaxSSELine bounds one line, and one event, of a stream. The largest real
// events are a few hundred kilobytes (a whole file written in one tool-call
// delta); a body that runs on without a line break is a broken server, and
// holding it whole would take as much memory as it sends.
const MaxSSELine = 16 << 20

// errCutEvent reports a body that ended inside an event: a connection
// dropped mid-stream with the transfer itself ending cleanly (no length,
// Connection: close).
var errCutEvent = errors.New("stream ended inside an event")

// errLineTooLong reports a line or event over MaxSSELine.
var errLineTooLong = errors.New("stream line too long")

// sseReader splits a server-sent-events body into data payloads. Lines end
// with LF, CRLF or a lone CR, as the SSE specification allows; comment
// lines (": keep-alive") and fields other than data are skipped; "data:"
// works with or without a following space; a blank line dispatches.
type sseReader struct {
	sc   *bufio.Scanner
	data []byte // payload being assembled; reused between events
	// crOnly is set once a line ended with a lone CR: such a body is
	// searched for CR first, which keeps splitting linear.
	crOnly bool
}

func newSSEReader(r io.Reader) *sseReader {
	sr := &sseReader{sc: bufio.NewScanner(r)}
	sr.sc.Buffer(make([]byte, 64<<10), MaxSSELine)
	sr.sc.Split(sr.split)
	return sr
}

// split is a bufio.SplitFunc for LF, CRLF and CR line endings.
func (r *sseReader) split(data []byte, atEOF bool) (int, []byte, error) {
	end := r.lineEnd(data)
	switch {
	case end < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case end < 0:
		return 0, nil, nil
	case data[end] == '\n':
		return end + 1, data[:end], nil
	case end+1 < len(data) && data[end+1] == '\n':
		return end + 2, data[:end], nil
	case end+1 < len(data) || atEOF:
		r.crOnly = true
		return end + 1, data[:end], nil
	}
	return 0, nil, nil // a CR that ends the buffer: an LF may follow
}

// lineEnd is the index of data's first CR or LF, or -1. It looks for the
// ending the body uses first, then for the other only before it, so each
// byte is searched about once.
func (r *sseReader) lineEnd(data []byte) int {
	first, other := byte('\n'), byte('\r')
	if r.crOnly {
		first, other = other, first
	}
	i := bytes.IndexByte(data, first)
	before := data
	if i >= 0 {
		before = data[:i]
	}
	if j := bytes.IndexByte(before, other); j >= 0 {
		return j
	}
	return i
}

// next returns the next event's payload, valid until the following call.
// It returns errDone at [DONE] and io.EOF when the body ends first. An
// event the body's end cuts short is dispatched when it is whole anyway
// ([DONE] or a JSON value: servers that leave out the last blank line),
// and is errCutEvent otherwise, where the SSE specification drops it.
func (r *sseReader) next() ([]byte, error) {
	r.data = r.data[:0]
	pending := false
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			if !pending {
				continue
			}
			return r.payload()
		}
		if value, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if pending {
				r.data = append(r.data, '\n')
			}
			value, _ = bytes.CutPrefix(value, []byte(" "))
			if len(r.data)+len(value) > MaxSSELine {
				return nil, errLineTooLong
			}
			r.data = append(r.data, value...)
			pending = true
		}
	}
	switch err := r.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return nil, errLineTooLong
	case err != nil:
		return nil, err
	case pending && (bytes.Equal(r.data, []byte("[DONE]")) || json.Valid(r.data)):
		return r.payload()
	case pending:
		return nil, errCutEvent
	}
	return nil, io.EOF
}

func (r *sseReader) payload() ([]byte, error) {
	if bytes.Equal(r.data, []byte("[DONE]")) {
		return nil, errDone
	}
	return r.data, nil
}

// body is a response body that can explain its own read failures
// (cancellation, an idle timeout, a broken connection) and hears when an
// event arrives, which bounds waits filled only with keep-alive comments.
type body interface {
	io.ReadCloser
	failure(err error) *Error
	progress()
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
	redact    Redactor

	calls   callAssembler
	finish  string
	usage   *Usage
	content bool // any reasoning, text or tool call arrived
}

// newStream reads b; seed makes the ids of calls the server sent without
// one (see callAssembler).
func newStream(b body, requestID, seed string) *stream {
	return &stream{body: b, requestID: requestID, sse: newSSEReader(b), calls: callAssembler{seed: seed}}
}

// Next returns the next chunk; io.EOF after the finish chunk.
func (s *stream) Next() (Chunk, error) {
	for s.head == len(s.queue) {
		if s.err != nil {
			return Chunk{}, s.err
		}
		s.queue, s.head = s.queue[:0], 0
		s.err = s.advance()
		if e, ok := s.err.(*Error); ok {
			e.RequestID = cmp.Or(e.RequestID, s.requestID)
			s.redact.Error(e)
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
	case err == io.EOF && s.finish != "":
		return s.done() // some servers end after the finish without [DONE]
	case err == io.EOF && !s.content:
		return &Error{Kind: ErrStreamClosed, Message: "the provider closed the stream before sending anything; " + autoRetry + "try again"}
	case err == io.EOF:
		return &Error{Kind: ErrStreamClosed, Message: "the provider closed the stream before it finished (no [DONE]); " + autoRetry + "try again"}
	case err == errCutEvent:
		return &Error{Kind: ErrStreamClosed, Err: err, Message: "the provider's stream ended in the middle of an event (a dropped connection?); " +
			autoRetry + "check the network and try again"}
	case err == errLineTooLong:
		return &Error{Kind: ErrMalformed, Err: err, Message: fmt.Sprintf(
			"the provider sent a stream event over %d MB without a break; the server is misbehaving: try again, and report it if it persists", MaxSSELine>>20)}
	case err != nil:
		return s.body.failure(err)
	}
	s.body.progress()
	if err := decodeChunk(data, &s.wire); err != nil {
		return &Error{Kind: ErrMalformed, Err: err, Message: fmt.Sprintf(
			"the provider sent data tack cannot decode (%v) in %q; try again, and report it if it persists", err, clip(data, 120))}
	}
	if e := s.wire.failure(); e != nil {
		// An error object ends the answer wherever it comes: what arrived
		// before it is not a complete answer (vLLM ends a failed stream so).
		return &Error{Kind: ErrServer, Message: "the provider reported an error mid-stream; " + autoRetry + "try again later (" + clipText(e.Message, 2000) + ")"}
	}
	s.translate()
	return nil
}

func (s *stream) translate() {
	for _, ch := range s.wire.Choices {
		d := &ch.Delta
		// vLLM may send reasoning and reasoning_content with the same
		// text: one is the other's copy, so the first named wins.
		if r := firstOf(d.ReasoningContent, d.Reasoning, d.Content.Thinking); r != "" {
			s.push(Chunk{Kind: ChunkReasoning, Text: r})
		}
		if d.Content.Text != "" {
			s.push(Chunk{Kind: ChunkText, Text: d.Content.Text})
		}
		for _, tc := range d.ToolCalls {
			if delta, ok := s.calls.add(tc); ok {
				s.push(Chunk{Kind: ChunkToolCall, ToolCall: &delta})
			}
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
		}
	}
	if s.wire.Usage != nil {
		u, problem := s.wire.Usage.usage()
		if problem != "" {
			s.note("the provider's token counts were unusable (" + problem + "), so this step's tokens and cost are not counted")
			return
		}
		s.usage = &u
	}
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func (s *stream) push(c Chunk) {
	s.content = true
	s.queue = append(s.queue, c)
}

func (s *stream) note(text string) {
	s.queue = append(s.queue, Chunk{Kind: ChunkNote, Text: text})
}

// done queues the held-back usage and the finish, or ends with the error a
// finish reason stands for. A missing finish reason reads as stop; one tack
// does not know keeps the answer, with a note.
func (s *stream) done() error {
	var reason FinishReason
	switch s.finish {
	case "stop", "":
		reason = FinishStop
	case "tool_calls", "function_call":
		reason = FinishToolCalls
	case "length":
		reason = FinishMaxTokens
	case "insufficient_system_resource":
		s.queueUsage()
		return &Error{Kind: ErrServer, Message: "the provider ran out of capacity mid-answer (insufficient_system_resource); " + autoRetry + "try again later"}
	case "content_filter":
		s.queueUsage()
		return &Error{Kind: ErrModelStopped, Message: "model stopped: content_filter; the provider's content filter stopped the answer; rephrase the request"}
	default:
		reason = FinishStop
		s.note(fmt.Sprintf("the provider ended the answer with a finish reason tack does not know (%q); the answer is kept as complete", clipText(s.finish, 40)))
	}
	if reason == FinishStop && s.calls.any() {
		reason = FinishToolCalls // some servers end tool calls with stop
	}
	s.queueUsage()
	if reason == FinishStop && !s.content {
		return &Error{Kind: ErrEmptyResponse, Message: "the model returned an empty response; " + autoRetry + "try again"}
	}
	s.queue = append(s.queue, Chunk{Kind: ChunkFinish, Finish: reason})
	return io.EOF
}

func (s *stream) queueUsage() {
	if s.usage != nil {
		s.queue = append(s.queue, Chunk{Kind: ChunkUsage, Usage: s.usage})
	}
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// clipText cuts s to n runes.
func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
