package bash

import (
	"time"

	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
)

// Executor runs shell commands for the bash tools. It is the seam where a
// sandboxed or remote implementation can replace Local without changing
// what the model sees.
type Executor interface {
	// Start spawns spec. An error means the command never ran (bad workdir,
	// missing shell); everything after that is reported by the Process.
	Start(spec Spec) (Process, error)
}

// Confiner starts commands inside a sandbox; *sandbox.Sandbox is one.
type Confiner interface {
	Start(c sandbox.Command) (sandbox.Process, error)
}

// Supervisor starts commands without a sandbox such that everything they
// start dies with tack; *sandbox.Sandbox is one, where the system allows.
type Supervisor interface {
	StartUnconfined(c sandbox.Command) (sandbox.Process, error)
}

// Spec is one command to run.
type Spec struct {
	// Command is passed to `bash -c`.
	Command string
	// Workdir is the absolute directory the command runs in.
	Workdir string
	// Timeout ends the command (SIGTERM, then SIGKILL after the grace
	// period); zero means none.
	Timeout time.Duration
	// Env is the complete environment, as "KEY=value" entries.
	Env []string
	// SpillDir receives the full output of streams that outgrow memory;
	// empty means full output is unavailable.
	SpillDir string
	// Sandbox is what the permission gate granted: the default sandbox, a
	// read-only one, one with network, or none.
	Sandbox tools.Sandbox
}

// Process is a running command.
type Process interface {
	// Stdout and Stderr are the captured streams; they keep filling until
	// Done is closed.
	Stdout() *Stream
	Stderr() *Stream
	// Done is closed when the command and every process of its group have
	// ended and the streams are complete.
	Done() <-chan struct{}
	// Outcome is how the command ended. Valid once Done is closed.
	Outcome() Outcome
	// Kill ends the command's process group: SIGTERM, then SIGKILL after
	// the grace period. It returns at once; wait on Done.
	Kill()
}

// Outcome is how a command ended.
type Outcome struct {
	// ExitCode is the shell's exit status; -1 when Signal is set.
	ExitCode int
	// Signal names the signal that ended the shell ("SIGKILL"), if any.
	Signal string
	// TimedOut says the timeout fired, however the command then ended.
	TimedOut bool
	// Timeout is the Spec's timeout, for the marker.
	Timeout time.Duration
	// Killed says Kill was called before the command ended.
	Killed bool
}
