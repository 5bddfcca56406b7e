//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/tack-agent/tack/app/screen"
)

// watchSuspend makes a SIGTSTP (Ctrl+Z, which suspendKey turns into one,
// kill -TSTP, a job-control shell) suspend the full screen as a shell job
// stops: the terminal is given back, the process group stops, and on
// SIGCONT (fg) the screen takes the terminal again and redraws in full.
// Without it the process stopped with the terminal raw and on the
// alternate screen. Once a process has asked for SIGTSTP, Go keeps a
// handler for it and the default stop never happens, so the group is
// stopped with SIGSTOP, which cannot be caught. The kill returns before
// every thread has stopped, so the screen waits for the SIGCONT of fg
// before it takes the terminal back. It returns the function that stops
// watching.
func watchSuspend(scr *screen.Screen) (stop func()) {
	tstp, cont := make(chan os.Signal, 1), make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	signal.Notify(cont, syscall.SIGCONT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-tstp:
			case <-done:
				return
			}
			_ = scr.Release()
			select {
			case <-cont: // an earlier one, not the answer to this stop
			default:
			}
			_ = syscall.Kill(0, syscall.SIGSTOP)
			select {
			case <-cont:
			case <-done:
				return
			}
			_ = scr.Restore()
		}
	}()
	return func() {
		signal.Stop(tstp)
		signal.Stop(cont)
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
