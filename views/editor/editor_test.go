package editor

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/views/theme"
)

func TestEnterSubmitsAndClears(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "hello")
	e, sent := e.Submit()
	if sent != "hello" {
		t.Fatalf("want hello sent, got %q", sent)
	}
	if !e.Empty() {
		t.Fatalf("want an empty editor after submit, got %q", e.Value())
	}
}

func TestBlankInputIsNotSubmitted(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "   ")
	if _, sent := e.Submit(); sent != "" {
		t.Fatalf("want nothing submitted, got %q", sent)
	}
}

func TestNewlineKeysInsertNewlines(t *testing.T) {
	for _, name := range []string{"shift+enter", "alt+enter", "ctrl+j"} {
		e := keys.TypeInto(New(theme.New(true), 40), "a")
		e, msg := keys.PressOn(e, name)
		e = keys.TypeInto(e, "b")
		if msg != nil || e.Value() != "a\nb" {
			t.Errorf("%s: want a newline inserted, got %q (msg %#v)", name, e.Value(), msg)
		}
	}
}

// A backslash before Enter is a new line in its place, as Claude Code's
// \⏎: the way to one in terminals that send Shift+Enter as Enter. A
// backslash anywhere else is text.
func TestBackslashThenEnterInsertsANewline(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), `a\`)
	e, sent := e.Submit()
	e = keys.TypeInto(e, "b")
	if sent != "" || e.Value() != "a\nb" {
		t.Fatalf("want the backslash made a newline, got %q (sent %q)", e.Value(), sent)
	}
	e = keys.TypeInto(New(theme.New(true), 40), `C:\dir\`)
	e, _ = keys.PressOn(e, "left")
	if _, sent := e.Submit(); sent != `C:\dir\` {
		t.Fatalf("want a backslash not before the cursor kept and the text sent, got %q", sent)
	}
}

func TestPlaceholderOffersTheBackslashWhereShiftEnterIsEnter(t *testing.T) {
	e := New(theme.New(true), 80)
	if got := ansi.Strip(e.View()); !strings.Contains(got, "Shift+Enter for a new line") {
		t.Fatalf("want Shift+Enter offered, got %q", got)
	}
	e.SetPlainShiftEnter(true)
	if got := ansi.Strip(e.View()); !strings.Contains(got, `\ then Enter for a new line`) || strings.Contains(got, "Shift") {
		t.Fatalf("want the backslash offered instead, got %q", got)
	}
}

func TestUpAndDownBrowseHistoryKeepingTheDraft(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetHistory([]string{"first", "second"})
	e = keys.TypeInto(e, "draft")
	e, _ = keys.PressOn(e, "up")
	if e.Value() != "second" {
		t.Fatalf("want the latest prompt, got %q", e.Value())
	}
	e, _ = keys.PressOn(e, "up")
	e, _ = keys.PressOn(e, "up")
	if e.Value() != "first" {
		t.Fatalf("want the oldest prompt to stay, got %q", e.Value())
	}
	e, _ = keys.PressOn(e, "down")
	e, _ = keys.PressOn(e, "down")
	if e.Value() != "draft" {
		t.Fatalf("want the draft back, got %q", e.Value())
	}
}

func TestUpMovesWithinMultiLineTextBeforeHistory(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetHistory([]string{"old"})
	e = keys.TypeInto(e, "a")
	e, _ = keys.PressOn(e, "shift+enter")
	e = keys.TypeInto(e, "b")
	e, _ = keys.PressOn(e, "up")
	if e.Value() != "a\nb" {
		t.Fatalf("want the cursor to move up a line first, got %q", e.Value())
	}
	e, _ = keys.PressOn(e, "up")
	if e.Value() != "old" {
		t.Fatalf("want history from the first line, got %q", e.Value())
	}
}

func TestSubmittedTextJoinsHistory(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "one")
	e, _ = e.Submit()
	e, _ = keys.PressOn(e, "up")
	if e.Value() != "one" {
		t.Fatalf("want the sent prompt in history, got %q", e.Value())
	}
}

func TestLargePasteIsKeptWhole(t *testing.T) {
	big := strings.Repeat("line of pasted text\n", 20000)
	e := keys.TypeInto(New(theme.New(true), 40), "see: ")
	e, _ = e.Update(tea.PasteMsg{Content: big})
	if !strings.Contains(ansi.Strip(e.View()), "[paste #1 +20000 lines]") {
		t.Fatalf("want a paste marker, got %q", ansi.Strip(e.View()))
	}
	if _, got := e.Submit(); got != "see: "+big {
		t.Fatalf("want the whole paste submitted (%d bytes), got %d bytes", len(big)+5, len(got))
	}
}

// TestPasteMarkerCountsTheLinesPasted: a file of N lines copied whole ends
// in a line ending, which starts no line of its own.
func TestPasteMarkerCountsTheLinesPasted(t *testing.T) {
	for _, c := range []struct {
		text string
		want string
	}{
		{strings.Repeat("row\n", 2000), "[paste #1 +2000 lines]"},
		{strings.Repeat("row\n", 1999) + "row", "[paste #1 +2000 lines]"},
		{strings.Repeat("row\n", 11) + "\n", "[paste #1 +12 lines]"},
	} {
		e, _ := New(theme.New(true), 40).Update(tea.PasteMsg{Content: c.text})
		if got := ansi.Strip(e.View()); !strings.Contains(got, c.want) {
			t.Errorf("paste of %d bytes: want marker %s, got %q", len(c.text), c.want, got)
		}
	}
}

func TestLargePasteWithCarriageReturnsCountsAndSubmitsNewlines(t *testing.T) {
	for _, eol := range []string{"\r", "\r\n"} {
		big := strings.Repeat("pasted row"+eol, 30)
		e, _ := New(theme.New(true), 40).Update(tea.PasteMsg{Content: big})
		if got := ansi.Strip(e.View()); !strings.Contains(got, "[paste #1 +30 lines]") {
			t.Fatalf("eol %q: want marker [paste #1 +30 lines], got %q", eol, got)
		}
		if _, got := e.Submit(); got != strings.Repeat("pasted row\n", 30) {
			t.Fatalf("eol %q: want the paste submitted with LF line ends, got %q", eol, got)
		}
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
		e = keys.TypeInto(e, "x")
		e, _ = keys.PressOn(e, "ctrl+j")
	}
	if e.Height() != MaxRows {
		t.Fatalf("want %d rows at most, got %d", MaxRows, e.Height())
	}
	if rows := strings.Count(e.View(), "\n") + 1; rows != MaxRows {
		t.Fatalf("want %d rows drawn, got %d", MaxRows, rows)
	}
}

func TestRealCursorFollowsTheText(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "abc")
	c := e.Cursor()
	if c == nil || c.Position.X != len("> abc") || c.Position.Y != 0 {
		t.Fatalf("want the cursor at (5,0), got %+v", c)
	}
	e, _ = keys.PressOn(e, "ctrl+j")
	e = keys.TypeInto(e, "d")
	if c := e.Cursor(); c.Position.X != 3 || c.Position.Y != 1 {
		t.Fatalf("want the cursor at (3,1), got %+v", c.Position)
	}
}

func TestEditorUsesOnlyThePalette(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetRunning(true)
	views := []string{e.View(), keys.TypeInto(e, "text").View()}
	for _, v := range views {
		if s := palette.Violation(v); s != "" {
			t.Fatalf("want palette only, got %s in %q", s, v)
		}
	}
}

func TestCursorOffsetIsTheByteOffsetInValue(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "héllo")
	e, _ = keys.PressOn(e, "ctrl+j")
	e = keys.TypeInto(e, "wörld")
	if got, want := e.CursorOffset(), len("héllo\nwörld"); got != want {
		t.Fatalf("want the cursor at the end (%d), got %d", want, got)
	}
	for range 3 {
		e, _ = keys.PressOn(e, "left")
	}
	if got, want := e.CursorOffset(), len("héllo\nwö"); got != want {
		t.Fatalf("want the cursor after %q (%d), got %d", "héllo\nwö", want, got)
	}
}

func TestCursorOffsetCountsPastesExpanded(t *testing.T) {
	big := strings.Repeat("x\n", 20)
	e := keys.TypeInto(New(theme.New(true), 40), "a ")
	e, _ = e.Update(tea.PasteMsg{Content: big})
	e = keys.TypeInto(e, " b")
	e, _ = keys.PressOn(e, "left")
	if got, want := e.CursorOffset(), len("a "+big+" "); got != want {
		t.Fatalf("want the offset in the expanded text (%d), got %d", want, got)
	}
}

func TestSetValueLandsLongTextAsTextWithTheCursorAtTheEnd(t *testing.T) {
	long := strings.TrimSuffix(strings.Repeat("line\n", 15), "\n")
	e := keys.TypeInto(New(theme.New(true), 40), "old")
	e.SetValue(long)
	if got := ansi.Strip(e.View()); strings.Contains(got, "[paste") {
		t.Fatalf("want the text itself in the editor, got a paste marker: %q", got)
	}
	if e.Value() != long || e.CursorOffset() != len(long) {
		t.Fatalf("want %d bytes with the cursor at the end, got %q with the cursor at %d", len(long), e.Value(), e.CursorOffset())
	}
	e = keys.TypeInto(e, "!")
	if e.Value() != long+"!" {
		t.Fatalf("want typing to continue at the end, got %q", e.Value())
	}
}

func TestReplacePutsTheCursorAfterTheText(t *testing.T) {
	e := keys.TypeInto(New(theme.New(true), 40), "see @ma and more")
	e.Replace(len("see "), len("see @ma"), "@main.go ")
	e = keys.TypeInto(e, "X")
	if want := "see @main.go X and more"; e.Value() != want {
		t.Fatalf("want %q, got %q", want, e.Value())
	}
}

func TestReplaceKeepsUntouchedPastesAsMarkers(t *testing.T) {
	big := strings.Repeat("pasted\n", 20)
	e := keys.TypeInto(New(theme.New(true), 40), "@ma ")
	e, _ = e.Update(tea.PasteMsg{Content: big})
	e.Replace(0, len("@ma"), "@main.go")
	if got := ansi.Strip(e.View()); !strings.Contains(got, "[paste #1 +20 lines]") {
		t.Fatalf("want the paste still shown as its marker, got %q", got)
	}
	if want := "@main.go " + big; e.Value() != want {
		t.Fatalf("want the paste kept whole, got %q", e.Value())
	}
	e, _ = e.Update(tea.PasteMsg{Content: big})
	if got := ansi.Strip(e.View()); !strings.Contains(got, "[paste #2 +20 lines]") {
		t.Fatalf("want the next paste numbered 2, got %q", got)
	}
}

func TestPlaceholderSaysWhatToDoInTheRoomItHas(t *testing.T) {
	for _, c := range []struct {
		width   int
		running bool
		want    string
	}{
		{100, false, IdlePlaceholder},
		{40, false, ShortIdlePlaceholder},
		{100, true, RunningPlaceholder},
	} {
		e := New(theme.New(false), c.width)
		e.SetRunning(c.running)
		if got := ansi.Strip(e.View()); !strings.Contains(got, c.want) {
			t.Errorf("width %d running %v: want %q, got %q", c.width, c.running, c.want, got)
		}
	}
}

// While a dialog above takes the keys the hint names none of them, and it
// comes back when the dialog closes.
func TestHeldEditorHidesItsHintUntilReleased(t *testing.T) {
	e := New(theme.New(false), 100)
	e.SetRunning(true)
	e.SetHeld(true)
	if got := strings.TrimSpace(ansi.Strip(e.View())); got != ">" {
		t.Fatalf("want a bare prompt while held, got %q", got)
	}
	e.SetHeld(false)
	if got := ansi.Strip(e.View()); !strings.Contains(got, RunningPlaceholder) {
		t.Fatalf("want %q back once released, got %q", RunningPlaceholder, got)
	}
}

// TestViewIsTheTextareasAfterEveryChange draws the editor after each kind of
// change and compares it with what the textarea draws itself: the view kept
// for an unchanged editor must never outlive a change.
func TestViewIsTheTextareasAfterEveryChange(t *testing.T) {
	e := New(theme.New(true), 40)
	e.SetHistory([]string{"an earlier prompt"})
	steps := []struct {
		name string
		do   func(Editor) Editor
	}{
		{"nothing", func(e Editor) Editor { return e }},
		{"a typed word", func(e Editor) Editor { return keys.TypeInto(e, "hello") }},
		{"a newline", func(e Editor) Editor { e, _ = keys.PressOn(e, "shift+enter"); return e }},
		{"a long line that wraps", func(e Editor) Editor { return keys.TypeInto(e, strings.Repeat("word ", 20)) }},
		{"word movement", func(e Editor) Editor { e, _ = keys.PressOn(e, "alt+left", "alt+left"); return e }},
		{"a paste", func(e Editor) Editor { e, _ = e.Update(tea.PasteMsg{Content: "pasted"}); return e }},
		{"a running turn's mark", func(e Editor) Editor { e.SetMark("◐"); return e }},
		{"the mark again", func(e Editor) Editor { e.SetMark("◐"); return e }},
		{"a narrower width", func(e Editor) Editor { e.SetWidth(20); return e }},
		{"the same width", func(e Editor) Editor { e.SetWidth(20); return e }},
		{"set value", func(e Editor) Editor { e.SetValue("replaced"); return e }},
		{"reset", func(e Editor) Editor { e.Reset(); return e }},
		{"running", func(e Editor) Editor { e.SetRunning(true); return e }},
		{"the mark cleared", func(e Editor) Editor { e.SetMark(""); return e }},
		{"idle", func(e Editor) Editor { e.SetRunning(false); return e }},
		{"history up", func(e Editor) Editor { e, _ = keys.PressOn(e, "up"); return e }},
		{"history down", func(e Editor) Editor { e, _ = keys.PressOn(e, "down"); return e }},
		{"submit", func(e Editor) Editor { e = keys.TypeInto(e, "go"); e, _ = e.Submit(); return e }},
		{"another theme", func(e Editor) Editor { e.SetTheme(theme.New(false)); return e }},
		{"typed and erased", func(e Editor) Editor {
			e = keys.TypeInto(e, "ab")
			e, _ = keys.PressOn(e, "backspace", "backspace")
			return e
		}},
		{"a mark while empty", func(e Editor) Editor { e.SetMark("●"); return e }},
		{"erased again under the mark", func(e Editor) Editor {
			e = keys.TypeInto(e, "x")
			e, _ = keys.PressOn(e, "backspace")
			return e
		}},
		{"the first theme while empty", func(e Editor) Editor { e.SetTheme(theme.New(true)); return e }},
		{"wider while empty", func(e Editor) Editor { e.SetWidth(70); return e }},
		{"the mark gone while empty", func(e Editor) Editor { e.SetMark(""); return e }},
	}
	for _, s := range steps {
		e = s.do(e)
		if got, want := e.View(), e.ta.View(); got != want {
			t.Fatalf("after %s: want the textarea's view\n%q\ngot\n%q", s.name, want, got)
		}
		if again := e.View(); again != e.ta.View() {
			t.Fatalf("after %s, drawn again: want the textarea's view, got %q", s.name, again)
		}
		if got, want := e.Cursor(), e.ta.Cursor(); (got == nil) != (want == nil) || (got != nil && *got != *want) {
			t.Fatalf("after %s: want the textarea's cursor %+v, got %+v", s.name, want, got)
		}
		if c := e.Cursor(); c != nil {
			c.Y += 100 // the app moves the cursor it is given to the editor's row
			if again := e.Cursor(); again.Y == c.Y {
				t.Fatalf("after %s: want a cursor of the caller's own, got the kept one", s.name)
			}
		}
	}
}

// TestTypedTextIsWhatTheTextareasUpdateMakesOfIt types into the editor,
// which inserts typed characters itself while it does not scroll, and
// into a textarea that gets every key through its own Update (the
// oracle): text, cursor, height, view and the terminal cursor agree after
// every key, as the text wraps, grows past the editor's tallest and is
// edited in the middle.
func TestTypedTextIsWhatTheTextareasUpdateMakesOfIt(t *testing.T) {
	e := New(theme.New(true), 30)
	oracle := New(theme.New(true), 30)
	var typing []tea.KeyPressMsg
	for _, word := range []string{"Fix", "the", "wörd", "counter's", "世界", "edge", "case", "—", "Q!", "…"} {
		typing = append(typing, keys.Type(word+" ")...)
	}
	var all []tea.KeyPressMsg
	for range 7 {
		all = append(all, typing...)
	}
	all = append(all, keys.Key("alt+left"), keys.Key("alt+left"))
	all = append(all, keys.Type("inserted ")...)
	all = append(all, keys.Key("shift+enter"), keys.Key("home"))
	all = append(all, keys.Type("new line")...)
	for i, k := range all {
		e, _ = e.Update(k)
		oracle.ta, _ = oracle.ta.Update(k)
		if e.Value() != oracle.ta.Value() || e.ta.Line() != oracle.ta.Line() || e.ta.Column() != oracle.ta.Column() ||
			e.Height() != oracle.ta.Height() {
			t.Fatalf("key %d (%q): want %q at %d:%d, %d rows, got %q at %d:%d, %d rows", i, k.String(),
				oracle.ta.Value(), oracle.ta.Line(), oracle.ta.Column(), oracle.ta.Height(),
				e.Value(), e.ta.Line(), e.ta.Column(), e.Height())
		}
		if got, want := e.View(), oracle.ta.View(); got != want {
			t.Fatalf("key %d (%q): want the view\n%s\ngot\n%s", i, k.String(), want, got)
		}
		if got, want := e.Cursor(), oracle.ta.Cursor(); (got == nil) != (want == nil) || (got != nil && *got != *want) {
			t.Fatalf("key %d (%q): want the cursor %+v, got %+v", i, k.String(), want, got)
		}
	}
	if e.Height() != MaxRows {
		t.Fatalf("want the text to have grown the editor to %d rows, got %d", MaxRows, e.Height())
	}
}

// A character that takes no column (a combining mark typed alone, a soft
// hyphen, a zero-width space) is text all the same: the placeholder gives
// way to it.
func TestZeroWidthTextHidesThePlaceholder(t *testing.T) {
	for _, text := range []string{"\u00ad", "\u0301", "\u200b"} {
		e := New(theme.New(true), 40)
		if view := ansi.Strip(e.View()); !strings.Contains(view, "Describe a task") {
			t.Fatalf("want the placeholder in the empty editor, it shows %q", view)
		}
		e = keys.TypeInto(e, text)
		if view := ansi.Strip(e.View()); strings.Contains(view, "Describe a task") {
			t.Errorf("%q: want the placeholder gone, the editor shows %q", text, view)
		}
	}
}
