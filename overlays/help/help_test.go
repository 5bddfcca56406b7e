package help

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/complete"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func commands() []complete.Command {
	return []complete.Command{
		{Name: "compact", Description: "Summarize older history to free context"},
		{Name: "details", Hint: "[collapsed|expanded|hidden] [reasoning [on|off]]", Description: "Tool card and reasoning visibility"},
		{Name: "model", Hint: "[[provider/]model]", Description: "Pick the model; applies from the next step"},
		{Name: "resume", Hint: "[id]", Description: "Resume a session"},
	}
}

// keyList is a key list of the length and shapes the app's key table
// gives: short and long keys, one action that wraps.
func keyList() []Binding {
	return []Binding{
		{"Enter", "send (steer while the agent runs)"},
		{"Shift/Alt+Enter, Ctrl+J", "newline"},
		{"Esc", "close overlay; cancel the running turn"},
		{"Ctrl+C", "cancel while running; clear input or exit while idle"},
		{"PgUp/PgDn, wheel", "scroll the transcript"},
		{"Home/End", "scroll to the top or bottom while the draft is empty"},
		{"F2", "toggle mouse capture (off: select text to copy)"},
		{"!command", "run a shell command at once; its output becomes context"},
	}
}

func TestGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {50, 14}} {
		h := New(keyList(), commands(), th)
		golden.View(t, fmt.Sprintf("help_%dx%d", size[0], size[1]), h.View(size[0], size[1]), size[0], size[1])
	}
}

func TestScrollsToTheCommands(t *testing.T) {
	h := New(keyList(), commands(), th)
	if v := ansi.Strip(h.View(60, 12)); strings.Contains(v, "/resume") {
		t.Fatalf("want the commands below the first page, got\n%s", v)
	}
	for range 5 {
		h.Update(keys.Key("pgdown"))
	}
	if v := ansi.Strip(h.View(60, 12)); !strings.Contains(v, "/resume [id] — Resume a session") {
		t.Errorf("want the commands after paging down, got\n%s", v)
	}
	if got := h.Update(keys.Key("esc")); !got.Closed {
		t.Errorf("want Esc to close, got %+v", got)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	h := New(keyList(), commands(), th)
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, h.View(size[0], size[1]), size[0], size[1])
	}
}

// manyEntries is keyList repeated keys times and commands repeated
// commandSets times under numbered names, with the theme: more than one
// column holds.
func manyEntries(keys, commandSets int) ([]Binding, []complete.Command, theme.Theme) {
	var ks []Binding
	for range keys {
		ks = append(ks, keyList()...)
	}
	var cs []complete.Command
	for i := range commandSets {
		for _, c := range commands() {
			c.Name += fmt.Sprint(i)
			cs = append(cs, c)
		}
	}
	return ks, cs, th
}

func TestShowsEverythingInTwoColumnsWhenWideRatherThanScroll(t *testing.T) {
	h := New(manyEntries(3, 5))
	if v := ansi.Strip(h.View(100, 40)); !strings.Contains(v, "more") {
		t.Fatalf("want one column at 100 wide to scroll, got\n%s", v)
	}
	v := ansi.Strip(h.View(120, 40))
	if strings.Contains(v, "more") || !strings.Contains(v, "/resume4") || !strings.Contains(v, "Keyboard shortcuts") {
		t.Fatalf("want every key and command at once in two columns at 120×40, got\n%s", v)
	}
	if strings.Count(v, "\n")+1 > 40 {
		t.Fatalf("want at most 40 rows, got\n%s", v)
	}
}

// rightColumn is the text of the second column of a two-column view at
// width: what starts after the first column and the gutter in each box row.
func rightColumn(view string, width int) []string {
	cw := (width - 4 - gutter) / 2
	var col []string
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		r := []rune(line)
		if start := 2 + cw + gutter; len(r) > start+2 && r[0] == '│' {
			col = append(col, strings.TrimRight(string(r[start:len(r)-1]), " "))
		}
	}
	return col
}

func TestTwoColumnsPutTheKeysLeftAndTheCommandsRight(t *testing.T) {
	v := New(manyEntries(2, 5)).View(120, 40)
	if right := rightColumn(v, 120); len(right) == 0 || right[0] != "Commands" {
		t.Fatalf("want the second column to start with the commands, got %q in\n%s", right, ansi.Strip(v))
	}
}

func TestTwoColumnsNeverPartAnEntry(t *testing.T) {
	// 41 keys of two rows each under a heading: the middle row is the
	// second row of a key, so the flow must move to the next entry.
	var ks []Binding
	for i := range 41 {
		ks = append(ks, Binding{fmt.Sprintf("F%d", i), "an action described in more words than one row of a column holds"})
	}
	v := New(ks, nil, th).View(120, 40)
	right := rightColumn(v, 120)
	if len(right) == 0 {
		t.Fatalf("want two columns, got\n%s", ansi.Strip(v))
	}
	if first := right[0]; first == "" || strings.HasPrefix(first, " ") {
		t.Fatalf("want the second column to start with a whole entry, got %q in\n%s", first, ansi.Strip(v))
	}
}
