package textfmt

import "testing"

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
	} {
		if got := Overprint(c.in); got != c.want {
			t.Errorf("Overprint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
