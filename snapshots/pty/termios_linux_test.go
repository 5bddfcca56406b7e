package pty

import (
	"testing"

	"golang.org/x/sys/unix"
)

// assertCooked checks that the pseudo-terminal is back in cooked mode
// (canonical input, echo and signal keys on) after the program exited: the
// line editor switches them off while it reads a line.
func assertCooked(t *testing.T, r *run) {
	t.Helper()
	var tio *unix.Termios
	var err error
	if cerr := r.ControlMaster(func(fd uintptr) { tio, err = unix.IoctlGetTermios(int(fd), unix.TCGETS) }); cerr != nil {
		t.Fatalf("reach the terminal: %v", cerr)
	}
	if err != nil {
		t.Fatalf("read the terminal mode: %v", err)
	}
	for _, f := range []struct {
		name string
		flag uint32
	}{{"ICANON", unix.ICANON}, {"ECHO", unix.ECHO}, {"ISIG", unix.ISIG}} {
		if tio.Lflag&f.flag == 0 {
			t.Errorf("want %s restored on the terminal after exit, got it off", f.name)
		}
	}
}
