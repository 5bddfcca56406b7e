//go:build !unix

package bash

import (
	"errors"
	"time"
)

// DefaultGrace is how long a process group has between SIGTERM and SIGKILL.
const DefaultGrace = 3 * time.Second

// Local is the Unix executor's stand-in where process groups and signals do
// not exist: tack builds there, and every command fails with a message
// instead of running without its guarantees (the whole group ends with the
// call; timeouts end what the shell started).
type Local struct {
	Shell      string
	Grace      time.Duration
	TailBytes  int
	SpillBytes int64
	Sandbox    Confiner
}

// errUnsupported is the error of every Start on this platform.
var errUnsupported = errors.New("the bash tool runs only on Linux and macOS in this version of tack; use WSL to run tack with shell commands on Windows")

// Start refuses: see Local.
func (Local) Start(Spec) (Process, error) { return nil, errUnsupported }
