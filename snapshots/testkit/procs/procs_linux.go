// Package procs finds a test's processes by their command line and tells
// when they have exited, for tests of what outlives what (a command after
// tack is killed, a child after its command is cancelled). The kernel is
// the oracle: a process is held as a pidfd, which becomes readable when
// the process exits, so a process id reused meanwhile cannot mislead.
package procs

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var seq atomic.Int64

// UniqueSleep is an argument for sleep (seconds, about base) that no
// other process on the machine has, so that its process can be found by
// its command line.
func UniqueSleep(base int) string {
	return fmt.Sprintf("%d.%d%06d", base, os.Getpid(), seq.Add(1))
}

// Find waits up to limit for the process whose command line is argv, and
// returns it as a pidfd. The process is killed and the pidfd closed when
// the test ends.
func Find(tb testing.TB, limit time.Duration, argv ...string) int {
	tb.Helper()
	want := strings.Join(argv, "\x00") + "\x00"
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if b, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); string(b) == want {
				fd, err := unix.PidfdOpen(pid, 0)
				if err != nil {
					tb.Fatalf("pidfd_open %d: %v", pid, err)
				}
				tb.Cleanup(func() { _ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0); unix.Close(fd) })
				return fd
			}
		}
		<-time.After(10 * time.Millisecond)
	}
	tb.Fatalf("no process %q appeared within %v", strings.Join(argv, " "), limit)
	return -1
}

// Exited waits up to limit for the process behind pidfd to exit, and
// reports whether it did.
func Exited(pidfd int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		// poll is never restarted after a signal handler, and the Go
		// runtime signals its threads (SIGURG preempts goroutines): EINTR
		// says nothing about the process, so poll again for what is left.
		wait := max(time.Until(deadline), 0) // a negative timeout waits for ever
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}, int(wait/time.Millisecond))
		if !errors.Is(err, unix.EINTR) {
			return err == nil && n == 1
		}
	}
}
