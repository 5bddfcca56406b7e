package cards

import (
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// DiffRows is the most rows a collapsed diff takes before its later hunks
// give way to a line that counts them; its first hunk always shows whole.
const DiffRows = 24

// diffSize is the header's note on a diff: `+2 -1`, the number of files
// when there are several, and whether it is approximate or not applied.
func diffSize(diffs []card.FileDiff, failed bool) string {
	added, removed, approximate := 0, 0, false
	for _, d := range diffs {
		added += d.Added
		removed += d.Removed
		approximate = approximate || d.Approximate
	}
	s := "+" + strconv.Itoa(added) + " -" + strconv.Itoa(removed)
	if len(diffs) > 1 {
		s += " · " + strconv.Itoa(len(diffs)) + " files"
	}
	if approximate {
		s += " · approximate"
	}
	if failed {
		s += " · not applied"
	}
	return s
}

// diffBody draws each file's change: a bold path when the card shows
// several files, then its lines with their numbers. Changed lines never
// fold. Collapsed, a diff longer than DiffRows shows its first hunks and
// says how many more there are, a new file shows its head, and a line
// longer than the width is cut; expanded, it wraps.
func diffBody(diffs []card.FileDiff, mode Mode, th theme.Theme) []row {
	var rows []row
	budget := DiffRows
	clip := mode == Collapsed
	for _, d := range diffs {
		if len(diffs) > 1 {
			path := textfmt.SanitizeLine(d.Path)
			if d.Created {
				path += " (new)"
			}
			rows = append(rows, row{text: path, style: th.Bold, clip: true})
		}
		width := numberWidth(d.Lines)
		hunks := splitHunks(d.Lines)
		for i, h := range hunks {
			if mode == Collapsed && i > 0 && len(h.lines) > budget {
				rows = append(rows, row{text: moreHunks(hunks[i:]), style: th.Dim, clip: true})
				break
			}
			if h.gap != "" {
				rows = append(rows, row{text: strings.Repeat(" ", width) + " ⋯ " + textfmt.SanitizeLine(h.gap), style: th.DiffContext, clip: true})
			}
			lines := h.lines
			if mode == Collapsed && (d.Created || d.Approximate) && len(lines) > budget {
				rows = append(rows, diffRows(lines[:budget], width, clip, th)...)
				rows = append(rows, row{text: "… +" + textfmt.Thousands(len(lines)-budget) + " lines (ctrl+o to expand)", style: th.Dim, clip: true})
				budget = 0
				continue
			}
			rows = append(rows, diffRows(lines, width, clip, th)...)
			budget -= len(lines)
		}
	}
	return rows
}

// hunk is a run of diff lines and the gap before it.
type hunk struct {
	gap   string // what the gap line before the hunk says; "" for the first
	lines []card.DiffLine
}

func splitHunks(lines []card.DiffLine) []hunk {
	var out []hunk
	cur := hunk{}
	for _, l := range lines {
		if l.Op == card.OpGap {
			if len(cur.lines) > 0 || cur.gap != "" {
				out = append(out, cur)
			}
			cur = hunk{gap: l.Text}
			if cur.gap == "" {
				cur.gap = "unchanged lines"
			}
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	if len(cur.lines) > 0 || cur.gap != "" {
		out = append(out, cur)
	}
	return out
}

// moreHunks counts the hunks a collapsed diff leaves out and their lines.
func moreHunks(hs []hunk) string {
	added, removed := 0, 0
	for _, h := range hs {
		for _, l := range h.lines {
			switch l.Op {
			case card.OpAdd:
				added++
			case card.OpDelete:
				removed++
			}
		}
	}
	n := "1 more hunk"
	if len(hs) != 1 {
		n = strconv.Itoa(len(hs)) + " more hunks"
	}
	return "… " + n + " (+" + strconv.Itoa(added) + " -" + strconv.Itoa(removed) + ", ctrl+o to expand)"
}

// numberWidth is the width of the widest line number in lines; 0 when the
// diff has none.
func numberWidth(lines []card.DiffLine) int {
	w := 0
	for _, l := range lines {
		w = max(w, len(strconv.Itoa(max(l.Old, l.New))))
	}
	if w == 1 && !numbered(lines) {
		return 0
	}
	return w
}

func numbered(lines []card.DiffLine) bool {
	for _, l := range lines {
		if l.Old > 0 || l.New > 0 {
			return true
		}
	}
	return false
}

// diffRows draws lines as `  12 - text`: the line number (its new number,
// its old one for a removed line), the marker and the text, the marker
// and the text green for an added line, red for a removed one. A line
// too long for the width is cut when clip is set (the collapsed preview)
// and wraps under its text otherwise.
func diffRows(lines []card.DiffLine, width int, clip bool, th theme.Theme) []row {
	rows := make([]row, 0, len(lines))
	for _, l := range lines {
		n := l.New
		style, marker := th.DiffContext, " "
		switch l.Op {
		case card.OpAdd:
			style, marker = th.DiffAdd, "+"
		case card.OpDelete:
			style, marker, n = th.DiffDel, "-", l.Old
		}
		num := ""
		if width > 0 {
			num = strconv.Itoa(n)
			if n == 0 {
				num = ""
			}
			num = th.Dim.Render(strings.Repeat(" ", width-len(num))+num) + " "
		}
		text := textfmt.SanitizeLine(strings.ReplaceAll(l.Text, "\t", "    "))
		rows = append(rows, row{text: text, style: style, gutter: gutter{number: num, sign: marker + " "}, clip: clip})
	}
	return rows
}
