package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// readyTimeout bounds how long a helper may take to build its sandbox. It
// only bounds a failure: a helper normally answers within tens of
// milliseconds, but a race-detector test binary on a loaded machine is slow.
const readyTimeout = 60 * time.Second

// platform holds the helpers of a session, one per kind of confinement.
type platform struct {
	mu     sync.Mutex
	slots  map[helperKind]*slot
	closed bool
	// noSupervisor is why the supervisor of unconfined commands could not
	// start; it is not tried again.
	noSupervisor error
}

// helperKind is what a helper's commands get: a confinement, or none at
// all (the supervisor of unconfined commands).
type helperKind struct {
	Confinement
	unconfined bool
}

// slot is the helper serving one kind. Its mutex is held while a helper
// starts, so concurrent commands wait for the same one; h is written with
// the platform's mutex held too, so that Close sees every helper without
// waiting for one that is starting.
type slot struct {
	mu sync.Mutex
	h  *helperProc
}

// errClosed refuses commands once the session's sandbox is closed.
var errClosed = errors.New("the sandbox is closed: the session is ending")

// probe checks what can be checked without starting a helper: Landlock, and
// that this process may create the namespaces (a quick fork and exec of
// true).
func probe(o Options) Status {
	if _, err := landlockABI(); err != nil {
		return Status{Reason: err.Error()}
	}
	if err := probeNamespaces(); err != nil {
		return Status{Reason: err.Error()}
	}
	return Status{Active: true, Mechanism: "Linux namespaces + Landlock"}
}

func probeNamespaces() error {
	path, err := exec.LookPath("true")
	if err != nil {
		return nil // the helper's own start will tell
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = helperAttr(helperKind{})
	cmd.SysProcAttr.AmbientCaps = nil
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cannot create user namespaces (%v); a container or kernel setting forbids them", err)
	}
	return nil
}

// helperAttr starts the helper in its namespaces, mapped to the user tack
// runs as, with the capabilities it needs to build the sandbox, in its own
// process group (the terminal's Ctrl+C is not its business), killed when
// tack dies.
func helperAttr(k helperKind) *syscall.SysProcAttr {
	if k.unconfined {
		// No parent-death signal: the supervisor must outlive tack by the
		// moment it takes to end what tack's commands left behind.
		return &syscall.SysProcAttr{Setpgid: true}
	}
	c := k.Confinement
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
	if !c.Network {
		flags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{capSysAdmin, capSetPCap, capNetAdmin},
		Pdeathsig:   syscall.SIGKILL,
		Setpgid:     true,
	}
}

// Capability numbers (linux/capability.h).
const (
	capSetPCap  = 8
	capNetAdmin = 12
	capSysAdmin = 21
)

// Prewarm starts the default helper in the background, so the first
// command does not wait for it, and so that a sandbox the system forbids is
// known (and reported through Status) before a command needs it.
func (s *Sandbox) Prewarm() {
	if !s.Status().Active {
		return
	}
	go func() {
		if _, err := s.helper(Confinement{}); err != nil {
			return
		}
	}()
}

// Close ends every helper, and with them every command still running. It
// does not wait for a helper that is still starting: that one ends as soon
// as it is ready.
func (s *Sandbox) Close() {
	s.p.mu.Lock()
	s.p.closed = true
	var running []*helperProc
	for _, sl := range s.p.slots {
		if sl.h != nil {
			running = append(running, sl.h)
		}
	}
	s.p.mu.Unlock()
	for _, h := range running {
		h.close()
	}
}

func (s *Sandbox) start(c Command, l Layout) (Process, error) {
	h, err := s.helperOf(helperKind{Confinement: c.Confinement}, l)
	if err != nil {
		return nil, err
	}
	return h.run(c)
}

// StartUnconfined runs c without any confinement (full-access, or a
// command the user let out of the sandbox), under a supervisor that is
// the subreaper of everything c starts: when tack dies, however it dies,
// the supervisor kills every process c left behind, including those that
// left its process group. It needs no sandbox; it fails only when the
// supervisor cannot start, and the caller may then start c itself.
func (s *Sandbox) StartUnconfined(c Command) (Process, error) {
	s.p.mu.Lock()
	err := s.p.noSupervisor
	s.p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	h, err := s.helperOf(helperKind{unconfined: true}, Layout{})
	if err != nil {
		if errors.Is(err, errClosed) {
			return nil, err
		}
		s.p.mu.Lock()
		s.p.noSupervisor = err
		s.p.mu.Unlock()
		return nil, err
	}
	return h.run(c)
}

// helper is the running helper for c, confining to the layout of now.
func (s *Sandbox) helper(c Confinement) (*helperProc, error) {
	// The layout makes the workspace's cache directory: a prewarm whose
	// goroutine runs only after Close must not make it in a home the
	// session's owner is removing.
	s.p.mu.Lock()
	closed := s.p.closed
	s.p.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	return s.helperOf(helperKind{Confinement: c}, s.Layout())
}

// helperOf is the running helper of kind k confining to layout (none for
// the unconfined kind), started (or restarted, when what the sandbox must
// protect has changed, say by a git init) as needed.
func (s *Sandbox) helperOf(k helperKind, layout Layout) (*helperProc, error) {
	s.p.mu.Lock()
	if s.p.closed {
		s.p.mu.Unlock()
		return nil, errClosed
	}
	if s.p.slots == nil {
		s.p.slots = map[helperKind]*slot{}
	}
	sl := s.p.slots[k]
	if sl == nil {
		sl = &slot{}
		s.p.slots[k] = sl
	}
	s.p.mu.Unlock()

	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.h != nil && sl.h.alive() && sameLayout(sl.h.layout, layout) {
		return sl.h, nil
	}
	if sl.h != nil {
		sl.h.retire()
		s.setHelper(sl, nil)
	}
	h, err := startHelper(s.opts.Executable, layout, k)
	if err != nil {
		var se *setupError
		if errors.As(err, &se) && !k.unconfined {
			s.fail(se.Error())
		}
		return nil, err
	}
	if !s.setHelper(sl, h) {
		h.close()
		return nil, errClosed
	}
	if !k.unconfined {
		s.setMechanism(h.mechanism)
	}
	return h, nil
}

// setHelper records h as sl's helper, unless the sandbox was closed.
func (s *Sandbox) setHelper(sl *slot, h *helperProc) bool {
	s.p.mu.Lock()
	defer s.p.mu.Unlock()
	if s.p.closed && h != nil {
		return false
	}
	sl.h = h
	return true
}

func sameLayout(a, b Layout) bool {
	return slices.Equal(a.Writable, b.Writable) && slices.Equal(a.Hidden, b.Hidden) &&
		slices.Equal(a.Exposed, b.Exposed) && slices.Equal(a.Protected, b.Protected) &&
		slices.Equal(a.Pinned, b.Pinned) && a.TempDir == b.TempDir
}

// setupError is a helper that could not build its sandbox: the system does
// not allow it, and the session goes on without one.
type setupError struct{ reason string }

func (e *setupError) Error() string { return e.reason }

// helperProc is tack's side of one helper.
type helperProc struct {
	cmd       *exec.Cmd
	c         *conn
	layout    Layout
	mechanism string
	stderr    *firstBytes
	dead      chan struct{} // closed when the connection ends

	wmu sync.Mutex // serialises requests

	mu      sync.Mutex
	procs   map[uint64]*process
	nextID  uint64
	retired bool
}

// startHelper starts the helper and waits until it has built its sandbox.
func startHelper(exe string, l Layout, k helperKind) (*helperProc, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, &setupError{"cannot find tack's own executable to start the sandbox helper: " + err.Error()}
		}
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("make the sandbox socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "sandbox"), os.NewFile(uintptr(fds[1]), "sandbox-helper")
	h := &helperProc{layout: l, stderr: &firstBytes{max: 4096}, dead: make(chan struct{}), procs: map[uint64]*process{}}
	h.cmd = exec.Command(exe, "-test.run=^$", helperArg)
	h.cmd.Env = []string{}
	h.cmd.ExtraFiles = []*os.File{theirs}
	h.cmd.Stderr = h.stderr
	h.cmd.SysProcAttr = helperAttr(k)
	err = h.cmd.Start()
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, &setupError{fmt.Sprintf("cannot start the sandbox helper in new namespaces: %v", err)}
	}
	if h.c, err = newConn(ours); err != nil {
		h.kill()
		return nil, err
	}
	if err := h.handshake(setup{Layout: l, Confinement: k.Confinement, Unconfined: k.unconfined}); err != nil {
		h.kill()
		return nil, err
	}
	go h.read()
	return h, nil
}

// handshake sends the setup and waits for the helper to be ready.
func (h *helperProc) handshake(su setup) error {
	if err := h.c.send(request{Op: "setup", Setup: &su}); err != nil {
		return &setupError{"the sandbox helper did not take its setup: " + err.Error()}
	}
	got := make(chan error, 1)
	go func() {
		var r reply
		err := h.c.receive(&r)
		switch {
		case err != nil:
			got <- &setupError{h.exitReason("the sandbox helper exited before it was ready")}
		case r.Op == "failed":
			got <- &setupError{"the sandbox could not be set up: " + r.Error}
		case r.Op != "ready":
			got <- &setupError{"the sandbox helper answered " + r.Op + " instead of ready"}
		default:
			h.mechanism = r.Mechanism
			got <- nil
		}
	}()
	t := time.NewTimer(readyTimeout)
	defer t.Stop()
	select {
	case err := <-got:
		return err
	case <-t.C:
		return &setupError{fmt.Sprintf("the sandbox helper was not ready after %s", readyTimeout)}
	}
}

// exitReason explains a helper that went away, with what it wrote.
func (h *helperProc) exitReason(what string) string {
	h.c.close()
	err := h.cmd.Wait()
	msg := what
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	if tail := strings.TrimSpace(h.stderr.String()); tail != "" {
		msg += ": " + tail
	} else {
		msg += "; the program it runs as must call sandbox.ServeIfHelper first thing"
	}
	return msg
}

// read dispatches the helper's replies until the connection ends; then
// every command still running is reported killed, which it is: the helper
// and its namespace are gone.
func (h *helperProc) read() {
	defer func() {
		close(h.dead)
		h.mu.Lock()
		procs := h.procs
		h.procs = map[uint64]*process{}
		h.mu.Unlock()
		for _, p := range procs {
			p.finish(Exit{Code: -1, Signal: syscall.SIGKILL})
			close(p.replies)
		}
		_ = h.cmd.Wait()
	}()
	for {
		var r reply
		if err := h.c.receive(&r); err != nil {
			return
		}
		h.mu.Lock()
		p := h.procs[r.ID]
		h.mu.Unlock()
		if p == nil {
			continue
		}
		switch r.Op {
		case "exit":
			p.finish(Exit{Code: r.Code, Signal: syscall.Signal(r.Signal)})
		case "started", "signalled":
			p.replies <- r
		}
	}
}

func (h *helperProc) alive() bool {
	select {
	case <-h.dead:
		return false
	default:
		return true
	}
}

func (h *helperProc) send(r request, files ...*os.File) error {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	return h.c.send(r, files...)
}

// run starts c in the helper's sandbox.
func (h *helperProc) run(c Command) (Process, error) {
	h.mu.Lock()
	h.nextID++
	p := &process{h: h, id: h.nextID, replies: make(chan reply, 1), exited: make(chan struct{})}
	h.procs[p.id] = p
	h.mu.Unlock()
	err := h.send(request{Op: "start", ID: p.id, Path: c.Path, Args: c.Args, Dir: c.Dir, Env: c.Env}, c.Stdout, c.Stderr)
	if err != nil {
		h.forget(p.id)
		return nil, fmt.Errorf("the sandbox helper is gone: %w", err)
	}
	r, ok := <-p.replies
	switch {
	case !ok:
		return nil, errors.New("the sandbox helper died while starting the command")
	case r.Error != "":
		h.forget(p.id)
		return nil, errors.New(r.Error)
	}
	return p, nil
}

// forget drops a command; a retired helper with none left ends.
func (h *helperProc) forget(id uint64) {
	h.mu.Lock()
	delete(h.procs, id)
	done := h.retired && len(h.procs) == 0
	h.mu.Unlock()
	if done {
		h.close()
	}
}

// retire stops new commands from using h; it ends when its last command
// has.
func (h *helperProc) retire() {
	h.mu.Lock()
	h.retired = true
	idle := len(h.procs) == 0
	h.mu.Unlock()
	if idle {
		h.close()
	}
}

// close ends the helper by closing its socket: it exits, and the kernel
// kills what still runs in its namespace.
func (h *helperProc) close() { h.c.close() }

func (h *helperProc) kill() {
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
	if h.c != nil {
		h.c.close()
	}
}

// process is one command in a helper.
type process struct {
	h       *helperProc
	id      uint64
	replies chan reply

	once   sync.Once
	exit   Exit
	exited chan struct{}
}

func (p *process) finish(e Exit) {
	p.once.Do(func() {
		p.exit = e
		close(p.exited)
	})
}

func (p *process) Wait() Exit {
	<-p.exited
	return p.exit
}

func (p *process) Signal(sig syscall.Signal) bool {
	if err := p.h.send(request{Op: "signal", ID: p.id, Signal: int(sig)}); err != nil {
		return false
	}
	r, ok := <-p.replies
	return ok && r.Alive
}

func (p *process) Release() {
	_ = p.h.send(request{Op: "release", ID: p.id})
	p.h.forget(p.id)
}

// firstBytes keeps the first max bytes written to it (the helper's
// complaint, if any).
type firstBytes struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *firstBytes) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *firstBytes) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
