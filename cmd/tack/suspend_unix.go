//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
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
// SIGTSTP to tack, not tea.Suspend.)
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
