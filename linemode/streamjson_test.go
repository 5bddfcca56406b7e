package linemode

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session/claudelog"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// streamLine is one line of stream-json output, as a consumer decodes it.
type streamLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Message struct {
		Role    string `json:"role"`
		Content []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			ToolUseID string          `json:"tool_use_id"`
			Input     json.RawMessage `json:"input"`
		} `json:"content"`
	} `json:"message"`
	Event struct {
		Type         string `json:"type"`
		ContentBlock struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"content_block"`
	} `json:"event"`
	SessionID string `json:"session_id"`
}

// readStream is a small stream-json consumer: it parses every line and
// checks the order claude -p consumers rely on: system/init first; then,
// per turn, assistant and user messages (with stream events) and one
// result; assistant blocks are text, thinking or tool_use, user blocks
// tool_result answering an earlier tool_use; stream events open with
// message_start and close with message_stop. It returns the lines.
func readStream(t *testing.T, out string, turns int) []streamLine {
	t.Helper()
	var lines []streamLine
	for i, raw := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var l streamLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, raw)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 || lines[0].Type != "system" || lines[0].Subtype != "init" || lines[0].SessionID == "" {
		t.Fatalf("want a system/init line with the session id first, got %+v", lines)
	}
	toolUses := map[string]bool{}
	results, inMessage := 0, false
	for i, l := range lines[1:] {
		if l.SessionID != lines[0].SessionID {
			t.Errorf("line %d: want session_id %q, got %q", i+2, lines[0].SessionID, l.SessionID)
		}
		switch l.Type {
		case "assistant":
			for _, b := range l.Message.Content {
				if !slices.Contains([]string{"text", "thinking", "tool_use"}, b.Type) {
					t.Errorf("line %d: want text, thinking or tool_use blocks in an assistant message, got %q", i+2, b.Type)
				}
				if b.Type == "tool_use" {
					toolUses[b.ID] = true
					if tools.ClaudeName(b.Name) != b.Name {
						t.Errorf("line %d: want the tool named as Claude Code names it, got %q", i+2, b.Name)
					}
					if !json.Valid(b.Input) {
						t.Errorf("line %d: want the tool_use input as JSON, got %q", i+2, b.Input)
					}
				}
			}
		case "user":
			for _, b := range l.Message.Content {
				if b.Type != "tool_result" || !toolUses[b.ToolUseID] {
					t.Errorf("line %d: want tool_result blocks answering an earlier tool_use, got %+v", i+2, b)
				}
			}
		case "stream_event":
			switch l.Event.Type {
			case "message_start":
				inMessage = true
			case "message_stop":
				inMessage = false
			case "content_block_start", "content_block_delta", "content_block_stop", "message_delta":
				if b := l.Event.ContentBlock; b.Type == "tool_use" && tools.ClaudeName(b.Name) != b.Name {
					t.Errorf("line %d: want the streamed tool named as Claude Code names it, got %q", i+2, b.Name)
				}
				if !inMessage {
					t.Errorf("line %d: %s outside message_start … message_stop", i+2, l.Event.Type)
				}
			default:
				t.Errorf("line %d: unknown stream event %q", i+2, l.Event.Type)
			}
		case "result":
			results++
		default:
			t.Errorf("line %d: unknown line type %q", i+2, l.Type)
		}
	}
	if results != turns || lines[len(lines)-1].Type != "result" {
		t.Errorf("want %d result lines, the last line one of them, got %d ending in %q", turns, results, lines[len(lines)-1].Type)
	}
	return lines
}

// streamSession opens a session over script in a workspace holding
// notes.txt.
func streamSession(t *testing.T, script ...llmtest.Response) (*launch.Session, string, *llmtest.Server) {
	t.Helper()
	return streamSessionWith(t, launch.Options{}, nil, script...)
}

// streamSessionWith opens a session as streamSession does, with o's MCP
// configs and answerer of their forms (Unattended, Elicit), and more
// variables in its environment.
func streamSessionWith(t *testing.T, o launch.Options, more map[string]string, script ...llmtest.Response) (*launch.Session, string, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t, script...)
	home, cwd := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	maps.Copy(env, more)
	s, err := launch.Open(launch.Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Now: peakClock(),
		MCPConfigs: o.MCPConfigs, Unattended: o.Unattended, Elicit: o.Elicit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, cwd, srv
}

// toolTurn reads a file, thinking first, then answers.
func toolTurn() []llmtest.Response {
	return []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("I should read the notes.", 8), llmtest.Text("Reading.", 0),
			llmtest.ToolCall("call_1", "read", `{"file_path":"notes.txt"}`, 3), llmtest.Usage(0, 50, 10, 4), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Text("The notes say: buy milk.", 6), llmtest.Usage(40, 30, 8, 0)),
	}
}

func TestStreamJSONSpeaksTheClaudeMessageShapes(t *testing.T) {
	for _, partial := range []bool{false, true} {
		name := "stream_json"
		if partial {
			name = "stream_json_partial"
		}
		t.Run(name, func(t *testing.T) {
			s, cwd, _ := streamSession(t, toolTurn()...)
			var stdout, stderr bytes.Buffer
			out := Print(context.Background(), s, PrintOptions{Task: "what do the notes say?", Format: FormatStreamJSON,
				IncludePartial: partial, Stdout: &stdout, Stderr: &stderr, Version: "test"})
			if !out.OK() {
				t.Fatalf("want the turn to complete, got %+v (stderr %q)", out, stderr.String())
			}
			lines := readStream(t, stdout.String(), 1)
			if partial != slices.ContainsFunc(lines, func(l streamLine) bool { return l.Type == "stream_event" }) {
				t.Errorf("want stream events exactly with --include-partial-messages (%v)", partial)
			}
			recorded, err := os.ReadFile("../testdata/claudecode/cc-2.0.0." + strings.ReplaceAll(name, "_", "-") + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := messageShapes(t, stdout.String()), messageShapes(t, string(recorded)); !slices.Equal(got, want) {
				t.Errorf("want the lines of claude -p for the same turn (recorded by testdata/claudecode/record.py)\n%s\ngot\n%s",
					strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			if partial {
				golden.File(t, name, eventOutline(t, stdout.String()))
				return
			}
			golden.File(t, name, normaliseStream(stdout.String(), s.Agent.SessionID(), cwd))
		})
	}
}

// messageShapes are the lines of a stream but its stream events, each as
// its type, subtype and content blocks' types. Stream events are left out:
// claude -p writes each block's assistant line before the block's
// content_block_stop, tack after the message's message_stop.
func messageShapes(t *testing.T, out string) []string {
	t.Helper()
	var shapes []string
	for _, raw := range strings.Split(strings.TrimSpace(out), "\n") {
		var l struct {
			Type, Subtype string
			Message       struct{ Content []struct{ Type string } }
		}
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("%v in %q", err, raw)
		}
		if l.Type == "stream_event" {
			continue
		}
		shape := l.Type + " " + l.Subtype
		for _, b := range l.Message.Content {
			shape += " " + b.Type
		}
		shapes = append(shapes, shape)
	}
	return shapes
}

func TestStreamJSONInputRunsOneTurnPerUserMessage(t *testing.T) {
	s, _, srv := streamSession(t, llmtest.ReplyText("First answer."), llmtest.ReplyText("Second answer."))
	in := `{"type":"user","message":{"role":"user","content":"first question"}}` + "\n" +
		"\n" +
		`{"type":"keep_alive"}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"second"},{"type":"text","text":"question"}]}}` + "\n"
	var stdout, stderr bytes.Buffer
	out := Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: strings.NewReader(in),
		Stdout: &stdout, Stderr: &stderr})
	readStream(t, stdout.String(), 2)
	if len(out.Results) != 2 || out.Results[0].Result != "First answer." || out.Results[1].Result != "Second answer." {
		t.Fatalf("want two turns answered in order, got %+v", out.Results)
	}
	if !strings.Contains(stderr.String(), `stdin line 3: a "keep_alive" message is not supported`) {
		t.Errorf("want the unsupported line named on stderr, got %q", stderr.String())
	}
	var users []string
	for _, m := range srv.Requests()[1].Messages {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if !slices.Equal(users, []string{"first question", "second\n\nquestion"}) {
		t.Errorf("want the second request to carry both turns of one conversation, got user messages %q", users)
	}
}

var (
	uuidField     = regexp.MustCompile(`"uuid":"[0-9a-f-]{36}"`)
	replyField    = regexp.MustCompile(`"id":"msg_[0-9a-f]{32}"`)
	durationField = regexp.MustCompile(`"(duration_ms|duration_api_ms)":[0-9]+`)
	namesField    = regexp.MustCompile(`"(tools|slash_commands)":\[[^\]]*\]`)
)

// normaliseStream replaces what changes from run to run, and the tool and
// command lists, which grow with tack (TestStreamJSONInitNamesTheSession
// checks them).
func normaliseStream(out, sessionID, cwd string) string {
	out = strings.ReplaceAll(out, sessionID, "<session>")
	out = strings.ReplaceAll(out, cwd, "<cwd>")
	out = uuidField.ReplaceAllString(out, `"uuid":"<uuid>"`)
	out = replyField.ReplaceAllString(out, `"id":"msg_<reply>"`)
	out = namesField.ReplaceAllString(out, `"$1":["…"]`)
	return durationField.ReplaceAllString(out, `"$1":0`)
}

func TestStreamJSONInitNamesTheSession(t *testing.T) {
	s, cwd, _ := streamSession(t, llmtest.ReplyText("Hi."))
	var stdout bytes.Buffer
	Print(context.Background(), s, PrintOptions{Task: "hi", Format: FormatStreamJSON, Stdout: &stdout, Stderr: &bytes.Buffer{}})
	var init initMessage
	if err := json.Unmarshal([]byte(strings.SplitN(stdout.String(), "\n", 2)[0]), &init); err != nil {
		t.Fatal(err)
	}
	if init.SessionID != s.Agent.SessionID() || init.CWD != cwd || init.Model == "" || init.PermissionMode != "acceptEdits" ||
		!slices.Contains(init.Tools, "Bash") || !slices.Contains(init.Tools, "Read") || slices.Contains(init.Tools, "bash") ||
		!slices.Contains(init.SlashCommands, "compact") {
		t.Errorf("want the init line to name the session, cwd, model, mode, tools (by Claude Code's names) and commands, got %+v", init)
	}
}

// eventOutline is the order of a partial stream's lines, one per line,
// with the deltas of one block (which the agent may coalesce, as timing
// goes) collapsed into one row. It checks that each block's deltas add up
// to what the assistant message then carries.
func eventOutline(t *testing.T, out string) string {
	t.Helper()
	var rows []string
	var streamed strings.Builder
	for _, raw := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var l struct {
			Type  string `json:"type"`
			Event struct {
				Type         string `json:"type"`
				ContentBlock struct {
					Type string `json:"type"`
				} `json:"content_block"`
				Delta struct {
					Type        string `json:"type"`
					Text        string `json:"text"`
					Thinking    string `json:"thinking"`
					PartialJSON string `json:"partial_json"`
					StopReason  string `json:"stop_reason"`
				} `json:"delta"`
			} `json:"event"`
			Message struct {
				Content []struct {
					Type     string          `json:"type"`
					Text     string          `json:"text"`
					Thinking string          `json:"thinking"`
					Input    json.RawMessage `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatal(err)
		}
		row := l.Type
		switch {
		case l.Type == "stream_event" && l.Event.Type == "content_block_delta":
			streamed.WriteString(l.Event.Delta.Text + l.Event.Delta.Thinking + l.Event.Delta.PartialJSON)
			row = "stream_event content_block_delta " + l.Event.Delta.Type
		case l.Type == "stream_event" && l.Event.Type == "content_block_start":
			row = "stream_event content_block_start " + l.Event.ContentBlock.Type
		case l.Type == "stream_event" && l.Event.Type == "message_delta":
			row = "stream_event message_delta " + l.Event.Delta.StopReason
		case l.Type == "stream_event":
			row = "stream_event " + l.Event.Type
		case l.Type == "assistant":
			// A reply's blocks come one a line, in the order streamed.
			for _, b := range l.Message.Content {
				block := b.Text + b.Thinking + string(b.Input)
				got, ok := strings.CutPrefix(streamed.String(), block)
				if !ok {
					t.Errorf("want the deltas to add up to the block %q, got %q", block, streamed.String())
				}
				streamed.Reset()
				streamed.WriteString(got)
			}
		}
		if len(rows) == 0 || rows[len(rows)-1] != row || !strings.Contains(row, "content_block_delta") {
			rows = append(rows, row)
		}
	}
	return strings.Join(rows, "\n") + "\n"
}

// A program built on the Agent SDK draws an edit from the user line's
// tool_use_result, as Claude Code writes it: the file, the strings, the
// hunks.
func TestStreamJSONGivesAnEditsToolUseResult(t *testing.T) {
	s, cwd, _ := streamSession(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "read", `{"file_path":"notes.txt"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "Edit", `{"file_path":"notes.txt","old_string":"milk","new_string":"bread"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Done."))
	var stdout, stderr bytes.Buffer
	Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, Task: "buy bread instead", Stdout: &stdout, Stderr: &stderr})
	var edit struct {
		ToolUseResult *struct {
			FilePath, OldString, NewString string
			StructuredPatch                []struct{ Lines []string }
		} `json:"tool_use_result"`
	}
	for _, raw := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		if strings.Contains(raw, `"tool_use_id":"call_2"`) {
			if err := json.Unmarshal([]byte(raw), &edit); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := edit.ToolUseResult
	if r == nil || r.FilePath != filepath.Join(cwd, "notes.txt") || r.OldString != "milk" || r.NewString != "bread" ||
		len(r.StructuredPatch) != 1 || strings.Join(r.StructuredPatch[0].Lines, "|") != "-buy milk|+buy bread" {
		t.Fatalf("want the edit's tool_use_result with its hunk, got %+v in:\n%s", r, stdout.String())
	}
}

// A reply has one id in the stream and in the session's Claude Code
// transcript, as in claude -p, whose ids are the API's: the assistant
// message's message.id and its message_start's are the transcript line's
// message.id, so a program joining the stream with the transcript (as
// ccusage joins transcripts by message.id and requestId) finds the reply.
func TestStreamJSONMessageIDsAreTheTranscripts(t *testing.T) {
	s, _, _ := streamSession(t, toolTurn()...)
	var stdout, stderr bytes.Buffer
	if out := Print(context.Background(), s, PrintOptions{Task: "what do the notes say?", Format: FormatStreamJSON,
		IncludePartial: true, Stdout: &stdout, Stderr: &stderr, Version: "test"}); !out.OK() {
		t.Fatalf("want the turn to complete, got %+v (stderr %q)", out, stderr.String())
	}
	type ids struct {
		Type    string `json:"type"`
		Message struct {
			ID string `json:"id"`
		} `json:"message"`
		Event struct {
			Type    string `json:"type"`
			Message struct {
				ID string `json:"id"`
			} `json:"message"`
		} `json:"event"`
	}
	var started, streamed []string
	for _, raw := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var l ids
		json.Unmarshal([]byte(raw), &l)
		switch {
		case l.Type == "assistant" && (len(streamed) == 0 || streamed[len(streamed)-1] != l.Message.ID):
			streamed = append(streamed, l.Message.ID)
		case l.Event.Type == "message_start":
			started = append(started, l.Event.Message.ID)
		}
	}
	tr := claudelog.New(s.Log, "test", nil)
	if err := tr.Sync(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	for _, raw := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var l ids
		json.Unmarshal([]byte(raw), &l)
		if l.Type == "assistant" {
			logged = append(logged, l.Message.ID)
		}
	}
	if len(logged) != 2 || logged[0] == logged[1] || !slices.Equal(streamed, logged) || !slices.Equal(started, logged) {
		t.Errorf("message ids: stream %q, message_start %q, transcript %q; want the transcript's, one a reply", streamed, started, logged)
	}
}
