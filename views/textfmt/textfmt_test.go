package textfmt

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestSanitizeShowsControlsAsHexEscapes(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text unchanged", "hello, 世界", "hello, 世界"},
		{"newline kept", "a\nb", "a\nb"},
		{"escape sequence", "\x1b]2;pwned\x07", `\x1b]2;pwned\x07`},
		{"csi", "\x1b[31mred", `\x1b[31mred`},
		{"del", "a\x7fb", `a\x7fb`},
		{"nul", "a\x00b", `a\x00b`},
		{"c1 csi as code point", "a\u009b31m", `a\x9b31m`},
		{"invalid utf8 byte", "a\xffb", `a\xffb`},
		{"lone carriage return", "50%\r100%", `50%\x0d100%`},
		{"crlf becomes lf", "a\r\nb", "a\nb"},
		{"tab to next stop", "a\tb", "a   b"},
		{"tab at stop", "abcd\tb", "abcd    b"},
		{"tab after newline", "x\n\ty", "x\n    y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q): want %q, got %q", tt.in, tt.want, got)
			}
		})
	}
}

func TestSanitizeLineEscapesLineBreaks(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\nb", `a\x0ab`},
		{"a\r\nb", `a\x0d\x0ab`},
		{"file\x1b[2J.go", `file\x1b[2J.go`},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := SanitizeLine(tt.in); got != tt.want {
			t.Errorf("SanitizeLine(%q): want %q, got %q", tt.in, tt.want, got)
		}
	}
}

func FuzzSanitizeEmitsNoControls(f *testing.F) {
	for _, s := range []string{"", "a\x1b[31m", "\x9b\xc2\x9b", "\t\r\n", "\xff\xfe", "世界\x07"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Sanitize(s), SanitizeLine(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("want valid UTF-8 for %q, got %q", s, out)
			}
			for i := 0; i < len(out); i++ {
				if c := out[i]; (c < 0x20 && c != '\n') || c == 0x7f {
					t.Fatalf("want no control bytes for %q, got %q", s, out)
				}
			}
			for _, r := range out {
				if r >= 0x80 && r <= 0x9f {
					t.Fatalf("want no C1 controls for %q, got %q", s, out)
				}
			}
		}
		if strings.Contains(SanitizeLine(s), "\n") {
			t.Fatalf("want SanitizeLine(%q) on one row, got a newline", s)
		}
	})
}

func TestCompactTokenFormats(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1.0k"}, {1250, "1.3k"}, {9949, "9.9k"}, {9999, "10k"},
		{42_000, "42k"}, {999_499, "999k"}, {999_999, "1.0m"}, {1_234_567, "1.2m"}, {123_456_789, "123m"},
	}
	for _, tt := range tests {
		if got := Compact(tt.n); got != tt.want {
			t.Errorf("Compact(%d): want %q, got %q", tt.n, tt.want, got)
		}
	}
}

func TestThousandsSeparatesGroups(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1250, "1,250"}, {1234567, "1,234,567"}, {-1250, "-1,250"}}
	for _, tt := range tests {
		if got := Thousands(tt.n); got != tt.want {
			t.Errorf("Thousands(%d): want %q, got %q", tt.n, tt.want, got)
		}
	}
}

func TestDurationFormats(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0.0s"}, {400 * time.Millisecond, "0.4s"}, {time.Second, "1.0s"}, {3100 * time.Millisecond, "3.1s"},
		{59 * time.Second, "59.0s"}, {123 * time.Second, "2m03s"}, {3725 * time.Second, "1h02m"}, {-time.Second, "0.0s"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v): want %q, got %q", tt.d, tt.want, got)
		}
	}
}

func TestDelayUsesMillisecondsBelowASecond(t *testing.T) {
	if got := Delay(500 * time.Millisecond); got != "500ms" {
		t.Errorf("want 500ms, got %q", got)
	}
	if got := Delay(2 * time.Second); got != "2.0s" {
		t.Errorf("want 2.0s, got %q", got)
	}
}

func TestCostFormats(t *testing.T) {
	tests := []struct {
		usd  float64
		want string
	}{{0, "$0.0000"}, {0.0123, "$0.0123"}, {1.234, "$1.23"}, {12.5, "$12.50"}}
	for _, tt := range tests {
		if got := Cost(tt.usd); got != tt.want {
			t.Errorf("Cost(%v): want %q, got %q", tt.usd, tt.want, got)
		}
	}
}

func TestHomeRelAbbreviatesHome(t *testing.T) {
	tests := []struct{ path, home, want string }{
		{"/home/u/proj", "/home/u", "~/proj"},
		{"/home/u", "/home/u/", "~"},
		{"/home/user2/x", "/home/u", "/home/user2/x"},
		{"/tmp", "", "/tmp"},
	}
	for _, tt := range tests {
		if got := HomeRel(tt.path, tt.home); got != tt.want {
			t.Errorf("HomeRel(%q, %q): want %q, got %q", tt.path, tt.home, tt.want, got)
		}
	}
}
