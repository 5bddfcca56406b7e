package frame

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func TestBoxIsExactlyItsWidth(t *testing.T) {
	for _, w := range []int{5, 6, 20, 80} {
		rows := Box(th, "A long title that does not fit", []string{"short", strings.Repeat("wide ", 30)}, w, 10)
		if len(rows) != 4 {
			t.Fatalf("width %d: want 4 rows, got %d", w, len(rows))
		}
		for i, r := range rows {
			if got := ansi.StringWidth(r); got != w {
				t.Errorf("width %d row %d: want %d cells, got %d: %q", w, i, w, got, ansi.Strip(r))
			}
		}
	}
}

func TestBoxKeepsToItsHeight(t *testing.T) {
	if rows := Box(th, "t", make([]string, 20), 30, 6); len(rows) != 6 {
		t.Errorf("want 6 rows, got %d", len(rows))
	}
}

func TestScrollMarksHiddenRows(t *testing.T) {
	rows := make([]string, 10)
	for i := range rows {
		rows[i] = string(rune('a' + i))
	}
	tests := []struct {
		top, avail int
		want       string
		usedTop    int
		page       int
	}{
		{0, 20, "a b c d e f g h i j", 0, 10},
		{0, 5, "a b c d ↓ 6 more", 0, 4},
		{3, 5, "↑ 3 more d e f ↓ 4 more", 3, 3},
		{99, 5, "↑ 6 more g h i j", 6, 4},
		{4, 2, "e f", 4, 2},
	}
	for _, tt := range tests {
		shown, top, page := Scroll(th, rows, tt.top, tt.avail)
		got := ansi.Strip(strings.Join(shown, " "))
		if got != tt.want || top != tt.usedTop || page != tt.page {
			t.Errorf("Scroll(top %d, avail %d): want %q top %d page %d, got %q top %d page %d",
				tt.top, tt.avail, tt.want, tt.usedTop, tt.page, got, top, page)
		}
	}
}

func TestWindowFollowsTheCursor(t *testing.T) {
	tests := []struct{ n, cursor, size, top, want int }{
		{5, 4, 10, 0, 0}, {20, 15, 10, 0, 6}, {20, 3, 10, 6, 3}, {20, 8, 10, 6, 6}, {20, 19, 10, 15, 10},
	}
	for _, tt := range tests {
		if got := Window(tt.n, tt.cursor, tt.size, tt.top); got != tt.want {
			t.Errorf("Window(%d, %d, %d, %d): want %d, got %d", tt.n, tt.cursor, tt.size, tt.top, tt.want, got)
		}
	}
}

func TestJoinNeverExceedsItsSize(t *testing.T) {
	out := Join([]string{"abcdef", "g", "h"}, 3, 2)
	if got := ansi.Strip(out); got != "ab…\ng" {
		t.Errorf("want %q, got %q", "ab…\ng", got)
	}
}

func TestWithPositionShowsWhereTheCursorIsOnlyWhenTheListScrolls(t *testing.T) {
	tests := []struct {
		name                  string
		width, cursor, n, all int
		want                  string
	}{
		{"everything shown", 20, 0, 3, 3, "Filter: x"},
		{"scrolling list", 20, 4, 12, 5, "Filter: x       5/12"},
		{"row cut for the position", 12, 0, 9, 2, "Filter:… 1/9"},
		{"no room", 4, 0, 9, 2, "Filter: x"},
	}
	for _, tt := range tests {
		got := ansi.Strip(WithPosition(th, "Filter: x", tt.width, tt.cursor, tt.n, tt.all))
		if got != tt.want {
			t.Errorf("%s: want %q, got %q", tt.name, tt.want, got)
		}
	}
}

// A web address on a line of its own fills its rows, where a break at a
// hyphen ended one early (an MCP server's sign-in page: "client_id=tack-"
// then "cli&scope=…"), and each row links to the whole address, so that
// a terminal that knows OSC 8 links opens it from any row.
func TestWrapLinksAWebAddressOnEveryRow(t *testing.T) {
	addr := "https://bank.example.com/oauth?client_id=tack-cli&scope=read"
	rows := Wrap("Open this address?\n"+addr+"\nor decline", 20)
	var plain []string
	for _, r := range rows {
		plain = append(plain, ansi.Strip(r))
	}
	want := []string{"Open this address?", "https://bank.example", ".com/oauth?client_id", "=tack-cli&scope=read", "or decline"}
	if !slices.Equal(plain, want) {
		t.Fatalf("want rows %q, got %q", want, plain)
	}
	for _, r := range rows[1:4] {
		if !strings.HasPrefix(r, ansi.SetHyperlink(addr)) || !strings.HasSuffix(r, ansi.ResetHyperlink()) {
			t.Errorf("want the row linked to %s, got %q", addr, r)
		}
	}
	for _, r := range []string{rows[0], rows[4]} {
		if strings.Contains(r, "\x1b") {
			t.Errorf("want text that is not an address as it was, got %q", r)
		}
	}
}
