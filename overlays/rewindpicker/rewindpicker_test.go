package rewindpicker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func at(h, m int) time.Time { return time.Date(2026, 11, 30, h, m, 0, 0, time.UTC) }

// turns are three turns, the first from the day before, the last without
// a checkpoint.
func turns() []session.TurnPoint {
	return []session.TurnPoint{
		{Turn: 1, Time: at(9, 5).AddDate(0, 0, -1), Prompt: "write a.txt", Checkpoint: session.Checkpoint{ID: "files:1", Store: "files"}, Changed: []string{"a.txt"}},
		{Turn: 2, Time: at(10, 41), Prompt: "edit a.txt\nand make b.txt", Checkpoint: session.Checkpoint{ID: "c2"},
			Changed: []string{"a.txt", "b.txt"}},
		{Turn: 4, Time: at(11, 2), Prompt: "explain \x1b[31mthe code", Checkpoint: session.Checkpoint{Error: "No checkpoint: git status failed."}},
	}
}

func rewinds() []session.RewindPoint {
	return []session.RewindPoint{{Seq: 40, Rewind: session.Rewind{Turn: 3, Conversation: true, Files: "c3", Before: "c9"}, Turns: []int{3}}}
}

// A box too short for every row keeps its keys on the last row; before,
// the scope's hint was cut at 40x12 and Enter and Esc went unsaid.
func TestAShortBoxKeepsItsKeys(t *testing.T) {
	p := New(turns(), rewinds(), at(12, 0), th)
	keys.Press(p.Update, "down", "enter")
	rows := strings.Split(ansi.Strip(p.View(40, 9)), "\n")
	if len(rows) < 2 || !strings.Contains(rows[len(rows)-2], "Esc") {
		t.Fatalf("want the keys above the bottom edge, got:\n%s", strings.Join(rows, "\n"))
	}
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name string
		keys []string
	}{
		{"turns", nil},
		{"scope", []string{"down", "enter"}},
		{"scope_no_checkpoint", []string{"enter"}},
		{"undo", []string{"up", "enter"}},
		{"scope_without_git", []string{"down", "down", "enter"}},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}, {40, 9}} {
			p := New(turns(), rewinds(), at(12, 0), th)
			keys.Press(p.Update, tt.keys...)
			golden.View(t, fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1]), p.View(size[0], size[1]), size[0], size[1])
		}
	}
	for _, size := range [][2]int{{100, 30}, {50, 14}, {40, 9}} {
		p := Confirm("/rewind 2 --force", []string{"notes.md", "late.txt"}, th)
		golden.View(t, fmt.Sprintf("confirm_%dx%d", size[0], size[1]), p.View(size[0], size[1]), size[0], size[1])
	}
}

func TestChoicesBecomeCommandLines(t *testing.T) {
	for _, c := range []struct {
		keys []string
		want Outcome
	}{
		{[]string{"down", "enter", "enter"}, Outcome{Kind: Run, Line: "/rewind 2"}},
		{[]string{"down", "enter", "down", "enter"}, Outcome{Kind: Run, Line: "/rewind 2 --files"}},
		{[]string{"down", "enter", "down", "down", "enter"}, Outcome{Kind: Run, Line: "/rewind 2 --conversation"}},
		// Without a checkpoint only the conversation can go back; the
		// cursor starts there and the file choices cannot be picked.
		{[]string{"enter", "up", "up", "enter"}, Outcome{Kind: Run, Line: "/rewind 4 --conversation"}},
		{[]string{"up", "enter", "enter"}, Outcome{Kind: Run, Line: "/redo"}},
		{[]string{"enter", "esc", "esc"}, Outcome{Kind: Closed}},
	} {
		p := New(turns(), rewinds(), at(12, 0), th)
		if got := keys.Press(p.Update, c.keys...); got != c.want {
			t.Errorf("keys %v: want %+v, got %+v", c.keys, c.want, got)
		}
	}
}

func TestConfirmRunsTheForcedLineOrTheConversationOnly(t *testing.T) {
	p := Confirm("/rewind 2 --force", []string{"notes.md"}, th)
	if got := keys.Press(p.Update, "enter"); got != (Outcome{Kind: Run, Line: "/rewind 2 --force"}) {
		t.Errorf("want Enter to run the forced line, got %+v", got)
	}
	p = Confirm("/rewind 2 --force", []string{"notes.md"}, th)
	if got := keys.Press(p.Update, "down", "enter"); got != (Outcome{Kind: Run, Line: "/rewind 2 --conversation"}) {
		t.Errorf("want the second choice to rewind the conversation only, got %+v", got)
	}
	p = Confirm("/rewind 2 --files --force", []string{"notes.md"}, th)
	if got := keys.Press(p.Update, "down", "enter"); got != (Outcome{Kind: Closed}) {
		t.Errorf("want a files-only rewind's confirmation to skip the conversation choice to Cancel, got %+v", got)
	}
}

func TestAnEmptySessionSaysThereIsNothingToRewind(t *testing.T) {
	p := New(nil, nil, at(12, 0), th)
	if v := ansi.Strip(p.View(60, 10)); !strings.Contains(v, NoTurns) {
		t.Errorf("want %q, got\n%s", NoTurns, v)
	}
	if got := keys.Press(p.Update, "enter"); got.Kind != Closed {
		t.Errorf("want Enter to close an empty picker, got %+v", got)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	for _, k := range [][]string{nil, {"down", "enter"}} {
		p := New(turns(), rewinds(), at(12, 0), th)
		keys.Press(p.Update, k...)
		for _, size := range overlaytest.Sizes() {
			golden.Fits(t, p.View(size[0], size[1]), size[0], size[1])
		}
	}
	p := Confirm("/rewind 2 --force", []string{"notes.md", "late.txt"}, th)
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, p.View(size[0], size[1]), size[0], size[1])
	}
}
