package textfmt

import "strings"

// Overprint gives each line of s as a terminal leaves it after the line's
// carriage returns: the text after a lone CR is written over the line from
// its first column, so a progress bar redrawn in place reads as its last
// state rather than as every state in a row. A CR that ends a CRLF pair is
// kept for Sanitize to drop; one that ends s moves no text and goes.
// Columns are counted in runes.
func Overprint(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	lines := strings.Split(s, "\n")
	last := len(lines) - 1
	lines[last] = strings.TrimRight(lines[last], "\r")
	for i, l := range lines {
		lines[i] = overprintLine(l)
	}
	return strings.Join(lines, "\n")
}

func overprintLine(l string) string {
	body, crlf := strings.CutSuffix(l, "\r")
	if !strings.Contains(body, "\r") {
		return l
	}
	var cells []rune
	for _, part := range strings.Split(body, "\r") {
		for col, r := range []rune(part) {
			if col < len(cells) {
				cells[col] = r
			} else {
				cells = append(cells, r)
			}
		}
	}
	if crlf {
		return string(cells) + "\r"
	}
	return string(cells)
}
