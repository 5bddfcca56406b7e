package main

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestLinePipedPromptRunsOneTurnThenExits(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Hello!", 2), llmtest.Usage(0, 10, 3, 0)))
	r := startTack(t, srv, "--ui", "line")
	r.write("hi\n")
	r.closeStdin()
	r.wantExit(0)
	want := "ready.\n> \n[main turn 1] Hello!\n> "
	if got := r.stdout.String(); got != want {
		t.Errorf("want stdout %q, got %q", want, got)
	}
	// The session title is asked for off the loop once the turn ended, so
	// it may be logged after turn/end, or not at all before the exit.
	if last := lastOfTurn(sessionEvents(t, r.home)); last.Type != "turn/end" {
		t.Errorf("want the turn finished before exit (log ending in turn/end, titles aside), got %s", last.Type)
	}
	if !strings.Contains(r.stderr.String(), "To resume this session: tack --resume ") {
		t.Errorf("want the resume hint on stderr, got %q", r.stderr.String())
	}
	srv.AssertConsumed(t)
}

func TestLineExitsAtOnceWhenNothingIsSubmitted(t *testing.T) {
	for name, in := range map[string]string{"empty stdin": "", "blank lines": "\n\n"} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t)
			r := startTack(t, srv, "--ui", "line")
			r.write(in)
			r.closeStdin()
			r.wantExit(0)
			if got := r.stdout.String(); got != "ready.\n> " {
				t.Errorf("want only the banner and prompt, got %q", got)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("want no model request, got %d", n)
			}
		})
	}
}

func TestLineSecondLineSteersTheRunningTurn(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.Pace(40*time.Millisecond), llmtest.Text("Working on it.", 1)),
		llmtest.ReplyText("Done with both."),
	)
	r := startTack(t, srv, "--ui", "line")
	r.write("first task\n")
	waitRequests(t, srv, 1)
	r.write("and this too\n")
	r.closeStdin()
	r.wantExit(0)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests (one turn, two steps), got %d", len(reqs))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "user" || !strings.Contains(last.Content, "and this too") {
		t.Errorf("want the second line steered into the next request as a user message, got %+v", last)
	}
	if n := strings.Count(r.stdout.String(), "[main turn"); n != 1 {
		t.Errorf("want one turn header (the line joined the running turn), got %d in %q", n, r.stdout.String())
	}
	srv.AssertConsumed(t)
}

// TestLineALineAfterASettledTurnIsAnsweredToo is issue 14's report as a
// script author met it, over the binary's real pipes: (echo first; sleep
// 1; echo second) | tack. The second line arrives right after the first
// turn was shown settled, and stdin ends at once; tack must run it as turn
// 2 before exiting. The race it guards against was lost in 7 of 10 runs,
// so the script runs several times (the in-process stress test in linemode
// runs every gap 50 times).
func TestLineALineAfterASettledTurnIsAnsweredToo(t *testing.T) {
	for i := range 3 {
		srv := llmtest.NewServer(nil, llmtest.WithFallback(llmtest.ReplyText("OK.")))
		t.Cleanup(srv.Close)
		r := startTack(t, srv, "--ui", "line")
		r.write("first\n")
		r.waitOutput("[main turn 1] OK.\n> ")
		r.write("second\n")
		r.closeStdin()
		if code := r.exitCode(); code != 0 {
			t.Fatalf("run %d: want exit 0, got %d (stderr %q)", i, code, r.stderr.String())
		}
		if out := r.stdout.String(); !strings.Contains(out, "[main turn 2] OK.") {
			t.Fatalf("run %d: want the second line answered as turn 2, got %q", i, out)
		}
		var prompts []string
		for _, req := range srv.Requests() {
			if last := req.Messages[len(req.Messages)-1]; last.Role == "user" && (last.Content == "first" || last.Content == "second") {
				prompts = append(prompts, last.Content)
			}
		}
		if strings.Join(prompts, " ") != "first second" {
			t.Fatalf("run %d: want a model request for each line in order, got %q", i, prompts)
		}
	}
}

const askArgs = `{"questions":[{"id":"db","header":"Database","question":"Which database?",` +
	`"options":[{"label":"SQLite","description":"a file"},{"label":"Postgres","recommended":true}]}]}`

// askedForADatabase starts tack in line mode on a model that asks the
// question of askArgs, then answers reply, and waits for the question.
func askedForADatabase(t *testing.T, reply string) (*llmtest.Server, *process) {
	t.Helper()
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question", askArgs, 2)), llmtest.ReplyText(reply))
	r := startTack(t, srv, "--ui", "line")
	r.write("pick a database\n")
	r.waitOutput("[Database] Which database?\n  1. Postgres (recommended)\n  2. SQLite\n     a file\n> ")
	return srv, r
}

func TestLineAnswersAQuestionFromStdin(t *testing.T) {
	tests := []struct {
		name, answer, want string
	}{
		{"by number", "2\n", `{"answers":[{"id":"db","selected":["SQLite"]}]}`},
		{"by empty line for the recommended option", "\n", `{"answers":[{"id":"db","selected":["Postgres"]}]}`},
		{"by free text", "MySQL\n", `{"answers":[{"id":"db","selected":[],"custom":"MySQL"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, r := askedForADatabase(t, "Noted.")
			r.write(tt.answer)
			r.closeStdin()
			r.wantExit(0)
			waitRequests(t, srv, 2)
			if got := srv.Requests()[1].ToolResult("call_1"); got != tt.want {
				t.Errorf("want the tool result %s, got %s", tt.want, got)
			}
			srv.AssertConsumed(t)
		})
	}
}

func TestLineReasksAnInvalidAnswer(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question",
			`{"questions":[{"id":"n","question":"How many?","options":[{"label":"one"},{"label":"two"}],"allow_custom":false}]}`, 1)),
		llmtest.ReplyText("Ok."),
	)
	r := startTack(t, srv, "--ui", "line")
	r.write("ask me\n")
	r.waitOutput("  2. two\n> ")
	r.write("7\n")
	r.waitOutput("Please enter one of the option numbers.\n> ")
	r.write("1\n")
	r.closeStdin()
	r.wantExit(0)
	if got, want := srv.Requests()[1].ToolResult("call_1"), `{"answers":[{"id":"n","selected":["one"]}]}`; got != want {
		t.Errorf("want %s, got %s", want, got)
	}
}

func TestLineQuestionFailsWhenStdinCloses(t *testing.T) {
	srv, r := askedForADatabase(t, "I will assume SQLite.")
	r.closeStdin()
	r.wantExit(0)
	const want = "Error: ask_user_question cannot be answered because stdin is closed"
	if got := srv.Requests()[1].ToolResult("call_1"); got != want {
		t.Errorf("want the model to read %q, got %q", want, got)
	}
	if !strings.Contains(r.stdout.String(), "[tool result] "+want) {
		t.Errorf("want the closed-stdin error shown as the tool result, got %q", r.stdout.String())
	}
}

func TestLineApprovalFromStdin(t *testing.T) {
	tests := []struct {
		name, answer, want string
	}{
		{"allowed", "y\n", "approved-run"},
		{"denied with a reason", "n use ls instead\n", "Error: the user denied this call: use ls instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t,
				llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"echo approved-run","description":"Say it"}`, 2)),
				llmtest.ReplyText("Done."),
			)
			r := startTack(t, srv, "--ui", "line", "--permission-mode", "ask")
			r.write("run it\n")
			r.waitOutput("allow? [y]es / [a]lways for this session (echo) / [n]o (reason)\n> ")
			r.write(tt.answer)
			r.closeStdin()
			r.wantExit(0)
			if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, tt.want) {
				t.Errorf("want the tool result to contain %q, got %q", tt.want, got)
			}
		})
	}
}

// TestLineShowsEscapeSequencesEscaped: a command's output reaches the
// model and the screen as a terminal shows it, its title sequence gone;
// the model's words, which are no terminal's, show theirs escaped.
func TestLineShowsEscapeSequencesEscaped(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"printf 'a\\033]2;pwned\\007b'","description":"Print"}`, 2)),
		llmtest.ReplyText("Printed x\x1b]2;pwned\x07y."),
	)
	r := startTack(t, srv, "--ui", "line", "--permission-mode", "full-access")
	r.write("print the title\n")
	r.closeStdin()
	r.wantExit(0)
	out := r.stdout.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("want no raw ESC or BEL on stdout, got %q", out)
	}
	if !strings.Contains(out, "[tool result] ab\n") {
		t.Errorf("want the output as a terminal shows it, got %q", out)
	}
	if got := srv.Requests()[1].ToolResult("call_1"); got != "ab" {
		t.Errorf("want the model to read the output as a terminal shows it, got %q", got)
	}
	if !strings.Contains(out, `Printed x\x1b]2;pwned\x07y.`) {
		t.Errorf("want the reply shown with visible escapes, got %q", out)
	}
}

func TestLineSlashCommandsNeverReachTheModel(t *testing.T) {
	srv := llmtest.New(t)
	r := startTack(t, srv, "--ui", "line")
	r.write("/bogus now\n/help\n")
	r.closeStdin()
	r.wantExit(0)
	out := r.stdout.String()
	if !strings.Contains(out, "Unknown command: /bogus; /help lists the commands\n> ") {
		t.Errorf("want the unknown command rejected, got %q", out)
	}
	if !strings.Contains(out, "/exit") {
		t.Errorf("want /help to list /exit, got %q", out)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("want no model request, got %d", n)
	}
}

func TestLineExitCommandLeavesWithStdinOpen(t *testing.T) {
	srv := llmtest.New(t)
	r := startTack(t, srv, "--ui", "line")
	r.write("/exit\n")
	if code := r.exitCode(); code != 0 {
		t.Fatalf("want exit 0 after /exit, got %d", code)
	}
}

func TestLineSessionThatFailsToStartDropsQueuedLines(t *testing.T) {
	srv := llmtest.New(t)
	r := startTack(t, srv, "--ui", "line", "--resume", "no-such-session")
	r.write("hello\nworld\n")
	r.closeStdin()
	r.wantExit(1)
	if !strings.Contains(r.stderr.String(), "tack: the session failed to start: ") {
		t.Errorf("want the start failure on stderr, got %q", r.stderr.String())
	}
}

// startStalledLineTurn runs line mode on a turn whose stream sends
// "partial" and then stalls, and returns once the server holds it.
func startStalledLineTurn(t *testing.T) *process {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
	r := startTack(t, srv, "--ui", "line")
	r.write("go\n")
	waitStalled(t, srv)
	return r
}

func TestLineSIGTERMDuringAStalledStreamAbortsTheTurn(t *testing.T) {
	r := startStalledLineTurn(t)
	r.waitOutput("partial")
	start := time.Now()
	r.signal(syscall.SIGTERM)
	r.wantExit(143)
	t.Logf("exited %s after SIGTERM", time.Since(start))
	last := lastOfTurn(sessionEvents(t, r.home))
	var end struct{ Reason string }
	_ = json.Unmarshal(last.Data, &end)
	if last.Type != "turn/end" || end.Reason != "aborted" {
		t.Errorf("want the log closed by an aborted turn/end, got %s %s", last.Type, last.Data)
	}
	if !strings.Contains(r.stdout.String(), "Turn cancelled.") {
		t.Errorf("want the cancellation shown, got %q", r.stdout.String())
	}
}

func TestLineSIGINTWithoutATerminalExits130(t *testing.T) {
	r := startStalledLineTurn(t)
	r.signal(syscall.SIGINT)
	r.wantExit(130)
}

func TestLineDimsReasoningWithColourAndFramesItWithout(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"colour always", []string{"--color", "always"}, "\x1b[2mLet me think.\x1b[0m\nAnswer."},
		{"auto without a terminal: framed", nil, "] \n[reasoning]\nLet me think.\n\nAnswer."},
		{"--color never: framed", []string{"--color", "never"}, "] \n[reasoning]\nLet me think.\n\nAnswer."},
		{"--no-reasoning leaves it out", []string{"--no-reasoning"}, "[main turn 1] Answer."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Reply(llmtest.Reasoning("Let me think.", 4), llmtest.Text("Answer.", 0)))
			r := startTack(t, srv, append([]string{"--ui", "line"}, tt.args...)...)
			r.write("q\n")
			r.closeStdin()
			r.wantExit(0)
			if out := r.stdout.String(); !strings.Contains(out, tt.want) {
				t.Errorf("want stdout to contain %q, got %q", tt.want, out)
			}
		})
	}
}
