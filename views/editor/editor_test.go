package editor

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/internal/sgrtest"
	"github.com/tack-agent/tack/views/theme"
)

func typeText(e Editor, s string) Editor {
	for _, r := range s {
		e, _ = e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return e
}

func press(e Editor, k tea.KeyPressMsg) (Editor, tea.Msg) {
	e, cmd := e.Update(k)
	if cmd == nil {
		return e, nil
	}
	return e, cmd()
}

var (
	enter      = tea.KeyPressMsg{Code: tea.KeyEnter}
	shiftEnter = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}
	altEnter   = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	ctrlJ      = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	up         = tea.KeyPressMsg{Code: tea.KeyUp}
	down       = tea.KeyPressMsg{Code: tea.KeyDown}
)

func TestEnterSubmitsAndClears(t *testing.T) {
	e := typeText(New(theme.New(true), 40), "hello")
	e, msg := press(e, enter)
	if got, ok := msg.(SubmitMsg); !ok || got.Text != "hello" {
		t.Fatalf("want SubmitMsg{hello}, got %#v", msg)
	}
	if !e.Empty() {
		t.Fatalf("want an empty editor after submit, got %q", e.Value())
	}
}

func TestBlankInputIsNotSubmitted(t *testing.T) {
	e := typeText(New(theme.New(true), 40), "   ")
	if _, msg := press(e, enter); msg != nil {
		t.Fatalf("want nothing submitted, got %#v", msg)
	}
}

func TestNewlineKeysInsertNewlines(t *testing.T) {
	for name, k := range map[string]tea.KeyPressMsg{"shift+enter": shiftEnter, "alt+enter": altEnter, "ctrl+j": ctrlJ} {
		e := typeText(New(theme.New(true), 40), "a")
		e, msg := press(e, k)
		e = typeText(e, "b")
		if msg != nil || e.Value() != "a\nb" {
			t.Errorf("%s: want a newline inserted, got %q (msg %#v)", name, e.Value(), msg)
		}
	}
}

func TestUpAndDownBrowseHistoryKeepingTheDraft(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetHistory([]string{"first", "second"})
	e = typeText(e, "draft")
	e, _ = press(e, up)
	if e.Value() != "second" {
		t.Fatalf("want the latest prompt, got %q", e.Value())
	}
	e, _ = press(e, up)
	e, _ = press(e, up)
	if e.Value() != "first" {
		t.Fatalf("want the oldest prompt to stay, got %q", e.Value())
	}
	e, _ = press(e, down)
	e, _ = press(e, down)
	if e.Value() != "draft" {
		t.Fatalf("want the draft back, got %q", e.Value())
	}
}

func TestUpMovesWithinMultiLineTextBeforeHistory(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetHistory([]string{"old"})
	e = typeText(e, "a")
	e, _ = press(e, shiftEnter)
	e = typeText(e, "b")
	e, _ = press(e, up)
	if e.Value() != "a\nb" {
		t.Fatalf("want the cursor to move up a line first, got %q", e.Value())
	}
	e, _ = press(e, up)
	if e.Value() != "old" {
		t.Fatalf("want history from the first line, got %q", e.Value())
	}
}

func TestSubmittedTextJoinsHistory(t *testing.T) {
	e := typeText(New(theme.New(true), 40), "one")
	e, _ = press(e, enter)
	e, _ = press(e, up)
	if e.Value() != "one" {
		t.Fatalf("want the sent prompt in history, got %q", e.Value())
	}
}

func TestLargePasteIsKeptWhole(t *testing.T) {
	big := strings.Repeat("line of pasted text\n", 20000)
	e := typeText(New(theme.New(true), 40), "see: ")
	e, _ = e.Update(tea.PasteMsg{Content: big})
	if !strings.Contains(ansi.Strip(e.View()), "[paste #1 +20001 lines]") {
		t.Fatalf("want a paste marker, got %q", ansi.Strip(e.View()))
	}
	_, msg := press(e, enter)
	if got := msg.(SubmitMsg).Text; got != "see: "+big {
		t.Fatalf("want the whole paste submitted (%d bytes), got %d bytes", len(big)+5, len(got))
	}
}

func TestSmallPasteIsInsertedAsText(t *testing.T) {
	e, _ := New(theme.New(true), 40).Update(tea.PasteMsg{Content: "a\nb"})
	if e.Value() != "a\nb" {
		t.Fatalf("want the paste inline, got %q", e.Value())
	}
}

func TestPlaceholderWhileRunning(t *testing.T) {
	e := New(theme.New(true), 60)
	e.SetRunning(true)
	if got := ansi.Strip(e.View()); !strings.Contains(got, "> ") || !strings.Contains(got, "nter to steer · esc to cancel") {
		t.Fatalf("want the prompt and the steering placeholder, got %q", got)
	}
	e.SetRunning(false)
	if got := ansi.Strip(e.View()); strings.Contains(got, "steer") {
		t.Fatalf("want no placeholder while idle, got %q", got)
	}
}

func TestEditorGrowsToTenRows(t *testing.T) {
	e := New(theme.New(true), 40)
	if e.Height() != 1 {
		t.Fatalf("want one row when empty, got %d", e.Height())
	}
	for i := 0; i < 15; i++ {
		e = typeText(e, "x")
		e, _ = press(e, ctrlJ)
	}
	if e.Height() != MaxRows {
		t.Fatalf("want %d rows at most, got %d", MaxRows, e.Height())
	}
	if rows := strings.Count(e.View(), "\n") + 1; rows != MaxRows {
		t.Fatalf("want %d rows drawn, got %d", MaxRows, rows)
	}
}

func TestRealCursorFollowsTheText(t *testing.T) {
	e := typeText(New(theme.New(true), 40), "abc")
	c := e.Cursor()
	if c == nil || c.Position.X != len("> abc") || c.Position.Y != 0 {
		t.Fatalf("want the cursor at (5,0), got %+v", c)
	}
	e, _ = press(e, ctrlJ)
	e = typeText(e, "d")
	if c := e.Cursor(); c.Position.X != 3 || c.Position.Y != 1 {
		t.Fatalf("want the cursor at (3,1), got %+v", c.Position)
	}
}

func TestEditorUsesOnlyThePalette(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetRunning(true)
	views := []string{e.View(), typeText(e, "text").View()}
	for _, v := range views {
		if s := sgrtest.Violation(v); s != "" {
			t.Fatalf("want palette only, got %s in %q", s, v)
		}
	}
}
