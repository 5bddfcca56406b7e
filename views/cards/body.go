package cards

import (
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/termtext"
	"github.com/tack-agent/tack/views/markdown"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// body chooses the rows by card kind; kinds without special fields (read,
// search, question, generic) show their body text faint. Collapsed, a
// settled card with a summary shows the summary alone, and a card waiting
// for approval its header alone.
func body(t Tool, c card.Card, mode Mode, width int, th theme.Theme) []row {
	if mode == Collapsed && t.Waiting {
		// The approval dialog shows the command or the diff; one copy
		// is enough.
		return nil
	}
	if mode == Collapsed && t.Done && c.Summary != "" && !t.failed(c) {
		return []row{{text: textfmt.SanitizeLine(c.Summary), style: th.Dim}}
	}
	var rows []row
	switch {
	case c.Kind == card.Question && !t.Done && mode == Collapsed:
		// Its overlay shows the question whole while it waits; the card
		// keeps the question's first line.
		first, _, _ := strings.Cut(strings.TrimSpace(c.Body), "\n")
		if c.Markdown {
			first = strings.TrimSpace(strings.TrimLeft(first, "#"))
		}
		rows = textRows(first, th.Dim)
	case c.Terminal != nil:
		rows = terminalBody(t, *c.Terminal, mode, width, th)
	case len(c.Diffs) > 0:
		rows = diffBody(c.Diffs, mode, th)
	case len(c.Todos) > 0:
		rows = todoRows(c.Todos, th)
	case c.Markdown && c.Body != "":
		for _, l := range markdown.New(markdown.Options{Colour: th.Colour, Background: th.Background}).Render(c.Body, width) {
			rows = append(rows, row{text: l, styled: true})
		}
		rows = collapse(rows, mode, width, th)
	default:
		rows = collapse(textRows(c.Body, th.Dim), mode, width, th)
		if c.Truncated {
			rows = append(rows, row{text: "… more results left out", style: th.Dim, clip: true})
		}
	}
	if t.Done && t.Result == nil && t.Output != "" {
		style := th.Dim
		if t.Failed {
			style = th.Error
		}
		rows = append(rows, collapse(textRows(t.Output, style), mode, width, th)...)
	}
	return rows
}

// collapse folds content rows in collapsed mode.
func collapse(rows []row, mode Mode, width int, th theme.Theme) []row {
	if mode == Collapsed {
		return fold(rows, width, th)
	}
	return rows
}

// terminalBody is a command's card body: the rest of a command longer than
// the header's line, the workdir the model chose, then the output — its
// last lines while it runs, head and tail once it ended — and how it
// ended when it did not succeed.
func terminalBody(t Tool, v card.TerminalView, mode Mode, width int, th theme.Theme) []row {
	var rows []row
	lines := strings.Split(strings.TrimSpace(textfmt.Sanitize(v.Command)), "\n")
	if len(lines) > 1 {
		for _, l := range lines {
			rows = append(rows, row{text: "$ " + l, style: th.Dim})
		}
		rows = collapse(rows, mode, width, th)
	}
	if cwd := textfmt.SanitizeLine(v.Cwd); cwd != "" {
		rows = append(rows, row{text: "in " + cwd + sandboxNote(v), style: th.Dim, clip: true})
	} else if sb := sandboxNote(v); sb != "" {
		rows = append(rows, row{text: strings.TrimPrefix(sb, " · "), style: th.Dim, clip: true})
	}
	if v.DroppedLines > 0 {
		rows = append(rows, row{text: droppedNotice(v), style: th.Warning})
		if len(v.Spill) > 0 {
			rows = append(rows, row{text: "full output: " + textfmt.SanitizeLine(strings.Join(v.Spill, ", ")), style: th.Dim})
		}
	}
	output := textRows(termtext.Overprint(v.Output), th.Dim)
	switch {
	case !t.Done:
		if n := len(output) - LiveRows; n > 0 {
			output = append([]row{{text: "… +" + lineCount(n+v.DroppedLines), style: th.Dim, clip: true}},
				output[n:]...)
		}
		limitWraps(output, width, LiveRows)
		rows = append(rows, output...)
		if t.Elapsed > 0 {
			rows = append(rows, row{text: "running " + textfmt.Seconds(t.Elapsed), style: th.Dim, clip: true})
		}
		return rows
	case len(output) == 0 && v.Background == "" && t.Result != nil:
		rows = append(rows, row{text: "(no output)", style: th.Dim})
	default:
		rows = append(rows, collapse(output, mode, width, th)...)
	}
	if r := textfmt.SanitizeLine(v.Refusal); r != "" {
		rows = append(rows, row{text: r, style: th.Warning})
	}
	if end, failed := ending(v); end != "" {
		style := th.Dim
		if failed {
			style = th.Error
		}
		rows = append(rows, row{text: end, style: style, clip: true})
	}
	return rows
}

// sandboxNote names how the command was confined when that was not the
// default sandbox (" · no sandbox"), or is "".
func sandboxNote(v card.TerminalView) string {
	if sb := textfmt.SanitizeLine(v.Sandbox); sb != "" {
		return " · " + sb
	}
	return ""
}

// droppedNotice says that the start of a long output was not kept and how
// long it was; where all of it is follows on a row of its own, so a long
// path starts at the margin, whole to copy.
func droppedNotice(v card.TerminalView) string {
	total := v.DroppedLines + strings.Count(strings.TrimRight(v.Output, "\n"), "\n") + 1
	return "output cut: " + textfmt.Thousands(total) + " lines, the first " + textfmt.Thousands(v.DroppedLines) + " not kept"
}

// ending says how a command ended when that is worth a row: a non-zero
// exit, a signal, a timeout, the user's cancel or a background start.
func ending(v card.TerminalView) (string, bool) {
	switch {
	case v.TimedOut:
		return "timed out", true
	case v.Interrupted:
		return "interrupted", true
	case v.Signal != "":
		return "killed by " + textfmt.SanitizeLine(v.Signal), true
	case v.ExitCode != nil && *v.ExitCode != 0:
		return "exit " + strconv.Itoa(*v.ExitCode), true
	case v.Background != "":
		return "running in the background as " + textfmt.SanitizeLine(v.Background), false
	}
	return "", false
}

// todoRows draws a plan compactly: ✓ done, ● in progress, ○ pending.
func todoRows(todos []card.TodoItem, th theme.Theme) []row {
	rows := make([]row, 0, len(todos))
	for _, td := range todos {
		glyph, style := "○ ", th.Dim
		switch td.Status {
		case card.TodoCompleted:
			glyph, style = "✓ ", th.Success
		case card.TodoInProgress:
			glyph, style = "● ", th.Active
		}
		rows = append(rows, row{text: glyph + textfmt.SanitizeLine(td.Content), style: style})
	}
	return rows
}
