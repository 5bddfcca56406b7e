package termtext

import "testing"

// TestOverprintLeavesLinesAsATerminalWould: the differential test against
// tmux is backend/tools/bash's TestEscapeFilterAgreesWithTmux.
func TestOverprintLeavesLinesAsATerminalWould(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\ntext\n", "plain\ntext\n"},
		{"crlf\r\nlines\r\n", "crlf\r\nlines\r\n"},
		{"10%\r50%\r100%\n", "100%\n"},
		{"\rstep 1\rstep 2", "step 2"},
		{"downloading\rXY", "XYwnloading"},
		{"a\rb\r\nc", "b\r\nc"},
		{"中文字\r英", "英文字"},
		{"trailing\r", "trailing"},
		{"10%\r100%\r", "100%"},
		// Erase in line, as spinners and coloured spans use it.
		{"long status text\r\x1b[Kshort\n", "short\n"},
		{"long status text\x1b[2K\rshort", "short"},
		{"⠋ building\r\x1b[0K⠙ building\r\x1b[0Kdone", "done"},
		{"abc\x1b[2Kxy", "   xy"},
		{"abcdef\x1b[1K", ""},
		{"keep \x1b[31mcolour\n", "keep \x1b[31mcolour\n"},
	} {
		if got := Overprint(c.in); got != c.want {
			t.Errorf("Overprint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
