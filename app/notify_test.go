package app

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	tty "github.com/tack-agent/tack/app/screen"
)

// notice runs the turn-end command, if any, and returns what it writes.
func notice(m *Model, title string) (string, bool) {
	cmd := m.turnEnded(title)
	if cmd == nil {
		return "", false
	}
	seq, ok := cmd().(tty.SequenceMsg)
	return string(seq), ok
}

func TestTurnEndRingsOnlyWhenTheTerminalIsNotFocused(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24})
	if !m.View().ReportFocus {
		t.Fatal("want focus reporting on")
	}
	if _, ok := notice(m, "Fix the test"); ok {
		t.Fatal("want no notice while focused (or before any focus report)")
	}
	m.Update(tea.BlurMsg{})
	if got, _ := notice(m, "Fix the test"); got != "\a" {
		t.Fatalf("want the bell while away, got %q", got)
	}
	m.Update(tea.FocusMsg{})
	if _, ok := notice(m, "Fix the test"); ok {
		t.Fatal("want no notice once focused again")
	}
}

func TestTurnEndNoticeFollowsTheSetting(t *testing.T) {
	osc := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Notify: NotifyOSC9})
	osc.Update(tea.BlurMsg{})
	got, _ := notice(osc, "Fix \x1b]0;evil\x07 the test")
	if !strings.HasPrefix(got, "\x1b]9;tack: Fix") || !strings.HasSuffix(got, " the test — done\x07") || strings.Count(got, "\x07") != 1 || strings.Count(got, "\x1b") != 1 {
		t.Fatalf("want one sanitised OSC 9 notification, got %q", got)
	}
	off := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Notify: NotifyOff})
	off.Update(tea.BlurMsg{})
	if _, ok := notice(off, "x"); ok || off.View().ReportFocus {
		t.Fatal("want neither a notice nor focus reporting with notify = off")
	}
	for in, want := range map[string]Notify{"": NotifyBell, "osc9": NotifyOSC9, "off": NotifyOff} {
		if n, err := ParseNotify(in); err != nil || n != want {
			t.Errorf("ParseNotify(%q) = %q, %v; want %q", in, n, err, want)
		}
	}
	if _, err := ParseNotify("loud"); err == nil || !strings.Contains(err.Error(), "bell, osc9 or off") {
		t.Errorf("want an error naming the choices, got %v", err)
	}
}
