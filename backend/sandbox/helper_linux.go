package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Why a long-lived helper. Go cannot run code between fork and exec, so the
// confinement a command needs beyond what SysProcAttr offers (mounts,
// Landlock, seccomp, dropping capabilities) must be done by a process that
// then starts the command: tack itself, started again as a helper. tack's
// binary takes about 35 ms to start (the package initialisers of the
// Markdown and highlighting libraries), seven times the 5 ms a command may
// pay for its sandbox. So the helper starts once per session and kind of
// confinement (default, read-only, with network), builds the sandbox around
// itself — fresh user, mount, PID, IPC and network namespaces, /proc
// remounted, $TACK_HOME hidden, git internals read-only, Landlock, seccomp,
// no capabilities to pass on — and then starts each command as its own
// child: one fork and exec, about a millisecond.
//
// The helper is PID 1 of its namespace. When it ends, the kernel kills
// every process in it; it ends when tack closes the socket, and tack's
// death closes it (and sends the helper SIGKILL as its parent-death
// signal), so no command outlives tack. A command's processes are its own
// session and process group, which tack signals through the helper.
//
// Unconfined commands (full-access, or let out of the sandbox) have a
// helper too, the supervisor: no namespaces and no sandbox, but the child
// subreaper of everything its commands start, so that a process that
// leaves its group or whose parent exits is still its descendant. When
// tack dies the socket closes, and the supervisor kills every descendant
// before it exits.

// helperSocket is the descriptor the helper talks to tack on.
const helperSocket = 3

// serveHelper reads the setup, builds the sandbox and serves start and
// signal requests until tack closes the socket.
func serveHelper() int {
	c, err := newConn(os.NewFile(helperSocket, "sandbox-socket"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox helper:", err)
		return 1
	}
	var req request
	if err := c.receive(&req); err != nil || req.Op != "setup" || req.Setup == nil {
		fmt.Fprintln(os.Stderr, "sandbox helper: no setup request")
		return 1
	}
	mechanism, err := "none", error(nil)
	if req.Setup.Unconfined {
		err = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	} else {
		mechanism, err = confine(*req.Setup)
	}
	if err != nil {
		_ = c.send(reply{Op: "failed", Error: err.Error()})
		return 1
	}
	h := &helper{c: c, procs: map[int]uint64{}, cmds: map[uint64]command{}}
	if err := c.send(reply{Op: "ready", Mechanism: mechanism}); err != nil {
		return 1
	}
	h.serve()
	endDescendants()
	return 0
}

// confine builds the sandbox around this process, in order: mounts while
// it still may mount, then Landlock (which forbids mounting and sets
// no-new-privileges), then the seccomp filter, then the capabilities its
// children could inherit are dropped.
func confine(s setup) (string, error) {
	if err := mountLayout(s.Layout, s.Confinement); err != nil {
		return "", err
	}
	if !s.Confinement.Network {
		if err := loopbackUp(); err != nil {
			return "", fmt.Errorf("bring up loopback: %w", err)
		}
	}
	abi, err := landlockRestrict(s.Layout, s.Confinement)
	if err != nil {
		return "", err
	}
	mechanism := fmt.Sprintf("Linux namespaces + Landlock ABI %d", abi)
	if !s.Confinement.Network {
		filtered, err := filterSockets()
		if err != nil {
			return "", fmt.Errorf("install seccomp filter: %w", err)
		}
		if filtered {
			mechanism += " + seccomp"
		}
	}
	if err := dropInheritableCaps(); err != nil {
		return "", fmt.Errorf("drop capabilities: %w", err)
	}
	return mechanism, nil
}

// helper starts and reaps the commands of one sandbox.
type helper struct {
	c   *conn
	wmu sync.Mutex // serialises replies

	mu sync.Mutex
	// procs maps the pid of each running command's first process to the
	// request id tack knows it by; cmds maps the id to the command (its
	// process group and output pipes) until tack releases it, since its
	// processes outlive the first one.
	procs map[int]uint64
	cmds  map[uint64]command
}

func (h *helper) reply(r reply) {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	_ = h.c.send(r)
}

// serve answers requests until the socket closes. Orphans re-parented to
// the helper (PID 1) are reaped too.
func (h *helper) serve() {
	chld := make(chan os.Signal, 16)
	signal.Notify(chld, syscall.SIGCHLD)
	defer signal.Stop(chld)
	go func() {
		for range chld {
			h.reap()
		}
	}()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return
	}
	// Every command is started (and signalled) from this one thread, so all
	// of them share its Landlock domain and may trace and signal each
	// other as processes on one machine can.
	runtime.LockOSThread()
	for {
		var req request
		if err := h.c.receive(&req); err != nil {
			return
		}
		switch req.Op {
		case "start":
			h.start(req, devnull)
		case "signal":
			h.signal(req)
		case "release":
			h.mu.Lock()
			delete(h.cmds, req.ID)
			h.mu.Unlock()
		}
	}
}

// start runs one command in its own session (so it has no controlling
// terminal and its processes form one group).
func (h *helper) start(req request, stdin *os.File) {
	files, err := h.c.takeFiles(2)
	if err != nil {
		h.reply(reply{Op: "started", ID: req.ID, Error: err.Error()})
		return
	}
	defer files[0].Close()
	defer files[1].Close()
	// Hold mu across the fork so that the reaper cannot see the child exit
	// before it is known.
	h.mu.Lock()
	pid, err := syscall.ForkExec(req.Path, req.Args, &syscall.ProcAttr{
		Dir:   req.Dir,
		Env:   req.Env,
		Files: []uintptr{stdin.Fd(), files[0].Fd(), files[1].Fd()},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err == nil {
		h.procs[pid] = req.ID
		h.cmds[req.ID] = command{pgid: pid, pipes: pipeInodes(files)}
	}
	h.mu.Unlock()
	if err != nil {
		h.reply(reply{Op: "started", ID: req.ID, Error: describeStartError(req, err)})
		return
	}
	h.reply(reply{Op: "started", ID: req.ID})
	h.reap() // the child may have exited before it was recorded
}

func describeStartError(req request, err error) string {
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
		if _, serr := os.Stat(req.Dir); serr != nil {
			return fmt.Sprintf("workdir %s is not visible inside the sandbox", req.Dir)
		}
	}
	return fmt.Sprintf("start %s: %v", req.Path, err)
}

// signal sends a signal to every process of a command.
func (h *helper) signal(req request) {
	h.mu.Lock()
	c, ok := h.cmds[req.ID]
	h.mu.Unlock()
	alive := ok && c.signal(syscall.Signal(req.Signal))
	h.reply(reply{Op: "signalled", ID: req.ID, Alive: alive})
}

// reap collects every child that has exited, reporting the commands.
func (h *helper) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
		h.mu.Lock()
		id, ok := h.procs[pid]
		delete(h.procs, pid)
		h.mu.Unlock()
		if !ok {
			continue
		}
		r := reply{Op: "exit", ID: id, Code: ws.ExitStatus()}
		if ws.Signaled() {
			r.Code, r.Signal = -1, int(ws.Signal())
		}
		h.reply(r)
	}
}
