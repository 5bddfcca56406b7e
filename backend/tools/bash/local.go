package bash

import "time"

// DefaultGrace is how long a process group has between SIGTERM and SIGKILL.
const DefaultGrace = 3 * time.Second

// Local runs commands on this machine: `bash -c` in its own process group,
// stdin from /dev/null, inside the sandbox unless the Spec's grant says
// otherwise. When the shell exits, whatever it left running in its group is
// terminated too, so no command outlives its call. Where process groups do
// not exist (Windows), Start refuses with a message instead.
type Local struct {
	// Shell is the shell binary; empty means "bash" found on PATH.
	Shell string
	// Grace is the time between SIGTERM and SIGKILL; zero means DefaultGrace.
	Grace time.Duration
	// TailBytes and SpillBytes bound each captured stream; zero means the
	// defaults (DefaultTailBytes, DefaultSpillBytes).
	TailBytes  int
	SpillBytes int64
	// Sandbox confines every command whose grant is not Off. Nil means no
	// command can be confined, and those that must be are refused.
	Sandbox Confiner
}
