package journeys

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// readLog decodes a session log held in memory.
func readLog(t testing.TB, b []byte) []session.Event {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, events, err := session.Read(path)
	if err != nil {
		t.Fatalf("read session log: %v", err)
	}
	return events
}

// compareLogs fails when the replayed session went another way than the
// recorded one: other tool calls, a tool result that is an error in one
// and not the other, a turn that ended differently, other events, or any
// other difference in what was logged.
func compareLogs(t testing.TB, want, got []byte) {
	t.Helper()
	we, ge := readLog(t, want), readLog(t, got)
	for _, c := range []struct {
		what string
		of   func([]session.Event) []string
	}{
		{"tool calls (name and arguments)", toolCalls},
		{"tool outcomes", toolOutcomes},
		{"turn endings", turnEnds},
		{"event types", eventTypes},
	} {
		if w, g := c.of(we), c.of(ge); !slices.Equal(w, g) {
			t.Errorf("the replay's %s differ from the recording\nwant: %s\ngot:  %s", c.what, strings.Join(w, "\n      "), strings.Join(g, "\n      "))
			return
		}
	}
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := range max(len(wl), len(gl)) {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			at := 0
			for at < min(len(w), len(g)) && w[at] == g[at] {
				at++
			}
			t.Errorf("the replay's log differs from the recording at line %d, byte %d\nwant: …%s…\ngot:  …%s…", i+1, at+1, around(w, at), around(g, at))
			return
		}
	}
}

// around is the part of line b near byte at.
func around(b []byte, at int) []byte {
	const span = 80
	return b[max(at-span, 0):min(at+span, len(b))]
}

func toolCalls(events []session.Event) []string {
	var out []string
	for _, e := range events {
		if c, ok := e.Data.(session.ToolCall); ok {
			out = append(out, c.Name+" "+c.Arguments)
		}
	}
	return out
}

func toolOutcomes(events []session.Event) []string {
	var out []string
	for _, e := range events {
		if r, ok := e.Data.(session.ToolResult); ok {
			s := r.Name + " ok"
			if r.IsError {
				s = fmt.Sprintf("%s error %s: %.80s", r.Name, r.Code, r.Text)
			}
			out = append(out, s)
		}
	}
	return out
}

func turnEnds(events []session.Event) []string {
	var out []string
	for _, e := range events {
		if d, ok := e.Data.(session.TurnEnd); ok {
			s := fmt.Sprintf("turn %d %s", d.Turn, d.Reason)
			if d.Error != nil {
				s += ": " + d.Error.Message
			}
			out = append(out, s)
		}
	}
	return out
}

func eventTypes(events []session.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Type
	}
	return out
}

// checkServer fails when the fake model was left with answers nobody asked
// for, or received requests it could not answer or that broke the
// protocol.
func checkServer(t testing.TB, srv *llmtest.Server) {
	t.Helper()
	if n := srv.Remaining(); n > 0 {
		t.Errorf("want every recorded model answer requested, got %d left over (the replay asked the model fewer times)", n)
	}
	for _, v := range srv.Violations() {
		t.Errorf("fake model: %s", v)
	}
}
