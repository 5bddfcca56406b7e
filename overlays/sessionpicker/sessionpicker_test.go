package sessionpicker

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

const cwd = "/home/ada/proj"

// now is when the pickers open: a little after the last session's activity.
var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func listing() Loaded {
	at := func(h int) time.Time { return time.Date(2026, 11, 30, h, 15, 0, 0, time.UTC) }
	here := []session.Summary{
		{ID: "20261130-1100-aaaa", Cwd: cwd, Title: "Fix the flaky lock test", FirstPrompt: "Fix the flaky lock test",
			Branch: "main", Turns: 3, Messages: 12, LastActive: at(11), Size: 48_210},
		{ID: "20261130-0900-bbbb", Cwd: cwd, Title: "Add the resume picker", FirstPrompt: "the picker lists sessions by size; list them like codex does",
			Branch: "feature/resume-picker", Turns: 14, Messages: 61, LastActive: at(9), Size: 912},
		{ID: "20261130-0800-cccc", Cwd: cwd, Turns: 40, Messages: -1, LastActive: at(8), Size: 3 << 20, OpenPID: 4242},
		{ID: "20261130-0700-dddd", Cwd: cwd, Title: "\x1b[31mred title", Messages: -1, LastActive: at(7), Size: 10,
			Err: errors.New("line 1: not a session header")},
		{ID: "20261129-0900-ffff", Cwd: cwd, Title: "Yesterday's work", Turns: 1, Messages: 4, LastActive: at(9).Add(-24 * time.Hour)},
		{ID: "20261101-0900-9999", Cwd: cwd, Title: "Last month", Turns: 25_000, Messages: 100_000, LastActive: at(9).AddDate(0, -1, 0)},
	}
	other := session.Summary{ID: "20261130-1000-eeee", Cwd: "/home/ada/site", Title: "Write the blog post", Messages: 9, LastActive: at(10), Size: 2048}
	all := []session.Summary{here[0], other, here[1], here[2], here[3]}
	return Loaded{Workspace: here, All: all}
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name   string
		loaded bool
		keys   []string
		typed  string
	}{
		{"loading", false, nil, ""},
		{"workspace", true, []string{"down", "down"}, ""},
		{"all", true, []string{"tab"}, ""},
		{"search", true, nil, "RESUME"},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
			if tt.loaded {
				p.Update(listing())
			}
			keys.Press(p.Update, tt.keys...)
			keys.TypeText(p.Update, tt.typed)
			golden.View(t, fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1]), p.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestPickerOpensOnTheFirstSessionItCanResume(t *testing.T) {
	p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
	p.Update(listing())
	if got := keys.Press(p.Update, "enter"); got.Kind != Chosen || got.Session.ID != "20261130-0900-bbbb" {
		t.Errorf("want Enter at once to resume 20261130-0900-bbbb, the first row that is not the current session, got %+v", got)
	}
}

func TestEnterResumesAnEnabledSession(t *testing.T) {
	p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
	p.Update(listing())
	keys.Press(p.Update, "up")
	if got := keys.Press(p.Update, "enter"); got.Kind != None {
		t.Errorf("want the current session refused, got %+v", got)
	}
	for _, k := range []string{"down", "down"} {
		keys.Press(p.Update, k)
		if got := keys.Press(p.Update, "enter"); got.Kind != None && got.Session.ID != "20261130-0900-bbbb" {
			t.Errorf("want only the enabled session chosen, got %+v", got)
		}
	}
	keys.Press(p.Update, "down")
	if got := keys.Press(p.Update, "enter"); got.Kind != None {
		t.Errorf("want the unreadable session refused, got %+v", got)
	}
	keys.Press(p.Update, "up", "up")
	got := keys.Press(p.Update, "enter")
	if got.Kind != Chosen || got.Session.ID != "20261130-0900-bbbb" {
		t.Errorf("want 20261130-0900-bbbb chosen, got %+v", got)
	}
}

func TestDisabledRowsSayWhy(t *testing.T) {
	p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
	p.Update(listing())
	v := ansi.Strip(p.View(120, 30))
	for _, want := range []string{"Fix the flaky lock test (current)", Untitled + " (open in process 4242)",
		`\x1b[31mred title (unreadable: line 1: not a session header)`} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q in\n%s", want, v)
		}
	}
}

func TestRowsSayWhenHowLongAndOnWhichBranch(t *testing.T) {
	p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
	p.Update(listing())
	v := ansi.Strip(p.View(120, 30))
	for _, want := range []string{
		"Modified    Messages  Branch                 Title",
		"45 min ago        12  main                   Fix the flaky lock test",
		"2 h ago           61  feature/resume-picker  Add the resume picker",
		"yesterday          4                         Yesterday's work",
		"Oct 30        100000                         Last month",
		"“the picker lists sessions by size; list them like codex does” · ~/proj · 20261130-0900-bbbb",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q in\n%s", want, v)
		}
	}
	if strings.Contains(v, "KB") {
		t.Errorf("want no sizes, got\n%s", v)
	}
}

// TestAnUnknownMessageCountSaysWhatItMeans: a session whose count List
// did not read shows "?", not the dash of an unreadable log (or a count
// of none), and the detail row gives its turns and what the "?" means.
func TestAnUnknownMessageCountSaysWhatItMeans(t *testing.T) {
	p := New(cwd, "/home/ada", "", now, th)
	p.Update(listing())
	keys.Press(p.Update, "down", "down")
	v := ansi.Strip(p.View(120, 30))
	for _, want := range []string{"3 h ago            ?", "4 h ago            –",
		"open in process 4242 · 40 turns · messages counted once it is opened · ~/proj · 20261130-0800-cccc"} {
		if !strings.Contains(v, want) {
			t.Errorf("want %q in\n%s", want, v)
		}
	}
}

func TestTabTogglesScopeAndClearsSearch(t *testing.T) {
	p := New(cwd, "/home/ada", "", now, th)
	p.Update(listing())
	keys.TypeText(p.Update, "blog")
	if len(p.matches) != 0 {
		t.Fatalf("want no blog post in this workspace, got %d matches", len(p.matches))
	}
	keys.Press(p.Update, "tab")
	if !p.search.Empty() || len(p.matches) != 5 {
		t.Fatalf("want the search cleared and 5 sessions in all workspaces, got %q and %d", p.search.Value(), len(p.matches))
	}
	keys.TypeText(p.Update, "site")
	if got := keys.Press(p.Update, "enter"); got.Kind != Chosen || got.Session.Cwd != "/home/ada/site" {
		t.Errorf("want the other workspace's session found by its workspace, got %+v", got)
	}
}

func TestEscClearsSearchThenCloses(t *testing.T) {
	p := New(cwd, "/home/ada", "", now, th)
	keys.TypeText(p.Update, "x")
	if got := keys.Press(p.Update, "esc"); got.Kind != None || !p.search.Empty() {
		t.Fatalf("want the first Esc to clear the search, got %+v", got)
	}
	if got := keys.Press(p.Update, "esc"); got.Kind != Closed {
		t.Errorf("want the second Esc to close, got %+v", got)
	}
}

func TestListingErrorIsShown(t *testing.T) {
	p := New(cwd, "", "", now, th)
	p.Update(Loaded{Err: errors.New("permission denied")})
	if v := ansi.Strip(p.View(100, 30)); !strings.Contains(v, "Could not list sessions: permission denied") {
		t.Errorf("want the listing error, got\n%s", v)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	p := New(cwd, "/home/ada", "20261130-1100-aaaa", now, th)
	p.Update(listing())
	keys.Press(p.Update, "tab", "down", "down", "down")
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, p.View(size[0], size[1]), size[0], size[1])
	}
}

func TestALongListShowsTheCursorPosition(t *testing.T) {
	var many []session.Summary
	for i := range 1000 {
		many = append(many, session.Summary{ID: fmt.Sprintf("s%04d", i), Cwd: cwd, Title: fmt.Sprintf("Session %d", i)})
	}
	p := New(cwd, "/home/ada", "", now, th)
	p.Update(Loaded{Workspace: many, All: many})
	keys.Press(p.Update, "down", "down")
	if v := ansi.Strip(p.View(80, 14)); !strings.Contains(v, "3/1000 │") {
		t.Errorf("want the position 3/1000 at the end of the search row, got\n%s", v)
	}
	short := New(cwd, "/home/ada", "", now, th)
	short.Update(Loaded{Workspace: many[:2], All: many[:2]})
	if v := ansi.Strip(short.View(80, 14)); strings.Contains(v, "/2") {
		t.Errorf("want no position when every session shows, got\n%s", v)
	}
}
