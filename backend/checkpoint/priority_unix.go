//go:build unix

package checkpoint

import "syscall"

// backgroundNice is the niceness of background git commands: a tenth of
// the CPU share of tack's own threads when both want it, so that a woken
// key path takes the CPU at once, while a turn's checkpoint that waits for
// the priming to finish is not starved behind every other program.
const backgroundNice = 10

// lowerPriority gives process pid the background priority; a process that
// already ended is left be.
func lowerPriority(pid int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, backgroundNice) }
