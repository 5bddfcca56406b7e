// Package pty runs the built tack binary in a pseudo-terminal (through
// snapshots/testkit/ptyterm) as a person would: it types, waits for text
// on the screen and checks exit codes, the escape sequences left behind,
// and, with TACK_PTY_MEASURE=1, the end-to-end timings. The tests live in
// the package's test files.
package pty
