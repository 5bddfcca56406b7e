package sandbox

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// A command's processes are more than its process group: a child may start
// a session of its own (setsid, a daemon) and still hold the command's
// output open, so that the command never ends for tack, or outlive the
// call. The helper sees every process its commands start (they are its
// descendants: it is PID 1 of the sandbox, or the supervisor's child
// subreaper), so a signal for a command goes to its group, to every
// descendant of its first process, and to every process holding its
// output pipes.

// command is what the helper knows of a started command.
type command struct {
	pgid  int      // its first process, leader of its group and session
	pipes []uint64 // inodes of the pipes its stdout and stderr write to
}

// pipeInodes are the inodes of the pipes among files.
func pipeInodes(files []*os.File) []uint64 {
	var out []uint64
	for _, f := range files {
		var st syscall.Stat_t
		if syscall.Fstat(int(f.Fd()), &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFIFO {
			out = append(out, st.Ino)
		}
	}
	return out
}

// signal sends sig to every process of c and reports whether there was
// any.
func (c command) signal(sig syscall.Signal) bool {
	alive := !errors.Is(syscall.Kill(-c.pgid, sig), syscall.ESRCH)
	for _, pid := range c.members(descendants()) {
		if syscall.Kill(pid, sig) == nil {
			alive = true
		}
	}
	return alive
}

// members are the processes of c among the helper's descendants (pid to
// parent): those below its first process and those holding its pipes.
func (c command) members(below map[int]int) []int {
	var out []int
	for pid := range below {
		if c.holdsPipe(pid) {
			out = append(out, pid)
			continue
		}
		for p := pid; p > 0; p = below[p] {
			if p == c.pgid {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// holdsPipe reports whether process pid has one of c's pipes open.
func (c command) holdsPipe(pid int) bool {
	if len(c.pipes) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	fds, _ := os.ReadDir(dir)
	for _, fd := range fds {
		link, err := os.Readlink(dir + fd.Name())
		if err != nil || !strings.HasPrefix(link, "pipe:[") {
			continue
		}
		ino, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(link, "pipe:["), "]"), 10, 64)
		if err != nil {
			continue
		}
		for _, p := range c.pipes {
			if p == ino {
				return true
			}
		}
	}
	return false
}

// descendants maps every live process below this one to its parent.
func descendants() map[int]int {
	parents := processParents()
	self := os.Getpid()
	out := map[int]int{}
	for pid := range parents {
		for p := parents[pid]; p > 0; p = parents[p] {
			if p == self {
				out[pid] = parents[pid]
				break
			}
			if _, known := parents[p]; !known {
				break
			}
		}
	}
	return out
}

// processParents maps every live process this one can see to its parent.
func processParents() map[int]int {
	entries, _ := os.ReadDir("/proc")
	out := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which may hold spaces and
		// parentheses: state, then the parent's pid.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			out[pid] = ppid
		}
	}
	return out
}

// endDescendants kills every process below this one, and reaps them. A
// killed process's children are re-parented to this one (PID 1 of a
// namespace, or a child subreaper), so each round kills what the last one
// uncovered, until no child is left.
func endDescendants() {
	self := os.Getpid()
	for {
		for pid, ppid := range processParents() {
			if ppid == self {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if _, err := syscall.Wait4(-1, nil, 0, nil); errors.Is(err, syscall.ECHILD) {
			return
		}
	}
}
