package cards

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/views/theme"
)

func intp(n int) *int { return &n }

func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func bashCall() card.Card {
	return card.Card{Kind: card.Terminal, Title: "go test ./...", Label: "Bash", Subject: "go test ./...",
		Description: "Run the tests", Terminal: &card.TerminalView{Command: "go test ./...", Cwd: "sub"}}
}

// longDiff is an edit of four hunks, each of two changed lines among
// context, the way fs numbers them.
func longDiff() card.FileDiff {
	d := card.FileDiff{Path: "wc.go", Added: 8, Removed: 8}
	for h := range 4 {
		at := 20*h + 10
		if h > 0 {
			d.Lines = append(d.Lines, card.DiffLine{Op: card.OpGap, Text: "14 unchanged lines"})
		}
		for i := range 3 {
			d.Lines = append(d.Lines, card.DiffLine{Op: card.OpContext, Text: fmt.Sprintf("ctx %d", at+i), Old: at + i, New: at + i})
		}
		for i := range 2 {
			d.Lines = append(d.Lines, card.DiffLine{Op: card.OpDelete, Text: fmt.Sprintf("old %d", at+3+i), Old: at + 3 + i})
		}
		for i := range 2 {
			d.Lines = append(d.Lines, card.DiffLine{Op: card.OpAdd, Text: fmt.Sprintf("new %d", at+3+i), New: at + 3 + i})
		}
		for i := range 3 {
			d.Lines = append(d.Lines, card.DiffLine{Op: card.OpContext, Text: fmt.Sprintf("ctx %d", at+5+i), Old: at + 5 + i, New: at + 5 + i})
		}
	}
	return d
}

// wrappedDiffLines is an edit of lines longer than a card is wide: a
// comment, a string of CJK characters behind a tab, and emoji, one of them
// a family joined by zero-width joiners, which is one grapheme.
func wrappedDiffLines() []card.DiffLine {
	return []card.DiffLine{
		{Op: card.OpContext, Text: "// Count returns the number of lines in r, counting a final line without a newline too.", Old: 9, New: 9},
		{Op: card.OpDelete, Text: "\treturn fmt.Sprintf(\"行数を数えます。最後の改行がない行も一行として数えます。\", n)", Old: 10},
		{Op: card.OpAdd, Text: "\treturn fmt.Sprintf(\"%d 行 👩‍👩‍👧 😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘😗 done\", n)", New: 10},
	}
}

func sampleTools() map[string]Tool {
	return map[string]Tool{
		"bash_pending": {Name: "bash", Call: bashCall()},
		"bash_running": {Name: "bash", Call: bashCall(), Elapsed: 6400 * time.Millisecond, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: numberedLines(9)}}},
		"bash_failed": {Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "--- FAIL: TestCount\n", ExitCode: intp(1)}}},
		"bash_cut": {Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: numberedLines(4), ExitCode: intp(0), DroppedLines: 199996,
				Spill: []string{"/tmp/tack/spill/stdout-1.txt"}}}},
		"bash_done": {Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: numberedLines(20), ExitCode: intp(0)}}},
		"bash_signal": {Name: "bash", Call: bashCall(), Done: true, Failed: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "partial\n", Signal: "SIGKILL"}}},
		"bash_timeout": {Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "waiting\n", TimedOut: true}}},
		"bash_interrupted": {Name: "bash", Call: bashCall(), Done: true, Failed: true, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "step 1\nstep 2\n", Interrupted: true}}},
		"edit_diff": {Name: "edit", Call: card.Card{Kind: card.Diff, Title: "Edit main.go", Label: "Edit", Subject: "main.go"}, Done: true,
			Result: &card.Card{Kind: card.Diff, Diffs: []card.FileDiff{{Path: "main.go", Added: 2, Removed: 1, Lines: []card.DiffLine{
				{Op: card.OpContext, Text: "package main", Old: 1, New: 1}, {Op: card.OpGap, Text: "6 unchanged lines"},
				{Op: card.OpDelete, Text: `	fmt.Println("old")`, Old: 8}, {Op: card.OpAdd, Text: `	fmt.Println("new")`, New: 8},
				{Op: card.OpAdd, Text: "	return", New: 9}, {Op: card.OpContext, Text: "}", Old: 9, New: 10}}}}}},
		"edit_long": {Name: "edit", Call: card.Card{Kind: card.Diff, Label: "Edit", Subject: "wc.go"}, Done: true,
			Result: &card.Card{Kind: card.Diff, Diffs: []card.FileDiff{longDiff()}}},
		"write_created": {Name: "write", Call: card.Card{Kind: card.Diff, Title: "Write a.txt", Label: "Write", Subject: "a.txt"}, Done: true,
			Result: &card.Card{Kind: card.Diff, Diffs: []card.FileDiff{
				{Path: "a.txt", Created: true, Added: 1, Lines: []card.DiffLine{{Op: card.OpAdd, Text: "hello"}}},
				{Path: "b.txt", Added: 0, Removed: 1, Approximate: true, Lines: []card.DiffLine{{Op: card.OpDelete, Text: "bye"}}}}}},
		"edit_wrapped": {Name: "edit", Call: card.Card{Kind: card.Diff, Label: "Edit", Subject: "main.go"}, Done: true,
			Result: &card.Card{Kind: card.Diff, Diffs: []card.FileDiff{{Path: "main.go", Added: 1, Removed: 1, Lines: wrappedDiffLines()}}}},
		"edit_failed": {Name: "edit", Done: true, Failed: true, Output: "Error: a.txt has not been read in this session",
			Call: card.Card{Kind: card.Diff, Title: "Edit a.txt", Diffs: []card.FileDiff{{Path: "a.txt", Added: 1, Removed: 1,
				Lines: []card.DiffLine{{Op: card.OpDelete, Text: "line2"}, {Op: card.OpAdd, Text: "LINE TWO"}}}}}},
		"error_no_card": {Name: "read", Call: card.Card{Kind: card.Read, Title: "Read missing.go"}, Done: true, Failed: true,
			Output: "Error: open missing.go: no such file or directory"},
		"read": {Name: "read", Call: card.Card{Kind: card.Read, Title: "Read a.go (1-3)", Label: "Read", Subject: "a.go", Description: "lines 1-3"}, Done: true,
			Result: &card.Card{Kind: card.Read, Summary: "Read 3 lines", Body: "1\tpackage a\n2\t\n3\tfunc A() {}\n"}},
		"search_truncated": {Name: "grep", Call: card.Card{Kind: card.Search, Title: "Grep TODO"}, Done: true,
			Result: &card.Card{Kind: card.Search, Body: "a.go:1: x\nb.go:2: y", Truncated: true}},
		"todo": {Name: "todo_write", Call: card.Card{Kind: card.Todo, Title: "Update todo list"}, Done: true,
			Result: &card.Card{Kind: card.Todo, Label: "Update plan", Summary: "Plan 1/3 · Edit", Todos: []card.TodoItem{{Content: "Read", Status: card.TodoCompleted},
				{Content: "Edit", Status: card.TodoInProgress}, {Content: "Test", Status: card.TodoPending}}}},
		"generic_title_is_name": {Name: "think", Call: card.Card{Kind: card.Generic, Title: "think", Body: "{\"a\": 1}"}},
		"hostile_terminal": {Name: "bash", Done: true, Call: card.Card{Kind: card.Terminal, Description: "evil\x1b]2;pwned\x07",
			Terminal: &card.TerminalView{Command: "cat f\x1b[2J"}}, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: "ok\x1b]2;pwned\x07\r\nbell\x07\x9b1m\n", ExitCode: intp(1)}}},
		"hostile_diff": {Name: "write", Done: true, Call: card.Card{Kind: card.Diff, Title: "Write x\x1b]2;pwned\x07.go"}, Result: &card.Card{Kind: card.Diff,
			Diffs: []card.FileDiff{{Path: "x\x1b]2;pwned\x07.go", Added: 1, Lines: []card.DiffLine{{Op: card.OpAdd, Text: "\x1b]2;pwned\x07"}}}}}},
	}
}

func TestCardsMatchGoldenInEveryMode(t *testing.T) {
	th := theme.New(true)
	modes := map[Mode]string{Collapsed: "collapsed", Expanded: "expanded", Hidden: "hidden"}
	for name, tool := range sampleTools() {
		for mode, mname := range modes {
			lines := Render(tool, 60, mode, th)
			if mode == Hidden {
				if len(lines) != 0 {
					t.Errorf("%s hidden: want no rows, got %q", name, lines)
				}
				continue
			}
			golden.Lines(t, name+"_"+mname, lines)
		}
	}
}

func TestCardRowsStayInWidthAndPalette(t *testing.T) {
	th := theme.New(true)
	for name, tool := range sampleTools() {
		for _, width := range []int{10, 24, 60} {
			for _, l := range Render(tool, width, Expanded, th) {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("%s at %d: want rows at most %d wide, got %d: %q", name, width, width, w, ansi.Strip(l))
				}
				if v := palette.Violation(l); v != "" {
					t.Errorf("%s: want palette only, got %s", name, v)
				}
				if strings.Contains(ansi.Strip(l), "\x1b") || strings.ContainsRune(l, 0x07) {
					t.Errorf("%s: want no raw control bytes, got %q", name, l)
				}
			}
		}
	}
}

func TestCollapsedCardPreviewsHeadAndTail(t *testing.T) {
	lines := Render(sampleTools()["bash_done"], 60, Collapsed, theme.New(false))
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = ansi.Strip(l)
	}
	got := strings.Join(plain, "\n")
	for _, want := range []string{"  line 1\n  line 2\n  line 3\n  … +14 lines (ctrl+o to expand)\n  line 18\n  line 19\n  line 20"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
}

// A collapsed card gives a line too long for the width a few rows, not
// the screen: `cat` of a minified file is one line of thousands of
// characters. Expanded, the line is whole; running, the live rows are
// bounded alike.
func TestCollapsedCardCutsALongLineToItsPreview(t *testing.T) {
	minified := strings.Repeat("var a=1;", 600)
	rows := func(mode Mode, output string, done bool) []string {
		tool := Tool{Name: "bash", Call: bashCall(), Done: done, Result: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Output: output, ExitCode: intp(0)}}}
		var plain []string
		for _, l := range Render(tool, 60, mode, theme.New(false)) {
			plain = append(plain, ansi.Strip(l))
		}
		return plain
	}
	lineRows := func(rows []string) (n int) {
		for _, r := range rows {
			if strings.Contains(r, "a=1;") {
				n++
			}
		}
		return n
	}
	alone := rows(Collapsed, minified+"\n", true)
	if n := lineRows(alone); n > PreviewRows+1 {
		t.Errorf("want one long line in a preview's rows, got %d:\n%s", n, strings.Join(alone, "\n"))
	}
	if last := alone[len(alone)-1]; last != "  … long lines cut (ctrl+o to expand)" {
		t.Errorf("want the last row to say the line was cut, got %q", last)
	}
	if !strings.HasSuffix(alone[len(alone)-2], "…") {
		t.Errorf("want the cut line to end in …, got %q", alone[len(alone)-2])
	}
	among := rows(Collapsed, numberedLines(2)+minified+"\n"+numberedLines(20), true)
	if n := lineRows(among); n != 2 {
		t.Errorf("want the long line cut to two rows among others, got %d:\n%s", n, strings.Join(among, "\n"))
	}
	if got := strings.Join(rows(Expanded, minified+"\n", true), ""); strings.Count(got, "a=1;") != 600 {
		t.Errorf("want the expanded card to hold the whole line")
	}
	if n := lineRows(rows(Collapsed, numberedLines(2)+minified, false)); n > LiveRows {
		t.Errorf("want the running card's live rows bounded, got %d", n)
	}
	short := rows(Collapsed, numberedLines(20), true)
	if strings.Contains(strings.Join(short, "\n"), "long lines cut") {
		t.Errorf("want no cut notice where no line was cut")
	}
}

func TestHeaderShowsStatusGlyphAndColour(t *testing.T) {
	th := theme.New(true)
	tools := sampleTools()
	tests := []struct {
		tool      Tool
		glyph, fg string
	}{
		{tools["bash_pending"], "○ Bash(go test ./...)  Run the tests", "33"},
		{tools["bash_done"], "✓ Bash(go test ./...)  Run the tests", "32"},
		{tools["bash_failed"], "✗ Bash(go test ./...)  Run the tests", "31"},
		{tools["error_no_card"], "✗ Read missing.go", "31"},
	}
	for _, tt := range tests {
		head := Render(tt.tool, 60, Collapsed, th)[0]
		if ansi.Strip(head) != tt.glyph {
			t.Errorf("want header %q, got %q", tt.glyph, ansi.Strip(head))
		}
		if !strings.Contains(palette.StyleDump(head), "‹"+tt.fg+"›") {
			t.Errorf("want header colour %s, got %q", tt.fg, palette.StyleDump(head))
		}
	}
}

func TestModeCyclesCollapsedExpandedHidden(t *testing.T) {
	if Collapsed.Next() != Expanded || Expanded.Next() != Hidden || Hidden.Next() != Collapsed {
		t.Fatal("want collapsed → expanded → hidden → collapsed")
	}
}

func TestLongRowsWrapBetweenWords(t *testing.T) {
	tool := Tool{Name: "ask_user_question", Call: card.Card{Kind: card.Generic, Title: "Question",
		Body: "Which database should the service use in production on a narrow terminal?"}}
	var rows []string
	for _, l := range Render(tool, 30, Expanded, theme.New(false)) {
		rows = append(rows, strings.TrimRight(ansi.Strip(l), " "))
	}
	got := strings.Join(rows, "\n")
	for _, want := range []string{"  Which database should the\n  service use in production on\n  a narrow terminal?"} {
		if !strings.Contains(got, want) {
			t.Errorf("want the body wrapped between words as %q, got\n%s", want, got)
		}
	}
}

func TestCollapsedDiffNeverFoldsChangedLines(t *testing.T) {
	d := card.FileDiff{Path: "big.go", Added: 40, Removed: 40}
	for i := 1; i <= 40; i++ {
		d.Lines = append(d.Lines, card.DiffLine{Op: card.OpDelete, Text: fmt.Sprintf("old %d", i), Old: i})
	}
	for i := 1; i <= 40; i++ {
		d.Lines = append(d.Lines, card.DiffLine{Op: card.OpAdd, Text: fmt.Sprintf("new %d", i), New: i})
	}
	tool := Tool{Name: "edit", Done: true, Result: &card.Card{Kind: card.Diff, Label: "Edit", Subject: "big.go", Diffs: []card.FileDiff{d}}}
	got := ansi.Strip(strings.Join(Render(tool, 60, Collapsed, theme.New(false)), "\n"))
	for i := 1; i <= 40; i++ {
		for _, want := range []string{fmt.Sprintf("%2d - old %d\n", i, i), fmt.Sprintf("%2d + new %d", i, i)} {
			if !strings.Contains(got, want) {
				t.Fatalf("want changed line %q shown collapsed, got\n%s", want, got)
			}
		}
	}
	if strings.Contains(got, "ctrl+o") {
		t.Errorf("want nothing folded in a diff of one hunk, got\n%s", got)
	}
}

func TestWrappedRowsKeepTheirIndentation(t *testing.T) {
	tool := Tool{Name: "ask_user_question", Done: true, Result: &card.Card{Kind: card.Question, Label: "Question",
		Body: "Which one?\n  1. Yes, fix it — Count a final line without a trailing newline"}}
	var rows []string
	for _, l := range Render(tool, 40, Expanded, theme.New(false)) {
		rows = append(rows, strings.TrimRight(ansi.Strip(l), " "))
	}
	got := strings.Join(rows, "\n")
	if want := "    1. Yes, fix it — Count a final line\n    without a trailing newline"; !strings.Contains(got, want) {
		t.Errorf("want the option's wrapped row under its start, %q, got\n%s", want, got)
	}
}

// A question waiting for its answer shows whole in its overlay; its card
// keeps the question line and leaves the options to the overlay.
func TestPendingQuestionCardLeavesTheOptionsToItsOverlay(t *testing.T) {
	q := card.Card{Kind: card.Question, Label: "Question", Subject: "Scope",
		Body: "Fix CountLines too?\n  1. Yes — Count a final line\n  2. No"}
	pending := ansi.Strip(strings.Join(Render(Tool{Name: "ask_user_question", Call: q}, 60, Collapsed, theme.New(false)), "\n"))
	if !strings.Contains(pending, "Fix CountLines too?") || strings.Contains(pending, "1. Yes") {
		t.Errorf("want the pending card to show the question without its options, got\n%s", pending)
	}
	plan := card.Card{Kind: card.Question, Label: "Plan review", Markdown: true, Body: "# Fix the counter\n\n1. Use `strings.Fields`"}
	if got := ansi.Strip(strings.Join(Render(Tool{Name: "exit_plan_mode", Call: plan}, 60, Collapsed, theme.New(false)), "\n")); !strings.Contains(got, "\n  Fix the counter") || strings.Contains(got, "Fields") {
		t.Errorf("want a pending plan's card to show its title without the # marker, got\n%s", got)
	}
	expanded := ansi.Strip(strings.Join(Render(Tool{Name: "ask_user_question", Call: q}, 60, Expanded, theme.New(false)), "\n"))
	if !strings.Contains(expanded, "1. Yes") {
		t.Errorf("want the options in the expanded card, got\n%s", expanded)
	}
}

// The spill path of a cut output starts a row of its own, so at any width
// it is not split after a notice's words.
func TestCutOutputNamesItsSpillOnARowOfItsOwn(t *testing.T) {
	spill := "/home/ada/.tack/spill/20261201-232855-298d57/bash-1820049480-stdout.log"
	tool := Tool{Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
		Terminal: &card.TerminalView{Output: "199999\n200000\n", ExitCode: intp(0), DroppedLines: 199998, Spill: []string{spill}}}}
	rows := Render(tool, 100, Collapsed, theme.New(false))
	want := "  full output: " + spill
	for _, r := range rows {
		if strings.TrimRight(ansi.Strip(r), " ") == want {
			return
		}
	}
	t.Errorf("want the row %q, got\n%s", want, ansi.Strip(strings.Join(rows, "\n")))
}

// TestProgressBarShowsWhereItEnded: output redrawn with carriage returns
// (curl's meter, a progress bar) shows as a terminal left it, not as
// every state joined by escaped CRs.
func TestProgressBarShowsWhereItEnded(t *testing.T) {
	out := "fetching\n\rprogress  10% [#    ]\rprogress  50% [###  ]\rprogress 100% [#####]\ndone\r\n"
	tool := Tool{Name: "bash", Call: bashCall(), Done: true, Result: &card.Card{Kind: card.Terminal,
		Terminal: &card.TerminalView{Output: out, ExitCode: intp(0)}}}
	got := ansi.Strip(strings.Join(Render(tool, 100, Expanded, theme.New(false)), "\n"))
	want := "  fetching\n  progress 100% [#####]\n  done"
	if !strings.Contains(got, want) || strings.Contains(got, `\x0d`) {
		t.Errorf("want the output as\n%s\ngot\n%s", want, got)
	}
}

// An expanded diff wraps a long line onto rows of its own under its text,
// the number and sign column blank there and the line's colour on every
// row, by display width and never inside a grapheme; collapsed, the line
// is cut to its first row.
func TestExpandedDiffWrapsLongLinesUnderTheirText(t *testing.T) {
	th := theme.New(true)
	tool := sampleTools()["edit_wrapped"]
	const width = 40
	gutter := len(indent) + len("10 + ")
	rows := Render(tool, width, Expanded, th)[1:]
	var lines [][]string // display rows of each diff line
	for _, r := range rows {
		plain := ansi.Strip(r)
		if w := ansi.StringWidth(r); w > width {
			t.Errorf("want rows at most %d wide, got %d: %q", width, w, plain)
		}
		if strings.TrimSpace(plain[:gutter]) != "" {
			lines = append(lines, nil)
		} else if !strings.Contains(palette.StyleDump(r), "‹") {
			t.Errorf("want a continuation row in its line's style, got %q", palette.StyleDump(r))
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], r)
	}
	want := wrappedDiffLines()
	if len(lines) != len(want) {
		t.Fatalf("want %d diff lines, got %d:\n%s", len(want), len(lines), ansi.Strip(strings.Join(rows, "\n")))
	}
	for i, l := range want {
		if len(lines[i]) < 2 {
			t.Errorf("want line %d wrapped onto more rows, got %q", i, ansi.Strip(strings.Join(lines[i], "\n")))
		}
		var text strings.Builder
		for _, r := range lines[i] {
			text.WriteString(ansi.Strip(r)[gutter:])
		}
		if got, want := text.String(), strings.ReplaceAll(l.Text, "\t", "    "); got != want {
			t.Errorf("want line %d's rows to join into its text with tabs expanded\nwant %q\ngot  %q", i, want, got)
		}
	}
	const family = "👩‍👩‍👧"
	for w := 20; w <= 60; w++ {
		for _, r := range Render(tool, w, Expanded, th) {
			plain := ansi.Strip(r)
			if ansi.StringWidth(r) > w || strings.Contains(plain, "👩") && !strings.Contains(plain, family) {
				t.Errorf("at width %d: want rows at most that wide and the family emoji whole, got %q", w, plain)
			}
		}
	}
	collapsed := Render(tool, width, Collapsed, th)
	if len(collapsed) != 1+len(want) || !strings.HasSuffix(ansi.Strip(collapsed[1]), "…") {
		t.Errorf("want a collapsed card to cut each line to one row, got\n%s", ansi.Strip(strings.Join(collapsed, "\n")))
	}
}
