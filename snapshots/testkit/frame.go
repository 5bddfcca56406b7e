package testkit

import (
	"fmt"
	"strings"
)

// FrameClear checks a screen's text (one line per row) for a floating
// overlay that hides what is behind it: it finds the first rounded frame
// (╭ … ╮ down to ╰ … ╯) and reports an error when any cell beside the
// frame on its rows, or any cell of the rows just above and below it,
// holds text. Rows are compared as runes, so the screen must hold only
// single-width characters around the frame.
func FrameClear(screen string) error {
	rows := strings.Split(screen, "\n")
	top, left, right := -1, -1, -1
	for i, r := range rows {
		rs := []rune(r)
		for j, c := range rs {
			if c == '╭' {
				if k := indexRune(rs[j:], '╮'); k > 0 {
					top, left, right = i, j, j+k
					break
				}
			}
		}
		if top >= 0 {
			break
		}
	}
	if top < 0 {
		return fmt.Errorf("no rounded frame on the screen:\n%s", screen)
	}
	bottom := -1
	for i := top + 1; i < len(rows) && bottom < 0; i++ {
		if rs := []rune(rows[i]); len(rs) > left && rs[left] == '╰' {
			bottom = i
		}
	}
	if bottom < 0 {
		return fmt.Errorf("the frame opened on row %d never closes:\n%s", top+1, screen)
	}
	for i := max(top-1, 0); i <= min(bottom+1, len(rows)-1); i++ {
		rs := []rune(rows[i])
		for j, c := range rs {
			inFrame := i >= top && i <= bottom && j >= left && j <= right
			if !inFrame && c != ' ' {
				return fmt.Errorf("row %d, column %d shows %q beside the frame (rows %d–%d, columns %d–%d):\n%s",
					i+1, j+1, string(rs[j:]), top+1, bottom+1, left+1, right+1, screen)
			}
		}
	}
	return nil
}

func indexRune(rs []rune, r rune) int {
	for i, c := range rs {
		if c == r {
			return i
		}
	}
	return -1
}
