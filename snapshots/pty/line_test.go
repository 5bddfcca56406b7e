package pty

import (
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// lineMode is the argument that picks the line front door.
var lineMode = []string{"--ui", "line"}

func TestLineModeAnswersThenCtrlCCancelsAndExits(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.Text("Hello from line mode.", 4)),
		llmtest.Reply(llmtest.Text("Partial", 0), llmtest.Stall()),
	)
	r := start(t, setup{srv: srv, args: lineMode})
	r.script(
		step{want: []string{"ready."}, do: both(typed("say hello"), key(vt.KeyEnter))},
		step{want: []string{"> say hello", "[main turn 1] Hello from line mode."}, do: both(typed("long task"), key(vt.KeyEnter))},
	)
	r.waitStalled(srv)
	r.script(
		step{want: []string{"[main turn 2] Partial"}, do: ctrl('c')},
		step{want: []string{"Turn cancelled."}, do: ctrl('c')},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 after Ctrl+C at the idle prompt, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	if strings.Contains(r.Raw(), altScreenOn) {
		t.Errorf("want line mode to stay on the main screen, got %q in the output", altScreenOn)
	}
	assertResumeLineLast(t, r, assertRestored(t, r))
}

func TestLineModeSIGTERMWhileRunningExits(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Partial", 0), llmtest.Stall()))
	r := start(t, setup{srv: srv, args: lineMode})
	r.script(step{want: []string{"ready."}, do: both(typed("long task"), key(vt.KeyEnter))})
	r.waitStalled(srv)
	r.waitText("streaming", "[main turn 1] Partial")
	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.exitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("want exit code %d after SIGTERM, got %d; the screen is:\n%s", 128+int(syscall.SIGTERM), code, frame(r.Screen()))
	}
	assertResumeLineLast(t, r, assertRestored(t, r))
}
