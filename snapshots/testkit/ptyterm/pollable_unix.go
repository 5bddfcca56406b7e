//go:build unix

package ptyterm

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// pollable returns the master side as a file in non-blocking mode, which
// Go's poller serves: creack/pty hands it over blocking (it reads the fd
// for its ioctls), and a blocking Read ends only when every process that
// holds the slave side has closed it. A child the program left behind — a
// sandbox helper stopped with it by SIGTSTP, a command in a process group
// of its own — would then hold Close forever; a pollable file's Read ends
// when the file is closed.
func pollable(f *os.File) (*os.File, error) {
	sc, err := f.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("reach the master side: %w", err)
	}
	var fd int
	var dupErr error
	if err := sc.Control(func(raw uintptr) { fd, dupErr = syscall.Dup(int(raw)) }); err != nil {
		return nil, fmt.Errorf("reach the master side: %w", err)
	}
	if dupErr != nil {
		return nil, fmt.Errorf("duplicate the master side: %w", dupErr)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		_ = syscall.Close(fd)
		return nil, fmt.Errorf("make the master side non-blocking: %w", err)
	}
	_ = f.Close()
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// killGroup ends what is left of the program's process group (the
// program leads a session of its own): children it started and did not
// end, stopped ones included.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// setSize sets the size of the pseudo-terminal behind master, which
// signals SIGWINCH to its foreground process group. The ioctl goes
// through the poller's descriptor: creack/pty's Setsize takes File.Fd,
// which would make the master side blocking again.
func setSize(master *os.File, cols, rows int) error {
	sc, err := master.SyscallConn()
	if err != nil {
		return fmt.Errorf("reach the master side: %w", err)
	}
	var ioErr error
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if err := sc.Control(func(fd uintptr) { ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); err != nil {
		return fmt.Errorf("reach the master side: %w", err)
	}
	if ioErr != nil {
		return fmt.Errorf("set the terminal size to %dx%d: %w", cols, rows, ioErr)
	}
	return nil
}
