// Package termtext turns a program's output into the text a terminal
// shows of it, for the model and for every front door alike.
package termtext

import (
	"strings"
	"unicode/utf8"
)

// Overprint gives each line of s as a terminal leaves it after the line's
// carriage returns and erases: the text after a lone CR is written over
// the line from its first column, and an erase-in-line sequence (CSI K,
// 0K, 1K or 2K) blanks the line's cells after, before or around the
// cursor, so a progress bar or a spinner redrawn in place reads as its
// last state rather than as every state in a row. A CR that ends a CRLF
// pair is kept for a display's sanitising to drop; one that ends s moves
// no text and goes. Columns are counted in runes.
func Overprint(s string) string {
	if !strings.ContainsAny(s, "\r\x1b") {
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
	if !strings.Contains(body, "\r") && !strings.Contains(body, eraseStart) {
		return l
	}
	var cells []rune
	col, erased := 0, false
	for i := 0; i < len(body); {
		if mode, n := eraseInLine(body[i:]); n > 0 {
			cells, erased = erase(cells, col, mode), true
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(body[i:])
		i += size
		if r == '\r' {
			col = 0
			continue
		}
		for len(cells) < col {
			cells = append(cells, ' ')
		}
		if col < len(cells) {
			cells[col] = r
		} else {
			cells = append(cells, r)
		}
		col++
	}
	out := string(cells)
	if erased {
		out = strings.TrimRight(out, " ")
	}
	if crlf {
		return out + "\r"
	}
	return out
}

// eraseStart begins every erase-in-line sequence.
const eraseStart = "\x1b["

// eraseInLine reads an erase-in-line sequence at the start of s: its mode
// (0 after the cursor, 1 before it, 2 the whole line) and length, or a
// length of 0 where s starts with none.
func eraseInLine(s string) (mode byte, n int) {
	switch {
	case strings.HasPrefix(s, "\x1b[K"):
		return '0', 3
	case len(s) >= 4 && strings.HasPrefix(s, eraseStart) && s[3] == 'K' && s[2] >= '0' && s[2] <= '2':
		return s[2], 4
	}
	return 0, 0
}

// erase blanks cells as the erase-in-line mode asks with the cursor at col.
func erase(cells []rune, col int, mode byte) []rune {
	switch mode {
	case '0':
		return cells[:min(col, len(cells))]
	case '1':
		for i := 0; i <= col && i < len(cells); i++ {
			cells[i] = ' '
		}
	case '2':
		for i := range cells {
			cells[i] = ' '
		}
	}
	return cells
}
