//go:build unix

package procs

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Gone reports whether the process pid no longer runs: there is no such
// process, or it is a zombie left for a parent that does not reap it. It
// goes by the process id, which the system may give to a new process; it
// is for a process a test knows only by the pid it printed, where Find and
// Exited cannot be used.
func Gone(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(after, "Z")
}
