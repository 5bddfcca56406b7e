//go:build unix

package bash

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/tack-agent/tack/backend/sandbox"
)

// errNoSandbox refuses a command that must be confined when nothing can
// confine it: running it unconfined is the user's decision, which the
// permission policy asks for.
var errNoSandbox = errors.New("this command must run in the sandbox, and this session has none")

// Start spawns spec.Command.
func (l Local) Start(spec Spec) (Process, error) {
	// exec reports a bad directory as the shell missing; say what is wrong.
	if fi, err := os.Stat(spec.Workdir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("workdir %s does not exist or is not a directory", spec.Workdir)
	}
	name := l.Shell
	if name == "" {
		name = "bash"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, err
	}
	env := spec.Env
	if env == nil {
		env = []string{} // nil would inherit tack's own environment
	}

	// Own pipes rather than exec's copying goroutines: Wait then returns when
	// the shell exits, even while a leftover child still holds the pipe.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("make stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, fmt.Errorf("make stderr pipe: %w", err)
	}
	c := sandbox.Command{
		Path: path, Args: []string{filepath.Base(path), "-c", spec.Command}, Dir: spec.Workdir, Env: env,
		Stdout: outW, Stderr: errW,
		Confinement: sandbox.Confinement{ReadOnly: spec.Sandbox.ReadOnly, Network: spec.Sandbox.Network},
	}
	var sh shell
	switch {
	case spec.Sandbox.Off:
		sh, err = l.startUnconfined(c)
	case l.Sandbox == nil:
		err = errNoSandbox
	default:
		var p sandbox.Process
		p, err = l.Sandbox.Start(c)
		sh = confined{p}
	}
	closeAll(outW, errW)
	if err != nil {
		closeAll(outR, errR)
		return nil, err
	}

	grace := l.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	p := &localProcess{
		sh:      sh,
		grace:   grace,
		timeout: spec.Timeout,
		stdout:  NewStream(spec.SpillDir, "bash-*-stdout.log", l.TailBytes, l.SpillBytes),
		stderr:  NewStream(spec.SpillDir, "bash-*-stderr.log", l.TailBytes, l.SpillBytes),
		kill:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go p.run(outR, errR)
	return p, nil
}

// shell is a started shell as the executor controls it, directly or
// through the sandbox.
type shell interface {
	// signal sends sig to the shell's process group and reports whether any
	// process was there to receive it.
	signal(sig syscall.Signal) bool
	// wait waits for the shell to exit.
	wait() (code int, signal string)
	// release says the group will not be signalled again.
	release()
}

// startUnconfined starts c outside the sandbox under the supervisor, so
// that what it leaves behind dies with tack; where there is none, it
// starts c itself.
func (l Local) startUnconfined(c sandbox.Command) (shell, error) {
	if sup, ok := l.Sandbox.(Supervisor); ok {
		if p, err := sup.StartUnconfined(c); err == nil {
			return confined{p}, nil
		}
	}
	return startDirect(c)
}

// direct is a shell started without a sandbox, leading its own group.
type direct struct{ cmd *exec.Cmd }

func startDirect(c sandbox.Command) (shell, error) {
	cmd := exec.Command(c.Path, c.Args[1:]...)
	cmd.Args[0] = c.Args[0]
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	cmd.SysProcAttr = directAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return direct{cmd}, nil
}

func (d direct) signal(sig syscall.Signal) bool {
	return !errors.Is(syscall.Kill(-d.cmd.Process.Pid, sig), syscall.ESRCH)
}

func (d direct) wait() (int, string) {
	_ = d.cmd.Wait()
	return exitStatus(d.cmd.ProcessState)
}

func (direct) release() {}

// confined is a shell started in the sandbox.
type confined struct{ p sandbox.Process }

func (c confined) signal(sig syscall.Signal) bool { return c.p.Signal(sig) }

func (c confined) wait() (int, string) {
	e := c.p.Wait()
	if e.Signal != 0 {
		return -1, signalName(e.Signal)
	}
	return e.Code, ""
}

func (c confined) release() { c.p.Release() }

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

type localProcess struct {
	sh             shell
	grace, timeout time.Duration
	stdout, stderr *Stream

	kill     chan struct{}
	killOnce sync.Once
	done     chan struct{}
	outcome  Outcome
}

func (p *localProcess) Stdout() *Stream       { return p.stdout }
func (p *localProcess) Stderr() *Stream       { return p.stderr }
func (p *localProcess) Done() <-chan struct{} { return p.done }
func (p *localProcess) Outcome() Outcome      { <-p.done; return p.outcome }
func (p *localProcess) Kill()                 { p.killOnce.Do(func() { close(p.kill) }) }

// run owns the process from start to Done: it drains the pipes, enforces the
// timeout, answers Kill, and sweeps the group when the shell has exited.
func (p *localProcess) run(outR, errR *os.File) {
	defer close(p.done)
	drained := make(chan struct{})
	var wg sync.WaitGroup
	for _, c := range []struct {
		r *os.File
		s *Stream
	}{{outR, p.stdout}, {errR, p.stderr}} {
		wg.Go(func() { io.Copy(c.s, c.r) })
	}
	go func() { wg.Wait(); close(drained) }()

	exited := make(chan struct{})
	go func() {
		p.outcome.ExitCode, p.outcome.Signal = p.sh.wait()
		close(exited)
	}()

	var timeout <-chan time.Time
	if p.timeout > 0 {
		t := time.NewTimer(p.timeout)
		defer t.Stop()
		timeout = t.C
	}
	p.outcome.Timeout = p.timeout
	select {
	case <-exited:
	case <-timeout:
		p.outcome.TimedOut = true
		p.terminate(exited)
	case <-p.kill:
		p.outcome.Killed = true
		p.terminate(exited)
	}
	p.sweep(drained)
	p.sh.release()
	closeAll(outR, errR)
	<-drained
	p.stdout.Close()
	p.stderr.Close()
}

// terminate sends SIGTERM to the group and SIGKILL if the shell is still
// there after the grace period, then waits for the shell to exit.
func (p *localProcess) terminate(exited <-chan struct{}) {
	p.signal(syscall.SIGTERM)
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
		p.signal(syscall.SIGKILL)
		<-exited
	}
}

// sweep ends what the shell left running in its group, and stops waiting
// for pipes held open by processes that escaped the group.
func (p *localProcess) sweep(drained <-chan struct{}) {
	t := time.NewTimer(p.grace)
	defer t.Stop()
	if p.signal(syscall.SIGTERM) {
		select {
		case <-drained:
		case <-t.C:
		}
		p.signal(syscall.SIGKILL)
		t.Reset(p.grace)
	}
	select {
	case <-drained:
	case <-t.C:
	}
}

// signal sends sig to the process group and reports whether any process
// was there to receive it.
func (p *localProcess) signal(sig syscall.Signal) bool { return p.sh.signal(sig) }

func exitStatus(ps *os.ProcessState) (code int, signal string) {
	if ps == nil {
		return -1, ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, signalName(ws.Signal())
	}
	return ps.ExitCode(), ""
}
