package llm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

const serverFixtures = "../../testdata/servers"

// madeUp stands for an id the stream made for a call the server sent
// without a usable one.
const madeUp = "<made up>"

var madeUpID = regexp.MustCompile(`^call_[0-9a-f]{12}_\d+$`)

// TestServerRecordingsReplay replays every recording of another server
// (each file names its public source on its first line) and checks the
// exact message that comes out, and that the next request made from it is
// one the fake server's validation accepts: every call answered under its
// id, no id empty or used twice.
func TestServerRecordingsReplay(t *testing.T) {
	call := func(id, name, args string) ToolCall { return ToolCall{ID: id, Name: name, Arguments: args} }
	tests := []struct {
		file   string
		want   Message
		usage  *Usage
		finish FinishReason
		note   string    // a fragment of the one note, "" for none
		kind   ErrorKind // a failed stream
		detail string    // a fragment of its message
	}{
		{file: "litellm-bedrock-index1.chunks.jsonl", finish: FinishToolCalls,
			want: Message{ToolCalls: []ToolCall{call("tooluse_BawIVFHuQ2uaPLDBdWlblA", "jira_get_worklog", `{"issue": "X-1"}`)}}},
		{file: "llamacpp-gptoss-reasoning.chunks.jsonl", finish: FinishStop, want: Message{Reasoning: "We"},
			usage: &Usage{Input: 1085, Output: 247}},
		{file: "mistral-thinking-content-array.chunks.jsonl", finish: FinishStop,
			want: Message{Reasoning: "Okay, the user is1.", Content: "391"}, usage: &Usage{Input: 28, Output: 139}},
		{file: "ollama-0.34-reasoning-field.chunks.jsonl", finish: FinishStop, want: Message{Reasoning: "We need answer", Content: "OK"}},
		{file: "ollama-qwen25-parallel-tools.chunks.jsonl", finish: FinishToolCalls, want: Message{ToolCalls: []ToolCall{
			call("call_wteop8bt", "run_command", `{"command":"ls"}`), call("call_rk2xye1l", "run_command", `{"command":"ls -l"}`)}}},
		{file: "ollama-qwen25-text-one-chunk.chunks.jsonl", finish: FinishStop,
			want: Message{Content: "My name is Ben Dover. How can I help you today?"}},
		{file: "vercel-issue-20203-empty-tool-calls.chunks.jsonl", finish: FinishStop, want: Message{Reasoning: "Think more...", Content: "Hello"}},
		{file: "vercel-placeholder-first-chunk.chunks.jsonl", finish: FinishStop, want: Message{Content: "Hello"}, usage: &Usage{Input: 10, Output: 1}},
		{file: "vllm-both-reasoning-fields.chunks.jsonl", finish: FinishStop, want: Message{Reasoning: "Thinking Process", Content: "2"}},
		{file: "vllm-tool-calls-without-id.chunks.jsonl", finish: FinishToolCalls, usage: &Usage{Input: 120, Output: 30},
			want: Message{ToolCalls: []ToolCall{call(madeUp, "read", `{"path": "go.mod"}`), call(madeUp, "read", `{"path": "main.go"}`)}}},
		{file: "dynamo-parallel-calls-restart-index0.chunks.jsonl", finish: FinishToolCalls, want: Message{Content: "\n", ToolCalls: []ToolCall{
			call("call-9439f831-8d70-47f3-b058-d514241d7ef8", "add_numbers", `{"b":2,"a":2}`),
			call("call-84eb6907-b8e3-4f15-a15b-eca7410ffaaf", "get_weather", `{"unit":"celsius","location":"Tokyo"}`)}}},
		{file: "litellm-idless-calls-at-index0.chunks.jsonl", finish: FinishToolCalls, want: Message{ToolCalls: []ToolCall{
			call(madeUp, "web_fetch", `{"url":"https://a.example"}`), call(madeUp, "web_fetch", `{"url":"https://b.example"}`),
			call(madeUp, "web_search", `{"query":"tack agent"}`)}}},
		{file: "provider-duplicate-and-empty-ids.chunks.jsonl", finish: FinishToolCalls, want: Message{ToolCalls: []ToolCall{
			call("call_0", "glob", `{"pattern":"*.go"}`), call(madeUp, "glob", `{"pattern":"*.md"}`), call(madeUp, "glob", `{"pattern":"*.toml"}`)}}},
		{file: "gateway-unknown-finish-eos.chunks.jsonl", finish: FinishStop, want: Message{Content: "The build passes now."},
			usage: &Usage{Input: 50, Output: 6}, note: `finish reason tack does not know ("eos"); the answer is kept`},
		{file: "gateway-bad-usage-numbers.chunks.jsonl", finish: FinishStop, want: Message{Content: "Done."}, usage: &Usage{},
			note: "token counts were unusable (prompt_tokens is \"41\")"},
		{file: "openai-gpt41-nano-text.chunks.jsonl", finish: FinishStop, want: Message{Content: "**Holiday Name:** Harmony Day."},
			usage: &Usage{Input: 16, Output: 300}},
		{file: "azure-openai-gpt5-nano-content-filter.chunks.jsonl", finish: FinishStop, want: Message{Content: "Capital of Denmark."},
			usage: &Usage{Input: 15, Output: 78, Reasoning: 64}},
		{file: "cr-only-line-endings.sse", finish: FinishStop, want: Message{Content: "Carriage returns only."}},
		{file: "gemini-openai-thought-signature.chunks.jsonl", finish: FinishToolCalls, usage: &Usage{Input: 310, Output: 24},
			want: Message{ToolCalls: []ToolCall{
				{ID: "function-call-1", Name: "read", Arguments: `{"path":"go.mod"}`,
					Extra: json.RawMessage(`{"google":{"thought_signature":"CiQB0e2Kb3Rlc3Qtc2lnbmF0dXJlLUE="}}`)},
				call("function-call-2", "read", `{"path":"main.go"}`)}}},
		{file: "vllm-error-after-content.chunks.jsonl", kind: ErrServer, detail: "(CUDA out of memory while decoding; the request was aborted)"},
		{file: "deepseek-insufficient-system-resource.chunks.jsonl", kind: ErrServer, detail: "ran out of capacity mid-answer"},
	}
	entries, _ := os.ReadDir(serverFixtures)
	var files []string
	for _, e := range entries {
		if e.Name() != "README.md" {
			files = append(files, e.Name())
		}
	}
	for _, tt := range tests {
		if i := slices.Index(files, tt.file); i >= 0 {
			files = slices.Delete(files, i, i+1)
		}
		t.Run(tt.file, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.MustReplay(t, filepath.Join(serverFixtures, tt.file)), llmtest.ReplyText("next"))
			c := NewClient(ClientConfig{BaseURL: srv.URL(), Profile: OpenAICompatibleProfile})
			history := []Message{{Role: RoleUser, Content: "go"}}
			acc, err := Collect(must(c.Stream(context.Background(), Request{Model: "m", Messages: history})))
			if tt.kind != "" {
				var e *Error
				if kindOf(err) != tt.kind || !strings.Contains(err.Error(), tt.detail) || !asError(err, &e) || !e.Retryable() {
					t.Fatalf("want a retryable %s error naming %q, got %v", tt.kind, tt.detail, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("want the recording to stream cleanly, got %v", err)
			}
			got := acc.Message()
			tt.want.Role = RoleAssistant
			checkMessage(t, got, tt.want)
			if u, ok := acc.Usage(); ok != (tt.usage != nil) || ok && u != *tt.usage {
				t.Errorf("usage: want %+v, got %+v (reported %v)", tt.usage, u, ok)
			}
			if acc.Finish() != tt.finish {
				t.Errorf("finish: want %q, got %q", tt.finish, acc.Finish())
			}
			notes := acc.Notes()
			if tt.note == "" && len(notes) > 0 || tt.note != "" && (len(notes) != 1 || !strings.Contains(notes[0], tt.note)) {
				t.Errorf("notes: want one containing %q, got %q", tt.note, notes)
			}
			history = append(history, got)
			for _, tc := range got.ToolCalls {
				history = append(history, Message{Role: RoleTool, ToolCallID: tc.ID, Content: "ok"})
			}
			if len(got.ToolCalls) == 0 {
				history = append(history, Message{Role: RoleUser, Content: "thanks"})
			}
			if _, err := Collect(must(c.Stream(context.Background(), Request{Model: "m", Messages: history}))); err != nil {
				t.Fatalf("want the next request accepted, got %v", err)
			}
			srv.AssertConsumed(t)
			sent := srv.Requests()[1].Messages[1]
			for i, tc := range got.ToolCalls {
				if sent.ToolCalls[i].ID != tc.ID || srv.Requests()[1].Messages[2+i].ToolCallID != tc.ID {
					t.Errorf("call %d: want its id %s on the call and its result in the next request, got %+v", i, tc.ID, srv.Requests()[1].Messages)
				}
			}
			// What a server attached to a call goes back with it, as
			// Gemini's models require of their thought signatures.
			var body struct {
				Messages []struct {
					ToolCalls []struct {
						Extra json.RawMessage `json:"extra_content"`
					} `json:"tool_calls"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(srv.Requests()[1].Body, &body); err != nil {
				t.Fatal(err)
			}
			for i, tc := range got.ToolCalls {
				if back := body.Messages[1].ToolCalls[i].Extra; string(back) != string(tc.Extra) {
					t.Errorf("call %d: want extra_content %s sent back, got %s", i, tc.Extra, back)
				}
			}
		})
	}
	if len(files) > 0 {
		t.Errorf("want a case for every recording in %s, these have none: %v", serverFixtures, files)
	}
}

// checkMessage compares got with want, where a want id of madeUp accepts
// an id the stream made, distinct from every other.
func checkMessage(t *testing.T, got, want Message) {
	t.Helper()
	if got.Role != want.Role || got.Content != want.Content || got.Reasoning != want.Reasoning || len(got.ToolCalls) != len(want.ToolCalls) {
		t.Fatalf("message:\nwant %#v\ngot  %#v", want, got)
	}
	seen := map[string]bool{}
	for i, w := range want.ToolCalls {
		g := got.ToolCalls[i]
		idOK := g.ID == w.ID || w.ID == madeUp && madeUpID.MatchString(g.ID)
		if !idOK || seen[g.ID] || g.Name != w.Name || g.Arguments != w.Arguments || string(g.Extra) != string(w.Extra) {
			t.Errorf("call %d: want %+v, got %+v (ids so far %v)", i, w, g, seen)
		}
		seen[g.ID] = true
	}
}

func asError(err error, e **Error) bool {
	le, ok := err.(*Error)
	*e = le
	return ok
}

// TestMadeUpIDsAreStableForARequest: the ids made for calls vLLM sends
// without one come from the request, so a retry of it makes the same ones
// (a retried step logs the same calls) and another request makes others
// (two steps' calls never share an id).
func TestMadeUpIDsAreStableForARequest(t *testing.T) {
	ids := func(prompt string) []string {
		srv := llmtest.New(t, llmtest.MustReplay(t, filepath.Join(serverFixtures, "vllm-tool-calls-without-id.chunks.jsonl")))
		c := NewClient(ClientConfig{BaseURL: srv.URL(), Profile: OpenAICompatibleProfile})
		acc, err := Collect(must(c.Stream(context.Background(), Request{Model: "m", Messages: []Message{{Role: RoleUser, Content: prompt}}})))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tc := range acc.Message().ToolCalls {
			out = append(out, tc.ID)
		}
		return out
	}
	first, again, other := ids("read both"), ids("read both"), ids("read them")
	if len(first) != 2 || !slices.Equal(first, again) {
		t.Errorf("want a retry to make the same two ids, got %v then %v", first, again)
	}
	if slices.ContainsFunc(other, func(id string) bool { return slices.Contains(first, id) }) {
		t.Errorf("want another request's ids distinct, got %v and %v", first, other)
	}
}
