package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
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

func TestLineSignalsEndAHungCompactWithinTwoSeconds(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			r := hungCompact(t)
			start := time.Now()
			r.signal(tt.sig)
			code := r.exitCode()
			took := time.Since(start)
			if code != tt.code {
				t.Fatalf("want exit %d, got %d (stderr %q)", tt.code, code, r.stderr.String())
			}
			// shutdownGrace bounds the wait at 1.5 s; more than 2 s means
			// the command was not cancelled.
			if took > 2*time.Second {
				t.Errorf("want exit within 2s of %v, took %v", tt.sig, took)
			}
			if !strings.Contains(r.stderr.String(), "To resume this session") {
				t.Errorf("want the session closed with its resume line, got stderr %q", r.stderr.String())
			}
			assertCommandCancelled(t, sessionEvents(t, r.home), "compact")
		})
	}
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
