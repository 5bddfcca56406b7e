package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tack-agent/tack/snapshots/testkit/procstat"
)

// memBody is an in-memory response body.
type memBody struct{ io.Reader }

func (memBody) Close() error { return nil }
func (memBody) progress()    {}
func (memBody) failure(err error) *Error {
	return &Error{Kind: ErrTransport, Err: err, Message: err.Error()}
}

func collectBody(raw string) ([]Chunk, error) {
	s := newStream(memBody{strings.NewReader(raw)}, "", "seed")
	var out []Chunk
	for {
		c, err := s.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
}

func TestSSEFraming(t *testing.T) {
	text := func(s string) Chunk { return Chunk{Kind: ChunkText, Text: s} }
	stop := Chunk{Kind: ChunkFinish, Finish: FinishStop}
	tests := []struct {
		name string
		raw  string
		want []Chunk
	}{
		{"data with and without a space", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata:{\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\ndata: [DONE]\n\n",
			[]Chunk{text("a"), text("b"), stop}},
		{"comments and other fields skipped", ": keep-alive\n\nevent: message\nid: 7\ndata: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n: keep-alive\n\ndata: [DONE]\n\n",
			[]Chunk{text("a"), stop}},
		{"CRLF line endings", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\n\r\ndata: [DONE]\r\n\r\n",
			[]Chunk{text("a"), stop}},
		{"multi-line data joins with newline", "data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\n",
			[]Chunk{text("a"), stop}},
		{"[DONE] without a trailing blank line", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]",
			[]Chunk{text("a"), stop}},
		{"first empty reasoning ignored", "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null,\"reasoning_content\":\"\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning_content\":\"r\"}}]}\n\ndata: [DONE]\n\n",
			[]Chunk{{Kind: ChunkReasoning, Text: "r"}, stop}},
		{"usage after finish still precedes it", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"length\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":4,\"prompt_tokens_details\":{\"cached_tokens\":6}}}\n\ndata: [DONE]\n\n",
			[]Chunk{text("a"), {Kind: ChunkUsage, Usage: &Usage{Input: 4, CacheRead: 6, Output: 4}}, {Kind: ChunkFinish, Finish: FinishMaxTokens}}},
		{"tool calls ended with stop finish as tool calls", "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
			[]Chunk{{Kind: ChunkToolCall, ToolCall: &ToolCallDelta{ID: "c", Name: "f", Arguments: "{}"}}, {Kind: ChunkFinish, Finish: FinishToolCalls}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collectBody(tt.raw)
			if err != nil {
				t.Fatalf("want a clean stream, got %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("\nwant %s\ngot  %s", show(tt.want), show(got))
			}
		})
	}
}

func show(cs []Chunk) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Text)
		if c.ToolCall != nil {
			b.WriteString(c.ToolCall.ID + c.ToolCall.Arguments)
		}
		if c.Usage != nil {
			b.WriteString("usage")
		}
		b.WriteString(string(c.Finish) + " | ")
	}
	return b.String()
}

func TestSSELineLongerThanTheBuffer(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	got, err := collectBody("data: {\"choices\":[{\"delta\":{\"content\":\"" + long + "\"}}]}\n\ndata: [DONE]\n\n")
	if err != nil || len(got) != 2 || got[0].Text != long {
		t.Errorf("want one 200 KiB text chunk and finish, got %d chunks, %v", len(got), err)
	}
}

// BenchmarkSSE measures parsing throughput of a DeepSeek stream: SSE
// framing, JSON decoding, chunk translation and call assembly, with no
// network. Besides MB/s of wall time it reports MB per CPU second, which a
// loaded machine disturbs far less (the target is 150 MB/s).
func BenchmarkSSE(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(fixtures, "deepseek-reasoner-v32_reasoning-then-content.chunks.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var one bytes.Buffer
	var want [2]int // bytes of reasoning and of text the fixture's deltas carry, once
	for line := range bytes.Lines(raw) {
		if line[0] != '#' {
			one.WriteString("data: ")
			one.Write(bytes.TrimSpace(line))
			one.WriteString("\n\n")
			var c struct {
				Choices []struct {
					Delta struct {
						Content          string `json:"content"`
						ReasoningContent string `json:"reasoning_content"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal(line, &c); err != nil {
				b.Fatal(err)
			}
			for _, ch := range c.Choices {
				want[0] += len(ch.Delta.ReasoningContent)
				want[1] += len(ch.Delta.Content)
			}
		}
	}
	const repeats = 64
	body := bytes.Repeat(one.Bytes(), repeats)
	body = append(body, "data: [DONE]\n\n"...)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	cpu := procstat.CPUTime()
	defer func() {
		if used := (procstat.CPUTime() - cpu).Seconds(); used > 0 && cpu > 0 {
			b.ReportMetric(float64(b.N)*float64(len(body))/1e6/used, "MB/cpu-s")
		}
	}()
	for b.Loop() {
		s := newStream(memBody{bytes.NewReader(body)}, "", "seed")
		var got [2]int
		for {
			c, err := s.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
			switch c.Kind {
			case ChunkReasoning:
				got[0] += len(c.Text)
			case ChunkText:
				got[1] += len(c.Text)
			}
		}
		if got != [2]int{repeats * want[0], repeats * want[1]} || want[0] == 0 || want[1] == 0 {
			b.Fatalf("want %d bytes of reasoning and %d of text, got %d and %d", repeats*want[0], repeats*want[1], got[0], got[1])
		}
	}
}

func TestSSELineEndingsOfEveryKind(t *testing.T) {
	events := []string{`data: {"choices":[{"delta":{"content":"a"}}]}`, `: note`, `data: {"choices":[{"delta":{"content":"b"}}]}`, `data: [DONE]`}
	for name, sep := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		raw := strings.Join(events, sep+sep) + sep + sep
		for _, reader := range []struct {
			name string
			r    func(string) io.Reader
		}{{"whole", func(s string) io.Reader { return strings.NewReader(s) }}, {"byte by byte", func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) }}} {
			s := newStream(memBody{reader.r(raw)}, "", "seed")
			var text string
			for {
				c, err := s.Next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatalf("%s %s: %v", name, reader.name, err)
					}
					break
				}
				text += c.Text
			}
			if text != "ab" {
				t.Errorf("%s endings, read %s: want text ab, got %q", name, reader.name, text)
			}
		}
	}
	mixed := "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\r\rdata: {\"choices\":[{\"delta\":{\"content\":\"y\"}}]}\n\ndata: [DONE]\r\n\r\n"
	if got, err := collectBody(mixed); err != nil || len(got) != 3 || got[0].Text+got[1].Text != "xy" {
		t.Errorf("want CR, LF and CRLF mixed in one body read, got %+v %v", got, err)
	}
}

// endless is a body that never sends a line break.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += len(p)
	return len(p), nil
}

func TestSSELineOverTheCapIsRefusedWithoutReadingOn(t *testing.T) {
	body := &endless{}
	_, err := collectBody2(io.MultiReader(strings.NewReader("data: {\"choices\":[{\"delta\":{\"content\":\""), body))
	if kindOf(err) != ErrMalformed || !strings.Contains(err.Error(), "over 16 MB without a break") {
		t.Errorf("want a malformed-stream error naming the 16 MB cap, got %v", err)
	}
	if body.n > MaxSSELine+1<<20 {
		t.Errorf("want reading to stop near the cap, read %d bytes", body.n)
	}
}

func collectBody2(r io.Reader) ([]Chunk, error) {
	s := newStream(memBody{r}, "", "seed")
	var out []Chunk
	for {
		c, err := s.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, c)
	}
}

func TestFinishWithoutDoneIsAFinishedAnswer(t *testing.T) {
	got, err := collectBody("data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n")
	if err != nil || len(got) != 2 || got[1].Finish != FinishStop {
		t.Errorf("want text and stop from a body that ends after the finish, got %+v %v", got, err)
	}
}

// A connection dropped mid-event, where the body itself ends cleanly
// (Connection: close, no length), leaves a cut event: the stream closed
// early, which is retried, not a payload that fails to decode, which is
// not. An event whole but for the last blank line still counts.
func TestSSEBodyEndingInsideAnEventIsAClosedStream(t *testing.T) {
	first := "data: {\"choices\":[{\"delta\":{\"content\":\"half\"}}]}\n\n"
	for name, raw := range map[string]string{
		"inside a line":          first + "data: {\"id\":\"x\",\"obj",
		"between its data lines": first + "data: {\"choices\":\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := collectBody(raw)
			var e *Error
			if !errors.As(err, &e) || !e.Retryable() {
				t.Errorf("want a retryable closed stream, got %v", err)
			}
		})
	}
	got, err := collectBody(first + "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}")
	if err != nil || len(got) != 3 || got[2].Finish != FinishStop {
		t.Errorf("want a whole last event without its blank line taken, got %+v %v", got, err)
	}
}
