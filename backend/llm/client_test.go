package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

const fixtures = "../../testdata/deepseek"

func newTestClient(srv *llmtest.Server) *Client {
	return NewClient(ClientConfig{BaseURL: srv.URL(), APIKey: "sk-test", Version: "1.2.3"})
}

// streamOne runs one request against a single scripted response and collects
// it, returning the raw chunks too.
func streamOne(t *testing.T, resp llmtest.Response) ([]Chunk, *Accumulator, error) {
	t.Helper()
	srv := llmtest.New(t, resp)
	s, err := newTestClient(srv).Stream(context.Background(), Request{Model: "deepseek-flash"})
	if err != nil {
		return nil, &Accumulator{}, err
	}
	defer s.Close()
	var chunks []Chunk
	var acc Accumulator
	for {
		c, err := s.Next()
		if errors.Is(err, io.EOF) {
			return chunks, &acc, nil
		}
		if err != nil {
			return chunks, &acc, err
		}
		chunks = append(chunks, c)
		acc.Add(c)
	}
}

func TestRecordedStreamsReplayIntoExactContent(t *testing.T) {
	const strawberryReasoning = "We need to count the number of the letter \"r\" in the word \"strawberry\". The word is spelled: s-t-r-a-w-b-e-r-r-y. Let's list the letters and count the \"r\"s:\n\nPosition 1: s\n2: t\n3: r (first r)\n4: a\n5: w\n6: b\n7: e\n8: r (second r)\n9: r (third r)\n10: y\n\nSo there are three \"r\"s. But wait, let's double-check: \"strawberry\" indeed has three \"r\"s: one after \"t\", and then two consecutive \"r\"s before \"y\". So the answer is 3.\n\nThe question is straightforward. However, sometimes people might miscount. Let's ensure: The word has 10 letters. The \"r\"s are at positions 3, 8, and 9. So yes, 3.\n\nThus, the answer is 3."
	tests := []struct {
		file   string
		want   Message
		usage  Usage
		finish FinishReason
	}{
		{
			file:   "deepseek-reasoner-v32_reasoning-then-content.chunks.jsonl",
			want:   Message{Role: RoleAssistant, Reasoning: strawberryReasoning, Content: `The word "strawberry" contains three "r"s.`},
			usage:  Usage{Input: 18, CacheRead: 0, Output: 219, Reasoning: 205},
			finish: FinishStop,
		},
		{
			file: "deepseek-chat-v31_content-then-tool-call.sse",
			want: Message{Role: RoleAssistant, Content: "I'll check the current weather in Tokyo for you.",
				ToolCalls: []ToolCall{{ID: "call_00_Sq0n5HVeFHkS1mBrIGbwBQcK", Name: "get_weather", Arguments: `{"location": "Tokyo"}`}}},
			usage:  Usage{Input: 33, CacheRead: 128, Output: 25},
			finish: FinishToolCalls,
		},
	}
	entries, _ := os.ReadDir(fixtures)
	if len(entries) != len(tests) {
		t.Errorf("want a test case for each of the %d recordings in %s, got %d cases", len(entries), fixtures, len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			chunks, acc, err := streamOne(t, llmtest.MustReplay(t, filepath.Join(fixtures, tt.file)))
			if err != nil {
				t.Fatalf("want the recording to stream cleanly, got %v", err)
			}
			if got := acc.Message(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("message:\nwant %#v\ngot  %#v", tt.want, got)
			}
			if got, ok := acc.Usage(); !ok || got != tt.usage {
				t.Errorf("usage: want %+v, got %+v (reported %v)", tt.usage, got, ok)
			}
			n := len(chunks)
			if n < 2 || chunks[n-2].Kind != ChunkUsage || chunks[n-1].Kind != ChunkFinish || chunks[n-1].Finish != tt.finish {
				t.Errorf("want the stream to end with usage then finish %q, got %+v", tt.finish, chunks[max(n-2, 0):])
			}
		})
	}
}

func TestToolCallFragmentsKeepTheirIndexWithIDAndNameFirst(t *testing.T) {
	chunks, acc, err := streamOne(t, llmtest.Reply(
		llmtest.ToolCall("call_a", "read", `{"path":"a.go"}`, 3),
		llmtest.ToolCall("call_b", "grep", `{"pattern":"x"}`, 2),
	))
	if err != nil {
		t.Fatal(err)
	}
	var deltas []ToolCallDelta
	for _, c := range chunks {
		if c.Kind == ChunkToolCall {
			deltas = append(deltas, *c.ToolCall)
		}
	}
	want := []ToolCallDelta{
		{Index: 0, ID: "call_a", Name: "read"}, {Index: 0, Arguments: `{"pat`}, {Index: 0, Arguments: `h":"a`}, {Index: 0, Arguments: `.go"}`},
		{Index: 1, ID: "call_b", Name: "grep"}, {Index: 1, Arguments: `{"patter`}, {Index: 1, Arguments: `n":"x"}`},
	}
	if !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas:\nwant %+v\ngot  %+v", want, deltas)
	}
	calls := acc.Message().ToolCalls
	if len(calls) != 2 || !reflect.DeepEqual(calls[1], ToolCall{ID: "call_b", Name: "grep", Arguments: `{"pattern":"x"}`}) {
		t.Errorf("want two assembled calls, got %+v", calls)
	}
	if acc.Finish() != FinishToolCalls {
		t.Errorf("want finish %q, got %q", FinishToolCalls, acc.Finish())
	}
}

func TestRequestSerialisation(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)
	history := []Message{
		{Role: RoleUser, Content: "list the files"},
		{Role: RoleSystem, Content: "You are tack."},
		{Role: RoleAssistant, Reasoning: "I should run ls.", ToolCalls: []ToolCall{
			{ID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`},
			{ID: "call_2", Name: "bash", Arguments: `{"command":"true"}`},
		}},
		{Role: RoleTool, ToolCallID: "call_1", Content: "a.go\nb.go"},
		{Role: RoleTool, ToolCallID: "call_2"},
		{Role: RoleAssistant, Reasoning: "Two files.", Content: "There are two files."},
		{Role: RoleUser, Content: "thanks"},
	}
	tests := []struct {
		name    string
		req     Request
		purpose string
	}{
		{"thinking-high-tools-passback", Request{Model: "deepseek-v4-pro", Effort: EffortHigh, MaxTokens: 32000, Messages: history,
			Tools: []ToolSpec{{Name: "bash", Description: "Run a shell command.", Parameters: params}}, SessionID: "s-1"}, ""},
		{"thinking-off", Request{Model: "deepseek-flash", Effort: EffortOff, Messages: history[:2]}, ""},
		{"title-forces-thinking-off", Request{Model: "deepseek-flash", Effort: EffortMax, MaxTokens: 64, Messages: history[:1], Purpose: PurposeTitle}, "title"},
		{"compaction", Request{Model: "deepseek-flash", Effort: EffortLow, Messages: history, Purpose: PurposeCompaction}, "compaction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var script []llmtest.Response
			if tt.req.Purpose != PurposeTitle {
				script = append(script, llmtest.ReplyText("ok")) // title requests are answered outside the script
			}
			srv := llmtest.New(t, script...)
			if _, err := Collect(must(newTestClient(srv).Stream(context.Background(), tt.req))); err != nil {
				t.Fatal(err)
			}
			srv.AssertConsumed(t)
			got := append(srv.Requests(), srv.TitleRequests()...)[0]
			matchGolden(t, filepath.Join("testdata", "request-"+tt.name+".json"), got.Body)
			h := got.Header
			for key, want := range map[string]string{
				"User-Agent": "tack/1.2.3", "Authorization": "Bearer sk-test", "X-Session-Id": tt.req.SessionID,
				"X-Tack-Purpose": tt.purpose, "Accept": "text/event-stream",
			} {
				if h.Get(key) != want {
					t.Errorf("header %s: want %q, got %q", key, want, h.Get(key))
				}
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func matchGolden(t *testing.T, path string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("request body is not JSON: %v", err)
	}
	got, _ := json.MarshalIndent(v, "", "  ")
	golden.Assert(t, path, append(got, '\n'))
}

func TestCancellingAStalledStreamEndsItAsAborted(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := newTestClient(srv).Stream(ctx, Request{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	<-srv.Stalled()
	done := make(chan error, 1)
	go func() {
		for {
			if _, err := s.Next(); err != nil {
				done <- err
				return
			}
		}
	}()
	cancel()
	// The fake never ends a stall and the client's idle timeout is minutes
	// away (and would end it as a transport error), so Next returns because
	// of the cancel, which its kind confirms.
	select {
	case err := <-done:
		if kind := kindOf(err); kind != ErrAborted {
			t.Errorf("want kind %q, got %v", ErrAborted, err)
		}
	case <-time.After(time.Minute):
		t.Fatal("want Next to return after cancel, still blocked after a minute")
	}
}

func TestIdleStreamTimesOutAsTransportError(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
	c := NewClient(ClientConfig{BaseURL: srv.URL(), IdleTimeout: 50 * time.Millisecond})
	err := collectErr(c.Stream(context.Background(), Request{Model: "m"}))
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrTransport || !e.Retryable() || !strings.Contains(e.Message, "sent nothing for 50ms") {
		t.Errorf("want a retryable transport error naming the 50ms idle timeout, got %v", err)
	}
}

func TestKeepAlivesAreIgnored(t *testing.T) {
	_, acc, err := streamOne(t, llmtest.Reply(llmtest.KeepAlive(), llmtest.Reasoning("hm", 0), llmtest.KeepAlive(), llmtest.Text("hi", 1)))
	if err != nil || acc.Message().Content != "hi" || acc.Message().Reasoning != "hm" {
		t.Errorf("want reasoning \"hm\" and text \"hi\" through keep-alives, got %+v, %v", acc.Message(), err)
	}
}

// collectErr is the error of a stream's start or of reading it: a timeout
// shorter than a loaded machine's response can fire in either.
func collectErr(s Stream, err error) error {
	if err != nil {
		return err
	}
	_, err = Collect(s)
	return err
}

func kindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

func TestKeepAlivesAloneDoNotHoldAStreamForEver(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Queued(5*time.Millisecond)))
	c := NewClient(ClientConfig{BaseURL: srv.URL(), QuietTimeout: 100 * time.Millisecond})
	err := collectErr(c.Stream(context.Background(), Request{Model: "m"}))
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrTransport || !e.Retryable() || !strings.Contains(e.Message, "sent only keep-alives for 100ms") {
		t.Errorf("want a retryable transport error naming the 100ms quiet timeout, got %v", err)
	}
}
