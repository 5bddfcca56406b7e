package screen

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// openInput opens the terminal tty reads from a second time, for tack's
// own reader: a new open file description, so its non-blocking mode is
// tack's alone (the shell that started tack shares tty's and would read
// in non-blocking mode after it). Nil when it cannot be opened or polled;
// bubbletea then reads tty.
func openInput(tty *os.File) *input {
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(tty.Fd())), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	// A file Go's poller serves takes deadlines; stop needs them.
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		_ = f.Close()
		return nil
	}
	return &input{f: f}
}
