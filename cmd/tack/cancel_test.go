package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// hungCompact starts line mode on a pipe, runs one turn, then /compact
// against a model that never answers the summary request, and returns once
// the request hangs.
func hungCompact(t *testing.T) *process {
	t.Helper()
	srv := llmtest.New(t, llmtest.ReplyText(strings.Repeat("A long answer. ", 20)), llmtest.Reply(llmtest.Stall()))
	r := startTackIn(t, srv, tinyContextHome(t), t.TempDir(), "--ui", "line")
	r.write("hi\n/compact\n")
	waitStalled(t, srv)
	return r
}

// tinyContextHome is a TACK_HOME whose model has a 100-token window, so
// one turn leaves history to compact.
func tinyContextHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	config := "model = \"tiny\"\n[[models]]\nid = \"tiny\"\nprovider = \"deepseek\"\ncontext_window = 100\nmax_output = 50\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// TestLineSignalsCancelAHungCompactBeforeExiting: the fake holds the
// summary request open until the client leaves, and shutdown waits at most
// shutdownGrace for cancelled work before exiting anyway. So the exit code
// alone would pass even if the signal never reached the request. The
// oracles are what only a cancel that took effect leaves: the command's
// cancellation shown before the resume line (the door stops rendering
// once it gives up waiting), and the log ending the compaction with its
// request's cancellation and settling the command as cancelled. Only
// exitLimit bounds the wait, against a hang.
func TestLineSignalsCancelAHungCompactBeforeExiting(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			r := hungCompact(t)
			r.signal(tt.sig)
			if code := r.exitCode(); code != tt.code {
				t.Fatalf("want exit %d, got %d (stderr %q)", tt.code, code, r.stderr.String())
			}
			if !strings.Contains(r.stderr.String(), "To resume this session") {
				t.Errorf("want the session closed with its resume line, got stderr %q", r.stderr.String())
			}
			if !strings.Contains(r.stdout.String(), "command cancelled") {
				t.Errorf("want the command's cancellation shown before exiting; %s", r.output())
			}
			evs := sessionEvents(t, r.home)
			assertCompactCancelled(t, evs)
			assertCommandCancelled(t, evs, "compact")
		})
	}
}

// assertCompactCancelled checks that the log ends the compaction with the
// error of its cancelled summary request: the cancel reached the request
// (which the fake never ends by itself) and was recorded before the
// session closed.
func assertCompactCancelled(t *testing.T, evs []loggedEvent) {
	t.Helper()
	for _, e := range evs {
		if e.Type != "compact/end" {
			continue
		}
		var end struct{ Error string }
		_ = json.Unmarshal(e.Data, &end)
		if !strings.Contains(end.Error, "cancel") && !strings.Contains(end.Error, "abort") {
			t.Errorf("want the compaction ended by its cancelled request, got compact/end %s", e.Data)
		}
		return
	}
	t.Errorf("want the cancelled compaction's end in the log, got %v", evs)
}

// assertCommandCancelled checks that the log settles the command name as
// cancelled.
func assertCommandCancelled(t *testing.T, evs []loggedEvent, name string) {
	t.Helper()
	ran := false
	for _, e := range evs {
		switch e.Type {
		case "command/run":
			ran = ran || strings.Contains(string(e.Data), `"name":"`+name+`"`)
		case "command/done":
			if ran && strings.Contains(string(e.Data), `"outcome":"error"`) && strings.Contains(string(e.Data), "cancelled") {
				return
			}
		}
	}
	t.Errorf("want /%s run and settled as cancelled in the log, got %v", name, evs)
}

// The first SIGINT cancels the turn and waits, boundedly, for its end to
// be recorded; here a command that ignores SIGTERM holds that end back.
// A second SIGINT (a second Ctrl+C in the shell) leaves at once: stderr
// says so, and the turn's end was not waited for. The command tells the
// test when it started and when the cancel's SIGTERM reached it.
func TestPrintSecondSignalLeavesAtOnce(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"trap ': >termed' TERM; : >started; while :; do sleep 0.1; done"}`, 1)),
		llmtest.ReplyText("done"))
	dir := t.TempDir()
	r := startTackIn(t, srv, t.TempDir(), dir, "-p", "go")
	r.closeStdin()
	exists := func(name string) func() bool {
		return func() bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	}
	testkit.Eventually(t, "the command to start", exists("started"), r.output)
	r.signal(syscall.SIGINT)
	testkit.Eventually(t, "the cancel to send the command SIGTERM", exists("termed"), r.output)
	r.signal(syscall.SIGINT)
	r.wantExit(130)
	if !strings.Contains(r.stderr.String(), "a second interrupt: leaving at once") {
		t.Errorf("want stderr to say the second signal ended tack; %s", r.output())
	}
	if last := lastOfTurn(sessionEvents(t, r.home)); last.Type == "turn/end" {
		t.Errorf("want tack gone before the turn's end was recorded, the log ends with %s %s", last.Type, last.Data)
	}
}
