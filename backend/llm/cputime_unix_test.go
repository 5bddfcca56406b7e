//go:build unix

package llm

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system. On a
// machine shared with other builds the wall clock of a benchmark measures
// the neighbours as much as the code; its CPU time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
