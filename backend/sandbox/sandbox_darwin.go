package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// sandboxExec is macOS's command-line front end to Seatbelt.
const sandboxExec = "/usr/bin/sandbox-exec"

// On macOS every command runs under sandbox-exec with a profile generated
// from the layout at that moment; sandbox-exec starts in about a
// millisecond, so no helper is kept. macOS has no parent-death signal: a
// command that detaches from its process group can outlive tack.
type platform struct{}

func probe(Options) Status {
	if _, err := os.Stat(sandboxExec); err != nil {
		return Status{Reason: sandboxExec + " is missing"}
	}
	return Status{Active: true, Mechanism: "macOS Seatbelt (sandbox-exec)"}
}

// Prewarm does nothing: there is no helper to start.
func (s *Sandbox) Prewarm() {}

// Close does nothing: each command is its own sandbox-exec.
func (s *Sandbox) Close() {}

func (s *Sandbox) start(c Command, l Layout) (Process, error) {
	if len(c.Args) == 0 {
		return nil, errors.New("no command")
	}
	profile := SeatbeltProfile(l, c.Confinement)
	cmd := exec.Command(sandboxExec, append([]string{"-p", profile, c.Path}, c.Args[1:]...)...)
	cmd.Dir, cmd.Env = c.Dir, c.Env
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return seatbeltProcess{cmd}, nil
}

type seatbeltProcess struct{ cmd *exec.Cmd }

func (p seatbeltProcess) Signal(sig syscall.Signal) bool {
	return !errors.Is(syscall.Kill(-p.cmd.Process.Pid, sig), syscall.ESRCH)
}

func (p seatbeltProcess) Wait() Exit {
	_ = p.cmd.Wait()
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return Exit{Code: -1, Signal: ws.Signal()}
	}
	return Exit{Code: p.cmd.ProcessState.ExitCode()}
}

func (seatbeltProcess) Release() {}

// serveHelper has nothing to serve: no helper is started here.
func serveHelper() int { return 1 }

// StartUnconfined has no supervisor to offer here: macOS has no child
// subreaper, and the caller starts the command itself.
func (s *Sandbox) StartUnconfined(Command) (Process, error) {
	return nil, errors.New("no supervisor for unconfined commands on macOS")
}
