//go:build unix

package checkpoint

import (
	"syscall"
	"time"
)

// childCPU is the user and system time of this process's waited-for
// children.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
