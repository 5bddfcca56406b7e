package main

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// printRecord is the result record of json and stream-json.
type printRecord struct {
	Type       string  `json:"type"`
	Success    bool    `json:"success"`
	SessionID  string  `json:"session_id"`
	Result     string  `json:"result"`
	StopReason string  `json:"stop_reason"`
	NumSteps   int     `json:"num_steps"`
	Error      *string `json:"error"`
	Usage      struct {
		Input     int `json:"input_tokens"`
		CacheHit  int `json:"cache_hit_tokens"`
		Output    int `json:"output_tokens"`
		Reasoning int `json:"reasoning_tokens"`
	} `json:"usage"`
}

func answerServer(t *testing.T) *llmtest.Server {
	return llmtest.New(t, llmtest.Reply(llmtest.Reasoning("Easy.", 0), llmtest.Text("The answer is 4.", 3), llmtest.Usage(20, 100, 12, 4)))
}

func TestPrintTextPrintsExactlyTheAnswer(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "The answer is 4.\n" {
		t.Errorf("want stdout exactly the answer, got %q", got)
	}
}

func TestPrintJSONPrintsOneResultObject(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?", "--output-format", "json")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout.String()))
	var rec printRecord
	if err := dec.Decode(&rec); err != nil {
		t.Fatalf("want one JSON object on stdout, got %q: %v", r.stdout.String(), err)
	}
	if dec.More() {
		t.Errorf("want exactly one JSON object, got more in %q", r.stdout.String())
	}
	if rec.Type != "result" || !rec.Success || rec.Result != "The answer is 4." || rec.StopReason != "completed" ||
		rec.NumSteps != 1 || rec.Error != nil || rec.SessionID == "" {
		t.Errorf("want a completed result record with the answer, got %+v", rec)
	}
	if rec.Usage.Input != 100 || rec.Usage.CacheHit != 20 || rec.Usage.Output != 12 || rec.Usage.Reasoning != 4 {
		t.Errorf("want usage 100 input, 20 cache hit, 12 output, 4 reasoning, got %+v", rec.Usage)
	}
}

func TestPrintStreamJSONEndsInTheResultRecord(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?", "--output-format", "stream-json")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
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
	if last.Type != "result" || !last.Success || last.Result != "The answer is 4." {
		t.Errorf("want the last line the result record, got %q", lines[len(lines)-1])
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
			if code := r.exitCode(10 * time.Second); code != 1 {
				t.Fatalf("want exit 1, got %d (stderr %q)", code, r.stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(r.stdout.String(), "\n"), "\n")
			var rec printRecord
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
				t.Fatalf("want the result record last on stdout, got %q: %v", r.stdout.String(), err)
			}
			if rec.Type != "result" || rec.Success || rec.StopReason != "error" || rec.Error == nil || !strings.Contains(*rec.Error, "upstream exploded") {
				t.Errorf("want a failed result record carrying the error, got %+v", rec)
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
	if code := r.exitCode(10 * time.Second); code != 1 {
		t.Fatalf("want exit 1, got %d", code)
	}
	if got := r.stdout.String(); got != "" {
		t.Errorf("want empty stdout, got %q", got)
	}
	if !strings.Contains(r.stderr.String(), "Authentication Fails") {
		t.Errorf("want the error on stderr, got %q", r.stderr.String())
	}
}

func TestPrintDeniesApprovalsWithAReasonTheModelSees(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"touch x","description":"Touch"}`, 1)),
		llmtest.ReplyText("I could not run it."),
	)
	r := startTack(t, srv, "-p", "touch x", "--permission-mode", "ask")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	got := toolMessage(t, srv.Requests()[1], "call_1")
	if !strings.HasPrefix(got, "Error: ") || !strings.Contains(got, "approval") || !strings.Contains(got, "full-access") {
		t.Errorf("want a denial naming approval and full-access, got %q", got)
	}
}

func TestPrintFullAccessRunsWithoutAsking(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo ran-it","description":"Echo"}`, 1)),
		llmtest.ReplyText("Ran it."),
	)
	r := startTack(t, srv, "-p", "run", "--permission-mode", "full-access")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	if got := toolMessage(t, srv.Requests()[1], "call_1"); !strings.Contains(got, "ran-it") {
		t.Errorf("want the command's output in the tool result, got %q", got)
	}
	if got := r.stdout.String(); got != "Ran it.\n" {
		t.Errorf("want stdout exactly the answer, got %q", got)
	}
}

func TestPrintQuestionsFailWithAnErrorTheModelSees(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question", askArgs, 1)),
		llmtest.ReplyText("I will pick SQLite."),
	)
	r := startTack(t, srv, "-p", "pick")
	r.closeStdin()
	if code := r.exitCode(10 * time.Second); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	if got := toolMessage(t, srv.Requests()[1], "call_1"); !strings.HasPrefix(got, "Error: ") {
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
			if err := r.cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			if code := r.exitCode(10 * time.Second); code != tt.code {
				t.Fatalf("want exit %d, got %d (stderr %q)", tt.code, code, r.stderr.String())
			}
			var rec printRecord
			if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil {
				t.Fatalf("want the result record on stdout, got %q: %v", r.stdout.String(), err)
			}
			if rec.Success || rec.StopReason != "aborted" || rec.Error == nil {
				t.Errorf("want an aborted result record with an error, got %+v", rec)
			}
		})
	}
}
