package linemode

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/launch"
)

// shutdownGrace bounds how long leaving may take after a cancel: the
// cancelled turn or command recording its end, then the session closing.
// It keeps an exit by signal well inside two seconds.
const shutdownGrace = 1500 * time.Millisecond

// interrupt is Ctrl+C at a terminal: the first cancels the running turn or
// command, a second one, or one with nothing running, exits.
func (d *door) interrupt() (int, bool) {
	if d.s == nil || !d.working() {
		return d.finish(0, time.Now().Add(shutdownGrace)), true
	}
	if d.interrupted {
		return d.shutdown(130), true
	}
	d.interrupted = true
	d.cancelWork()
	return 0, false
}

// working reports whether a turn or a command is running.
func (d *door) working() bool { return d.busy || d.cmd != nil }

// cancelWork cancels the running command and the running turn or
// compaction.
func (d *door) cancelWork() {
	if d.cmd != nil {
		d.cmd.cancel()
	}
	d.s.Agent.Cancel()
}

// signal handles SIGINT at a terminal as Ctrl+C. Piped, SIGINT comes from
// Ctrl+C in the shell running the whole pipeline, which means stop: like
// SIGTERM and SIGHUP it cancels what runs and exits.
func (d *door) signal(sig os.Signal) (int, bool) {
	switch sig {
	case syscall.SIGINT:
		if d.terminal {
			return d.interrupt()
		}
		return d.shutdown(130), true
	case syscall.SIGHUP:
		return d.shutdown(129), true
	}
	return d.shutdown(143), true
}

// shutdown cancels the running turn and command, shows their end while it
// is recorded, closes the session and returns code, all within
// shutdownGrace.
func (d *door) shutdown(code int) int {
	deadline := time.Now().Add(shutdownGrace)
	if d.s != nil {
		d.cancelWork()
		d.awaitCancelled(deadline)
	}
	return d.finish(code, deadline)
}

// awaitCancelled renders events until the cancelled turn and command have
// ended, or until deadline.
func (d *door) awaitCancelled(deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for d.busy || d.cmd != nil && d.early == nil {
		select {
		case evs := <-d.events:
			d.render(evs)
		case res := <-d.commandDone:
			d.early = &res
		case <-timer.C:
			return
		}
	}
	if d.early != nil {
		if res := d.early; res.found && res.exec.Result.Text != "" {
			d.r.Notice(res.exec.Result.Text, d.cmd.atPrompt)
		}
		d.cmd, d.early = nil, nil
	}
}

// finish closes the session (waiting for a pending open first) and says how
// to resume it, by deadline.
func (d *door) finish(code int, deadline time.Time) int {
	if d.s == nil && d.opened != nil {
		select {
		case op := <-d.opened:
			d.s = op.s
		case <-time.After(time.Until(deadline)):
		}
	}
	if d.s != nil {
		d.closeSession(deadline)
	}
	return code
}

// closeSession stops answering and rendering for the session, closes it
// (waiting until deadline at most: the kernel drops the session's lock when
// the process ends) and says how to resume it.
func (d *door) closeSession(deadline time.Time) {
	closed, resumable := d.releaseSession()
	select {
	case <-closed:
	case <-time.After(time.Until(deadline)):
	}
	d.sayResume(resumable)
}

// releaseSession stops answering and rendering for the session and starts
// closing it; closed is closed once the session is.
func (d *door) releaseSession() (closed <-chan struct{}, resumable bool) {
	if d.cmd != nil {
		d.cmd.cancel()
	}
	if d.unmount != nil {
		d.unmount()
	}
	if d.stopPump != nil {
		d.stopPump()
	}
	resumable = d.s.Resumable()
	done := make(chan struct{})
	go func() {
		d.s.Close()
		close(done)
	}()
	return done, resumable
}

// sayResume tells the user how to come back to the session.
func (d *door) sayResume(resumable bool) {
	if resumable {
		fmt.Fprintf(d.stderr, "\nTo resume this session: tack --resume %s\n", d.s.Agent.SessionID())
	}
}

// switchTo opens the session id ("" for a fresh one) and, once it is open,
// closes the current one and drives the new one from the next line. The
// registry runs /new and /resume only while the agent is idle. When the
// session cannot be opened the current one stays.
func (d *door) switchTo(id string) (int, bool) {
	next, err := d.o.Reopen(id)
	if err != nil {
		d.r.Notice("Could not open the session: "+err.Error(), true)
		return 0, false
	}
	// The process goes on, so the old session is closed before the next
	// line runs: a /resume of it must find its lock free. (A close may
	// take a while: a sandbox helper still starting is waited for.)
	closed, resumable := d.releaseSession()
	<-closed
	d.sayResume(resumable)
	d.s, d.reg, d.events, d.stopPump, d.unmount = nil, nil, nil, nil, nil
	d.busy, d.inTurn, d.interrupted = false, false, false
	d.active, d.settled = nil, nil
	d.r.reset()
	if id == "" {
		d.r.Notice("Started a new session with the same settings: "+next.Agent.SessionID()+".", true)
	}
	return d.start(opening{s: next})
}

// startCommand runs line through the registry off the loop, under a
// context that Ctrl+C, SIGINT, SIGTERM and SIGHUP cancel; its result
// arrives on commandDone.
func (d *door) startCommand(line string) {
	ctx, cancel := context.WithCancel(context.Background())
	d.cmd = &runningCommand{cancel: cancel, atPrompt: d.s.Agent.Status() != agent.StatusRunning}
	if d.commandDone == nil {
		d.commandDone = make(chan commandResult, 1)
	}
	reg, s, done := d.reg, d.s, d.commandDone
	go func() {
		if cmd := shellCommand(line); cmd != "" {
			run := s.Shell(ctx, cmd)
			done <- commandResult{line: line, shell: &run, found: true}
			return
		}
		exec, found := reg.Execute(ctx, s.Agent, line, nil)
		done <- commandResult{line: line, exec: exec, found: found}
	}()
}

// runningCommand is the slash command the door waits for.
type runningCommand struct {
	cancel context.CancelFunc
	// atPrompt says the command started with no turn running: its result
	// takes the prompt's place.
	atPrompt bool
}

// commandResult is a settled command line; found is false for a line that
// names no command. shell is the outcome of a `!command` line.
type commandResult struct {
	line  string
	exec  commands.Execution
	shell *launch.ShellRun
	found bool
}
