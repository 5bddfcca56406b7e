package cards

import (
	"charm.land/lipgloss/v2"

	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// body chooses the rows by card kind; kinds without special fields (read,
// search, question, generic) show their body text faint.
func body(t Tool, c card.Card, th theme.Theme) sections {
	var s sections
	switch {
	case c.Terminal != nil:
		s = terminalBody(*c.Terminal, th)
	case len(c.Diffs) > 0:
		s = diffBody(c.Diffs, t.Done && t.Failed, th)
	case len(c.Todos) > 0:
		s = sections{content: todoRows(c.Todos, th)}
	default:
		s = sections{content: textRows(c.Body, th.Dim)}
		if c.Truncated {
			s.after = append(s.after, row{text: "… more results left out", style: th.Dim, clip: true})
		}
	}
	if t.Done && t.Result == nil && t.Output != "" {
		style := th.Dim
		if t.Failed {
			style = th.Error
		}
		s.content = append(s.content, textRows(t.Output, style)...)
	}
	return s
}

func terminalBody(v card.TerminalView, th theme.Theme) sections {
	var s sections
	for i, l := range strings.Split(strings.TrimRight(textfmt.Sanitize(v.Command), "\n"), "\n") {
		prefix := "  "
		if i == 0 {
			prefix = "$ "
			s.titleShown = textfmt.SanitizeLine(v.Command)
		}
		s.before = append(s.before, row{text: prefix + l, style: th.Dim})
	}
	if cwd := textfmt.SanitizeLine(v.Cwd); cwd != "" {
		s.before = append(s.before, row{text: cwd, style: th.Dim, clip: true})
	}
	s.content = textRows(v.Output, th.Dim)
	if pill, style := exitPill(v, th); pill != "" {
		s.after = append(s.after, row{text: pill, style: style, clip: true})
	}
	return s
}

// exitPill reports how a command ended from the structured fields.
func exitPill(v card.TerminalView, th theme.Theme) (string, lipgloss.Style) {
	switch {
	case v.TimedOut:
		return "[timed out]", th.Error
	case v.Signal != "":
		return "[signal " + textfmt.SanitizeLine(v.Signal) + "]", th.Error
	case v.ExitCode != nil:
		return "[exit " + strconv.Itoa(*v.ExitCode) + "]", th.Dim
	case v.Background != "":
		return "[background " + textfmt.SanitizeLine(v.Background) + "]", th.Dim
	}
	return "", th.Dim
}

// diffBody draws each file's diff and a `└ +A -R · N files` footer. A
// failed call changed nothing, so its footer says the diff was not applied.
func diffBody(diffs []card.FileDiff, failed bool, th theme.Theme) sections {
	var s sections
	added, removed, approximate := 0, 0, false
	for _, d := range diffs {
		path := textfmt.SanitizeLine(d.Path)
		if d.Created {
			path += " (new)"
		}
		s.content = append(s.content, row{text: path, style: th.Bold, clip: true})
		for _, l := range d.Lines {
			s.content = append(s.content, diffRow(l, th))
		}
		added += d.Added
		removed += d.Removed
		approximate = approximate || d.Approximate
	}
	files := "1 file"
	if len(diffs) != 1 {
		files = strconv.Itoa(len(diffs)) + " files"
	}
	footer := "└ +" + strconv.Itoa(added) + " -" + strconv.Itoa(removed) + " · " + files
	if approximate {
		footer += " · approximate"
	}
	if failed {
		footer += " · not applied"
	}
	s.after = []row{{text: footer, style: th.Dim, clip: true}}
	return s
}

func diffRow(l card.DiffLine, th theme.Theme) row {
	text := textfmt.SanitizeLine(l.Text)
	switch l.Op {
	case card.OpAdd:
		return row{text: "+ " + text, style: th.DiffAdd}
	case card.OpDelete:
		return row{text: "- " + text, style: th.DiffDel}
	case card.OpGap:
		return row{text: "⋯", style: th.DiffContext, clip: true}
	}
	return row{text: "  " + text, style: th.DiffContext}
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
			glyph, style = "● ", th.Warning
		}
		rows = append(rows, row{text: glyph + textfmt.SanitizeLine(td.Content), style: style})
	}
	return rows
}
