//go:build !unix

package bash

import "errors"

// errUnsupported is the error of every Start on this platform, where
// process groups and signals do not exist: tack builds there, and every
// command fails with a message instead of running without its guarantees
// (the whole group ends with the call; timeouts end what the shell started).
var errUnsupported = errors.New("the bash tool runs only on Linux and macOS in this version of tack; use WSL to run tack with shell commands on Windows")

// Start refuses: see errUnsupported.
func (Local) Start(Spec) (Process, error) { return nil, errUnsupported }
