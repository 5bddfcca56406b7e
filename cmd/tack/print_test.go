package main

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// printRecord is the result object of json and stream-json, with the
// fields claude -p consumers read.
type printRecord struct {
	Type         string   `json:"type"`
	Subtype      string   `json:"subtype"`
	IsError      bool     `json:"is_error"`
	SessionID    string   `json:"session_id"`
	Result       string   `json:"result"`
	NumTurns     int      `json:"num_turns"`
	DurationMs   *int64   `json:"duration_ms"`
	TotalCostUSD *float64 `json:"total_cost_usd"`
	Errors       []string `json:"errors"`
	StopReason   string   `json:"terminal_reason"`
	Denials      []struct {
		ToolName  string          `json:"tool_name"`
		ToolUseID string          `json:"tool_use_id"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials"`
	Usage struct {
		Input     int `json:"input_tokens"`
		CacheRead int `json:"cache_read_input_tokens"`
		Output    int `json:"output_tokens"`
		Reasoning int `json:"reasoning_output_tokens"`
	} `json:"usage"`
}

func answerServer(t *testing.T) *llmtest.Server {
	return llmtest.New(t, llmtest.Reply(llmtest.Reasoning("Easy.", 0), llmtest.Text("The answer is 4.", 3), llmtest.Usage(20, 100, 12, 4)))
}

func TestPrintTextPrintsExactlyTheAnswer(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?")
	r.closeStdin()
	r.wantExit(0)
	if got := r.stdout.String(); got != "The answer is 4.\n" {
		t.Errorf("want stdout exactly the answer, got %q", got)
	}
}

func TestPrintJSONPrintsOneResultObject(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?", "--output-format", "json")
	r.closeStdin()
	r.wantExit(0)
	dec := json.NewDecoder(strings.NewReader(r.stdout.String()))
	var rec printRecord
	if err := dec.Decode(&rec); err != nil {
		t.Fatalf("want one JSON object on stdout, got %q: %v", r.stdout.String(), err)
	}
	if dec.More() {
		t.Errorf("want exactly one JSON object, got more in %q", r.stdout.String())
	}
	if rec.Type != "result" || rec.Subtype != "success" || rec.IsError || rec.Result != "The answer is 4." || rec.StopReason != "completed" ||
		rec.NumTurns != 1 || rec.Errors != nil || rec.SessionID == "" || rec.DurationMs == nil || rec.TotalCostUSD == nil || rec.Denials == nil {
		t.Errorf("want a completed result object with the answer, got %+v", rec)
	}
	if rec.Usage.Input != 100 || rec.Usage.CacheRead != 20 || rec.Usage.Output != 12 || rec.Usage.Reasoning != 4 {
		t.Errorf("want usage 100 input, 20 cache read, 12 output, 4 reasoning, got %+v", rec.Usage)
	}
}

func TestPrintEventsDumpsTheSessionEventsThenTheResult(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?", "--output-format", "events")
	r.closeStdin()
	r.wantExit(0)
	lines := strings.Split(strings.TrimSuffix(r.stdout.String(), "\n"), "\n")
	types := map[string]bool{}
	for i, line := range lines {
		var rec struct {
			Type  string `json:"type"`
			Event struct {
				Type string `json:"type"`
			} `json:"event"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("want every line valid JSON, line %d is %q: %v", i+1, line, err)
		}
		types[rec.Event.Type] = true
		if i < len(lines)-1 && rec.Type != "session_event" {
			t.Errorf("want session_event before the last line, got %q", rec.Type)
		}
	}
	var last printRecord
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if last.Type != "result" || last.Subtype != "success" || last.Result != "The answer is 4." {
		t.Errorf("want the last line the result, got %q", lines[len(lines)-1])
	}
	for _, want := range []string{"turn/start", "user/message", "assistant/message", "turn/end"} {
		if !types[want] {
			t.Errorf("want a %s event in the stream, got %v", want, types)
		}
	}
}

func TestPrintFailingModelExitsOneWithTheResultRecord(t *testing.T) {
	var script []llmtest.Response
	for range 6 { // the first try and five retries
		script = append(script, llmtest.HTTPError(500, "upstream exploded").WithHeader("Retry-After", "0.001"))
	}
	for _, format := range []string{"json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			srv := llmtest.New(t, script...)
			r := startTack(t, srv, "-p", "hi", "--output-format", format)
			r.closeStdin()
			r.wantExit(1)
			lines := strings.Split(strings.TrimSuffix(r.stdout.String(), "\n"), "\n")
			var rec printRecord
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
				t.Fatalf("want the result record last on stdout, got %q: %v", r.stdout.String(), err)
			}
			if rec.Type != "result" || rec.Subtype != "error_during_execution" || !rec.IsError || rec.StopReason != "error" ||
				len(rec.Errors) != 1 || !strings.Contains(rec.Errors[0], "upstream exploded") {
				t.Errorf("want a failed result object carrying the error, got %+v", rec)
			}
			if !strings.Contains(r.stderr.String(), "Retrying model request (1/5)") {
				t.Errorf("want retry progress on stderr, got %q", r.stderr.String())
			}
			srv.AssertConsumed(t)
		})
	}
}

func TestPrintFailingModelPrintsNothingInText(t *testing.T) {
	srv := llmtest.New(t, llmtest.HTTPError(401, "Authentication Fails"))
	r := startTack(t, srv, "-p", "hi")
	r.closeStdin()
	r.wantExit(1)
	if got := r.stdout.String(); got != "" {
		t.Errorf("want empty stdout, got %q", got)
	}
	if !strings.Contains(r.stderr.String(), "Authentication Fails") {
		t.Errorf("want the error on stderr, got %q", r.stderr.String())
	}
}

func TestPrintDeniesApprovalsWithAReasonTheModelSeesAndSaysSo(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"touch x","description":"Touch"}`, 1)),
		llmtest.ReplyText("I could not run it."),
	)
	r := startTack(t, srv, "-p", "touch x", "--permission-mode", "ask")
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1 for a turn with a denied call, got %d (stderr %q)", code, r.stderr.String())
	}
	got := srv.Requests()[1].ToolResult("call_1")
	if !strings.HasPrefix(got, "Error: ") || !strings.Contains(got, "approval") || !strings.Contains(got, "full-access") {
		t.Errorf("want a denial naming approval and full-access, got %q", got)
	}
	if e := r.stderr.String(); !strings.Contains(e, "tack: denied bash (touch x): ") || !strings.Contains(e, "--allowed-tools 'Bash(touch:*)'") {
		t.Errorf("want the denied call named on stderr with how to allow it, got %q", e)
	}
	if got := r.stdout.String(); got != "I could not run it.\n" {
		t.Errorf("want the answer on stdout still, got %q", got)
	}
}

// echoThenRemove is a model that runs an echo (call_1) and an rm
// (call_2) in one step, then answers.
func echoThenRemove(t *testing.T) *llmtest.Server {
	return llmtest.New(t,
		llmtest.Reply(
			llmtest.ToolCall("call_1", "bash", `{"command":"echo allowed-ran","description":"Echo"}`, 1),
			llmtest.ToolCall("call_2", "bash", `{"command":"rm -f nothing","description":"Remove"}`, 1),
			llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Done."),
	)
}

func TestPrintAllowedAndDisallowedToolsFeedThePolicy(t *testing.T) {
	srv := echoThenRemove(t)
	r := startTack(t, srv, "-p", "go", "--permission-mode", "ask", "--output-format", "json",
		"--allowed-tools", "Bash(echo:*) Read", "--disallowedTools", "Bash(rm:*)")
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1 for the refused rm, got %d (stderr %q)", code, r.stderr.String())
	}
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "allowed-ran") {
		t.Errorf("want the allowed echo to run without asking, got %q", got)
	}
	if got := srv.Requests()[1].ToolResult("call_2"); !strings.Contains(got, "--disallowed-tools Bash(rm:*)") {
		t.Errorf("want rm refused naming the entry, got %q", got)
	}
	var rec printRecord
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Denials) != 1 || rec.Denials[0].ToolName != "Bash" || rec.Denials[0].ToolUseID != "call_2" ||
		!strings.Contains(string(rec.Denials[0].ToolInput), `"rm -f nothing"`) {
		t.Errorf("want the refused call in permission_denials, got %+v", rec.Denials)
	}
}

func TestPrintMaxTurnsEndsTheTurnWithErrorMaxTurns(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "read", `{"file_path":"a.txt"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "read", `{"file_path":"b.txt"}`, 1), llmtest.Finish("tool_calls")),
	)
	r := startTack(t, srv, "-p", "read everything", "--max-turns", "2", "--output-format", "json")
	r.closeStdin()
	r.wantExit(1)
	var rec printRecord
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Subtype != "error_max_turns" || !rec.IsError || rec.NumTurns != 2 || rec.StopReason != "max-steps" {
		t.Errorf("want error_max_turns after 2 model requests, got %+v", rec)
	}
	srv.AssertConsumed(t)
}

func TestPrintFullAccessRunsWithoutAsking(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo ran-it","description":"Echo"}`, 1)),
		llmtest.ReplyText("Ran it."),
	)
	r := startTack(t, srv, "-p", "run", "--permission-mode", "full-access")
	r.closeStdin()
	r.wantExit(0)
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "ran-it") {
		t.Errorf("want the command's output in the tool result, got %q", got)
	}
	if got := r.stdout.String(); got != "Ran it.\n" {
		t.Errorf("want stdout exactly the answer, got %q", got)
	}
}

// Nobody answers questions in print mode: the model is not offered
// ask_user_question, and a call of it anyway is an error it reads.
func TestPrintOffersNoQuestionsAndFailsOneAsked(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question", askArgs, 1)),
		llmtest.ReplyText("I will pick SQLite."),
	)
	r := startTack(t, srv, "-p", "pick")
	r.closeStdin()
	r.wantExit(0)
	if slices.Contains(srv.Requests()[0].ToolNames(), "ask_user_question") {
		t.Error("print mode offered ask_user_question")
	}
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.HasPrefix(got, "Error: ") {
		t.Errorf("want an error result for the question, got %q", got)
	}
}

func TestPrintSignalStillPrintsTheResultRecord(t *testing.T) {
	tests := []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}}
	for _, tt := range tests {
		t.Run(tt.sig.String(), func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
			r := startTack(t, srv, "-p", "hi", "--output-format", "json")
			r.closeStdin()
			waitStalled(t, srv)
			r.signal(tt.sig)
			if code := r.exitCode(); code != tt.code {
				t.Fatalf("want exit %d, got %d (stderr %q)", tt.code, code, r.stderr.String())
			}
			var rec printRecord
			if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil {
				t.Fatalf("want the result record on stdout, got %q: %v", r.stdout.String(), err)
			}
			if rec.Subtype != "error_during_execution" || !rec.IsError || rec.StopReason != "aborted" || len(rec.Errors) == 0 {
				t.Errorf("want an aborted result object with an error, got %+v", rec)
			}
		})
	}
}

func TestPrintWithoutATaskReadsItFromStdin(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Read it."))
	r := startTack(t, srv, "-p", "--output-format", "text")
	r.write("explain the piped task\n")
	r.closeStdin()
	r.wantExit(0)
	if got := r.stdout.String(); got != "Read it.\n" {
		t.Errorf("want the answer, got %q", got)
	}
	users := srv.Requests()[0].Messages
	if last := users[len(users)-1]; last.Content != "explain the piped task" {
		t.Errorf("want stdin as the task, got %+v", last)
	}
}

// A parent that leaves tack's stdin an open pipe it never writes nor
// closes (a spawn with stdin "pipe") hung claude -p for good; here the
// task runs without stdin after pipedWait and stderr says how to skip
// the wait. The pipe stays open until tack has exited.
func TestPrintWithATaskDoesNotWaitForAStdinThatNeverComes(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?")
	defer r.closeStdin()
	r.wantExit(0)
	if got := r.stdout.String(); got != "The answer is 4.\n" {
		t.Errorf("want the answer, got %q", got)
	}
	if !strings.Contains(r.stderr.String(), "nothing came on stdin within 3s") || !strings.Contains(r.stderr.String(), "< /dev/null") {
		t.Errorf("want stderr to say the task ran without stdin and how to skip the wait, got %q", r.stderr.String())
	}
}

// Stdin whose first bytes come in time is the task's context to its end,
// however long the rest takes.
func TestPipedContextReadsToTheEndOnceItStarts(t *testing.T) {
	in, w := io.Pipe()
	go func() {
		io.WriteString(w, "first part,")
		time.Sleep(100 * time.Millisecond)
		io.WriteString(w, " second part\n")
		w.Close()
	}()
	var warn strings.Builder
	if got, err := withPipedContext("summarise", in, 50*time.Millisecond, &warn); err != nil || got != "summarise\n\n<stdin>\nfirst part, second part\n</stdin>" || warn.Len() != 0 {
		t.Errorf("got %q (%v), warned %q", got, err, warn.String())
	}
}

// Binary data on stdin (`cat image.png | tack -p "describe"`) is refused
// with what to do instead, as a task or as its context; more than the
// bound is cut where the task says so, and stderr tells.
func TestPipedStdinIsTextWithinTheBound(t *testing.T) {
	binary := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	var warn strings.Builder
	if _, err := withPipedContext("describe", strings.NewReader(binary), time.Minute, &warn); err == nil || !strings.Contains(err.Error(), "stdin holds binary data") {
		t.Errorf("binary context: %v", err)
	}
	if _, err := readPiped(nil, strings.NewReader(binary), &warn); err == nil {
		t.Error("a binary task was taken")
	}
	big := strings.Repeat("✓k\n", maxPipedContext/4) // 5 bytes a line: the bound falls inside a ✓
	got, err := withPipedContext("summarise", strings.NewReader(big), time.Minute, &warn)
	if err != nil || !strings.HasSuffix(got, "\n[stdin cut here: it is over 1024 KB]\n</stdin>") || len(got) > maxPipedContext+200 || !utf8.ValidString(got) {
		t.Errorf("%d bytes (%v), ending %q", len(got), err, got[max(len(got)-80, 0):])
	}
	if !strings.Contains(warn.String(), "stdin is over 1024 KB; only its first 1024 KB go with the task") || strings.Contains(warn.String(), "not UTF-8") {
		t.Errorf("warned %q", warn.String())
	}
}

// Latin-1 on stdin (`iconv`-less logs, old files) is no UTF-8: the
// request, JSON, can only carry it with each such byte as U+FFFD. stderr
// says so and how to convert; the model gets the rest as it was.
func TestPrintSaysWhenStdinIsNotUTF8(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Read it."))
	r := startTack(t, srv, "-p")
	r.write("caf\xe9 au lait\n")
	r.closeStdin()
	r.wantExit(0)
	if !strings.Contains(r.stderr.String(), "stdin is not UTF-8 text") || !strings.Contains(r.stderr.String(), "iconv") {
		t.Errorf("want stderr to say stdin is not UTF-8 and how to convert it, got %q", r.stderr.String())
	}
	users := srv.Requests()[0].Messages
	if got := users[len(users)-1].Content; got != "caf\uFFFD au lait" {
		t.Errorf("want the task with U+FFFD for the Latin-1 byte, got %q", got)
	}
}

func TestPrintStreamJSONInputKeepsOneSessionAcrossTurns(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("One."), llmtest.ReplyText("Two."))
	// claude -p's own line: it needs --verbose with stream-json.
	r := startTack(t, srv, "-p", "--verbose", "--input-format", "stream-json", "--output-format", "stream-json")
	r.write(`{"type":"user","message":{"role":"user","content":"first"}}` + "\n")
	r.waitOutput(`"result":"One."`)
	r.write(`{"type":"user","message":{"role":"user","content":"second"}}` + "\n")
	r.closeStdin()
	r.wantExit(0)
	lines := strings.Split(strings.TrimSpace(r.stdout.String()), "\n")
	var first, last struct {
		Type, Subtype, Result string
		SessionID             string `json:"session_id"`
	}
	_ = json.Unmarshal([]byte(lines[0]), &first)
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if first.Type != "system" || first.Subtype != "init" || last.Type != "result" || last.Result != "Two." || last.SessionID != first.SessionID {
		t.Errorf("want init first and the second turn's result last in one session, got %q … %q", lines[0], lines[len(lines)-1])
	}
	srv.AssertConsumed(t)
}
