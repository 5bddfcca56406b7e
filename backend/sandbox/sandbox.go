// Package sandbox confines the commands tack runs, by the operating system
// rather than by reading shell text: writes only in the workspace, the temp
// directory, the session's spill directory, the workspace's private build
// cache (caches.go) and directories the user adds;
// .git/hooks, .git/config and shell start-up files read-only inside them;
// $TACK_HOME (credentials, other sessions) unreadable; no network unless a
// command is allowed it; and every process a command starts dies with tack.
//
// On Linux the confinement is a helper process in fresh user, mount, PID,
// IPC and network namespaces with Landlock and a seccomp filter (see
// helper_linux.go for why it is a long-lived helper); on macOS it is a
// sandbox-exec profile per command. Unconfined commands get a supervisor
// on Linux that kills what they leave behind when tack dies. Elsewhere, or
// where the kernel forbids it, Status says why there is no sandbox and
// Start refuses: the caller must then ask the user before running
// anything, never run silently unconfined.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
)

// Confinement is what one command may do beyond reading. The zero value is
// the default sandbox: writes in the writable roots, no network.
type Confinement struct {
	// ReadOnly forbids every write, the workspace's too; the command gets a
	// private, throw-away temp directory.
	ReadOnly bool
	// Network lets the command reach the network (and unix sockets).
	Network bool
}

// Options describe one session's sandbox. Paths need not exist; those that
// do not are left out.
type Options struct {
	// Workspace is the session's directory: writable.
	Workspace string
	// TempDir is the system temp directory: writable.
	TempDir string
	// SpillDir receives the session's spilled outputs: writable, and
	// readable although it lies inside Home, once it exists (a helper
	// started before it existed is replaced by one that sees it).
	SpillDir string
	// Writable are more directories the user allows writes in
	// (sandbox.writable in config.toml).
	Writable []string
	// Caches is where each workspace's commands keep their private build
	// caches (CacheRoot): the workspace's is made and writable, and
	// commands that may write get GOCACHE and the like moved there (see
	// caches.go). Empty gives none.
	Caches string
	// Home is $TACK_HOME: hidden (credentials, other sessions).
	Home string
	// Hidden are more files and directories commands may not read
	// (sandbox.deny_read in config.toml).
	Hidden []string
	// ReadOnly are files and directories inside writable ones that
	// commands may read but not change (what Edit deny rules name).
	ReadOnly []string
	// UserHome is $HOME; its shell start-up files stay read-only when a
	// writable root contains them.
	UserHome string
	// Executable is the program that serves as the sandbox helper: tack
	// itself, or a test binary whose TestMain calls ServeIfHelper.
	// Empty means os.Executable.
	Executable string
	// Disabled, when set, turns the sandbox off with this reason (the
	// config switch, and tests forcing the fallback).
	Disabled string
	// OnUnavailable, when set, hears once why the sandbox turned off after
	// New: the system refused what the quick check could not try.
	OnUnavailable func(reason string)
}

// Status says whether commands can be confined, and how or why not.
type Status struct {
	Active bool
	// Mechanism names what confines commands ("Linux namespaces + Landlock
	// ABI 7 + seccomp").
	Mechanism string
	// Reason says why there is no sandbox, when Active is false.
	Reason string
}

// Label is the short form the status row shows: "sandboxed" or
// "no sandbox".
func (s Status) Label() string {
	if s.Active {
		return "sandboxed"
	}
	return "no sandbox"
}

// Command is one program to run confined. Stdin is /dev/null; Stdout and
// Stderr are the write ends the command gets (the caller closes its copies
// after Start).
type Command struct {
	// Path is the absolute path of the program; Args its argv, Args[0]
	// included.
	Path string
	Args []string
	Dir  string
	// Env is the complete environment.
	Env            []string
	Stdout, Stderr *os.File
	Confinement
}

// Process is a started command.
type Process interface {
	// Signal sends sig to the command's process group and reports whether
	// any process was there to receive it.
	Signal(sig syscall.Signal) bool
	// Wait waits for the command's first process to exit and says how.
	Wait() Exit
	// Release says nothing more will be signalled; the group's record is
	// dropped, so a later process reusing its id is never signalled.
	Release()
}

// Exit is how a command's first process ended.
type Exit struct {
	// Code is the exit status; -1 when Signal is set.
	Code int
	// Signal is the signal that ended it, or 0.
	Signal syscall.Signal
}

// ErrUnavailable is wrapped by Start's error when there is no sandbox.
var ErrUnavailable = errors.New("no sandbox")

// Sandbox confines the commands of one session. It is safe for concurrent
// use.
type Sandbox struct {
	opts Options
	// probed is closed once status holds the probe's finding; probing
	// starts the probe, once.
	probed  chan struct{}
	probing sync.Once

	mu     sync.Mutex
	status Status
	// added are directories made writable after New (AddWritable).
	added []string
	p     platform
}

// New prepares the sandbox of a session. Whether this system can confine
// commands at all is checked quickly by a probe that starts a process
// (3–12 ms on a loaded machine, and a fork that copies tack's page tables),
// which a front door starts with Probe once its first frame is out; Status
// starts it if nobody has. What cannot be known without trying is tried by
// Prewarm, or by the first Start.
func New(o Options) *Sandbox {
	s := &Sandbox{opts: o, probed: make(chan struct{})}
	if o.Disabled != "" {
		s.status = Status{Reason: o.Disabled}
		s.probing.Do(func() { close(s.probed) })
	}
	return s
}

// Probe starts the probe in the background, unless it has started.
func (s *Sandbox) Probe() {
	s.probing.Do(func() {
		go func() {
			st := probe(s.opts)
			s.mu.Lock()
			s.status = st
			s.mu.Unlock()
			close(s.probed)
		}()
	})
}

// Status says whether commands are confined now, once the probe has
// answered.
func (s *Sandbox) Status() Status {
	s.Probe()
	<-s.probed
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Probed is closed once Status no longer waits for the probe. Waiting on
// it does not start the probe.
func (s *Sandbox) Probed() <-chan struct{} { return s.probed }

// Layout is what the sandbox allows, as of now.
func (s *Sandbox) Layout() Layout {
	o := s.opts
	s.mu.Lock()
	o.Writable = slices.Concat(o.Writable, s.added)
	s.mu.Unlock()
	return NewLayout(o)
}

// AddWritable lets the commands started from now on write in dir (the
// user's /add-dir). A command already running keeps the sandbox it
// started in: on Linux its helper is retired, not killed, and serves its
// commands (background tasks too) until the last one ends, while the
// next command gets a helper that sees dir.
func (s *Sandbox) AddWritable(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.added, dir) {
		s.added = append(s.added, dir)
	}
}

// Start runs c confined, with GOCACHE and the like pointing into the
// workspace's private cache unless c is read-only or the user chose the
// cache. It fails, wrapping ErrUnavailable, when there is no
// sandbox; the caller must not then run the command some other way without
// the user's consent. The layout is worked out once a command: the
// caches and the confinement see the same one.
func (s *Sandbox) Start(c Command) (Process, error) {
	st := s.Status()
	if !st.Active {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, st.Reason)
	}
	l := s.Layout()
	if !c.ReadOnly {
		c.Env = s.withCaches(c.Env, l)
	}
	return s.start(c, l)
}

// fail turns the sandbox off for the rest of the session, with reason.
func (s *Sandbox) fail(reason string) {
	<-s.probed
	s.mu.Lock()
	was := s.status.Active
	s.status = Status{Reason: reason}
	s.mu.Unlock()
	if was && s.opts.OnUnavailable != nil {
		s.opts.OnUnavailable(reason)
	}
}

// setMechanism records what confines commands once a helper said so.
func (s *Sandbox) setMechanism(m string) {
	<-s.probed
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status.Active {
		s.status.Mechanism = m
	}
}

// helperArg marks a process started as the sandbox helper. The argument
// before it makes a test binary that forgot to call ServeIfHelper run no
// tests instead of all of them; its helper then fails to start, and says
// so.
const helperArg = "--tack-sandbox-helper"

// ServeIfHelper turns this process into the sandbox helper when tack started
// it as one, and never returns then. Call it first thing in main, and in
// TestMain of every package whose tests run sandboxed commands (through
// snapshots/testkit/sandboxhelper.Main).
func ServeIfHelper() {
	if len(os.Args) != 3 || os.Args[2] != helperArg {
		return
	}
	os.Exit(serveHelper())
}
