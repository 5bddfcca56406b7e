package iostreams

import (
	"strings"
	"testing"
)

func TestDecideColorTakesFlagThenNoColorThenConfigThenTerminal(t *testing.T) {
	on, off := true, false
	tests := []struct {
		name       string
		flag       string
		noColor    bool
		configured *bool
		tty, dumb  bool
		want       bool
	}{
		{"always beats everything", ColorAlways, true, &off, false, true, true},
		{"never beats a terminal", ColorNever, false, &on, true, false, false},
		{"NO_COLOR beats the config", ColorAuto, true, &on, true, false, false},
		{"config false beats a terminal", ColorAuto, false, &off, true, false, false},
		{"config true still needs a terminal", ColorAuto, false, &on, false, false, false},
		{"a terminal turns it on", ColorAuto, false, nil, true, false, true},
		{"a dumb terminal keeps it off", ColorAuto, false, nil, true, true, false},
		{"a pipe keeps it off", ColorAuto, false, nil, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _, _ := Test()
			s.SetStdoutTTY(tt.tty)
			s.SetNoColor(tt.noColor)
			if tt.dumb {
				s.SetTerm("dumb")
			}
			s.DecideColor(tt.flag, tt.configured)
			if got := s.ColorEnabled(); got != tt.want {
				t.Errorf("want colour %v, got %v", tt.want, got)
			}
		})
	}
}

func TestFullScreenNeedsTwoTerminalsThatAreNotDumb(t *testing.T) {
	s, _, _, _ := Test()
	if s.CanFullScreen() || s.FullScreenRefusal() == "" {
		t.Fatal("want buffers refused the full screen, with a reason")
	}
	s.SetStdinTTY(true)
	s.SetStdoutTTY(true)
	if !s.CanFullScreen() || s.FullScreenRefusal() != "" {
		t.Fatalf("want two terminals to allow the full screen, got refusal %q", s.FullScreenRefusal())
	}
	s.SetTerm("dumb")
	if s.CanFullScreen() {
		t.Fatal("want TERM=dumb refused the full screen")
	}
	if got := s.FullScreenRefusal(); got == "" || !strings.Contains(got, "TERM=dumb") || !strings.Contains(got, "--ui line") {
		t.Errorf("want the refusal to name TERM=dumb and --ui line, got %q", got)
	}
}

// tmux (without extended keys), GNU screen, rxvt-unicode, st and the
// Linux console send Shift+Enter as Enter (measured in each by app/screen's
// emulator tests); xterm, kitty, mlterm and others tell it apart.
func TestShiftEnterIsEnterInTheTerminalsThatSendItSo(t *testing.T) {
	s, _, _, _ := Test()
	for term, plain := range map[string]bool{"screen": true, "screen-256color": true, "screen.xterm-256color": true, "tmux-256color": true,
		"rxvt-unicode-256color": true, "st-256color": true, "linux": true, "xterm-256color": false, "xterm-kitty": false, "mlterm": false,
		"alacritty": false, "stterm": false, "": false} {
		s.SetTerm(term)
		if got := s.ShiftEnterIsEnter(); got != plain {
			t.Errorf("TERM=%s: want %v, got %v", term, plain, got)
		}
	}
	s.SetTerm("xterm-256color")
	s.SetTmux(true)
	if !s.ShiftEnterIsEnter() {
		t.Error("want Shift+Enter taken for Enter inside tmux, whatever TERM says")
	}
}

func TestSizeIsTheSetSizeOverBuffers(t *testing.T) {
	s, _, _, _ := Test()
	s.SetSize(132, 50)
	if w, h, ok := s.Size(); w != 132 || h != 50 || !ok {
		t.Errorf("want 132×50, got %d×%d ok=%v", w, h, ok)
	}
}
