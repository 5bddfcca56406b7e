package statusrow

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
)

// Custom is a row a user's status line command printed, made safe to
// draw at width: its SGR sequences (colours, bold) are kept when colour
// is on and every other escape sequence is dropped, so the command can
// move neither the cursor nor the title; controls show as visible
// escapes and tabs as spaces to the next stop of four columns; a row wider than width is cut with "…"; and styles end with
// the row.
func Custom(row string, width int, colour bool) string {
	var b strings.Builder
	styled := false
	var state byte
	for len(row) > 0 {
		seq, _, n, next := ansi.DecodeSequence(row, state, nil)
		state, row = next, row[n:]
		switch {
		case isSGR(seq):
			if colour {
				b.WriteString(seq)
				styled = true
			}
		case seq[0] == ansi.ESC || seq[0] == 0x9b || seq[0] == 0x9d:
			// another sequence, or a C1 introducer: the terminal is tack's
		case seq == "\t":
			b.WriteString("    "[ansi.StringWidth(b.String())%4:])
		default:
			b.WriteString(textfmt.SanitizeLine(seq))
		}
	}
	out := ansi.Truncate(b.String(), width, "…")
	if styled {
		out += "\x1b[m"
	}
	return out
}

// isSGR reports whether seq is a whole CSI … m sequence with only
// parameters between: "\x1b[1;38;5;208m".
func isSGR(seq string) bool {
	if len(seq) < 3 || !strings.HasPrefix(seq, "\x1b[") || seq[len(seq)-1] != 'm' {
		return false
	}
	return strings.Trim(seq[2:len(seq)-1], "0123456789;:") == ""
}
