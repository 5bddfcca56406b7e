//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"
)

// watchSuspend makes a SIGTSTP from outside the program (kill -TSTP, a
// job-control shell) suspend the full screen as bubbletea's suspend does:
// the terminal is restored, the process group stops, and on SIGCONT (fg)
// the screen takes the terminal back and redraws in full. Without it the
// process stopped with the terminal raw and on the alternate screen. It
// returns the function that stops watching.
//
// bubbletea's suspend stops the group by sending it SIGTSTP, which comes
// back here: once a process has asked for SIGTSTP, Go keeps a handler for
// it and the default stop never happens again. So the first SIGTSTP asks
// bubbletea to suspend, and the one it sends stops the group with SIGSTOP,
// which cannot be caught. (A key that suspends must therefore send
// SIGTSTP to tack, not tea.Suspend: see suspendKey.)
func watchSuspend(p *tea.Program) (stop func()) {
	tstp := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-tstp: // from outside: suspend
			case <-done:
				return
			}
			p.Send(tea.Suspend())
			select {
			case <-tstp: // bubbletea's, with the terminal restored: stop
			case <-done:
				return
			}
			_ = syscall.Kill(0, syscall.SIGSTOP)
		}
	}()
	return func() {
		signal.Stop(tstp)
		close(done)
	}
}

// suspendKey is what Ctrl+Z does: send tack the SIGTSTP a shell's Ctrl+Z
// would, which watchSuspend turns into a clean suspend. It is nil when no
// job-control shell could resume a stopped tack: the terminal's
// foreground group must be tack's own, and tack's parent must sit in
// another group of the same session (a shell that made tack a job). A
// session leader (a tmux pane, a PTY a program opened) or a process in its
// parent's group (a script) would stop for good.
func suspendKey(tty *os.File) func() {
	if tty == nil || !jobControlled(int(tty.Fd()), os.Getppid()) {
		return nil
	}
	return func() { _ = syscall.Kill(os.Getpid(), syscall.SIGTSTP) }
}

// jobControlled reports whether this process runs as a job of a
// job-control shell on terminal fd whose parent is ppid.
func jobControlled(fd, ppid int) bool {
	pgrp := unix.Getpgrp()
	fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil || fg != pgrp {
		return false
	}
	parentGroup, err := unix.Getpgid(ppid)
	if err != nil || parentGroup == pgrp {
		return false
	}
	sid, err := unix.Getsid(0)
	if err != nil || sid == os.Getpid() {
		return false
	}
	parentSid, err := unix.Getsid(ppid)
	return err == nil && parentSid == sid
}
