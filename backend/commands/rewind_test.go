package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

func TestRewindFlagsNarrowWhatIsRestored(t *testing.T) {
	for _, c := range []struct {
		in   string
		want agent.RewindRequest
		ok   bool
	}{
		{"3", agent.RewindRequest{Turn: 3, Files: true, Conversation: true}, true},
		{" 3 --files", agent.RewindRequest{Turn: 3, Files: true}, true},
		{"--conversation 2", agent.RewindRequest{Turn: 2, Conversation: true}, true},
		{"2 --files --conversation --force", agent.RewindRequest{Turn: 2, Files: true, Conversation: true, Force: true}, true},
		{"0", agent.RewindRequest{}, false},
		{"2 3", agent.RewindRequest{}, false},
		{"two", agent.RewindRequest{}, false},
	} {
		a, ok := parseRewind(c.in, true)
		if ok != c.ok || (ok && a.request() != c.want) {
			t.Errorf("parseRewind(%q): want %+v ok=%v, got %+v ok=%v", c.in, c.want, c.ok, a.request(), ok)
		}
	}
	if _, ok := parseRewind("2", false); ok {
		t.Error("want /undo and /redo to refuse a turn number")
	}
}

func TestTurnsAreNamedAsARange(t *testing.T) {
	for in, want := range map[string]string{"3": "turn 3", "2 3": "turns 2–3", "2 4 5": "turns 2, 4 and 5"} {
		var turns []int
		for _, f := range strings.Fields(in) {
			turns = append(turns, int(f[0]-'0'))
		}
		if got := turnsText(turns); got != want {
			t.Errorf("turnsText(%v): want %q, got %q", turns, want, got)
		}
	}
}

func TestBareRewindListsTheTurnsNewestFirst(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	turns := []session.TurnPoint{
		{Turn: 1, Time: at, Prompt: "write a.txt", Checkpoint: session.Checkpoint{ID: "c1"}, Changed: []string{"a.txt"}},
		{Turn: 4, Time: at.Add(time.Minute), Prompt: "fix\n  the   tests"},
	}
	got := turnListing(turns, nil)
	want := "Turns you can rewind to (/rewind N returns files and conversation to before turn N):\n" +
		"    4  2026-11-30 09:01:00  fix the tests  · no checkpoint: conversation only\n" +
		"    1  2026-11-30 09:00:00  write a.txt  · 1 file changed"
	if got != want {
		t.Errorf("want\n%s\ngot\n%s", want, got)
	}
}
