// Package bash is the model-facing shell: the bash, bash_output and bash_kill
// tools. The tools shape arguments and text; every process concern (process
// groups, timeouts, output capture) lives behind Executor, so a sandboxed
// executor can replace Local without changing what the model sees.
package bash

import (
	"embed"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the package's tools, as
// tools.ProseFile reads it.
//
//go:embed bash.md output.md kill.md
var specFiles embed.FS

// Timeout bounds of a foreground command.
const (
	DefaultTimeout = 120 * time.Second
	MaxTimeout     = 600 * time.Second
)

// Options configure the bash tools of one session.
type Options struct {
	// Environ is the parent environment commands start from (os.Environ()
	// at the composition root); provider keys are removed from it.
	Environ []string
	// DefaultTimeout applies when the model gives no timeoutMs; MaxTimeout
	// caps what it may ask for. Zero means DefaultTimeout and MaxTimeout.
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// Sandbox reads what the sandbox refused a failed command, and
	// Escalator asks the user to run it again past that; nil reads or asks
	// nothing.
	Sandbox   RefusalReader
	Escalator Escalator
}

// Tools are the bash tools of one session. They share one table of
// background tasks, which Close ends.
type Tools struct {
	exec Executor
	opts Options
	// bashProse is what the model is told about bash, with opts' timeouts.
	bashProse func() tools.Prose

	mu     sync.Mutex
	tasks  map[string]*task
	nextID int
	closed bool
	// watchers waits for the goroutines that post completion notices.
	watchers sync.WaitGroup
}

// New makes the bash tools of one session over exec.
func New(exec Executor, opts Options) *Tools {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = MaxTimeout
	}
	return &Tools{exec: exec, opts: opts, bashProse: bashProse(opts.DefaultTimeout, opts.MaxTimeout), tasks: map[string]*task{}}
}

// bashProses hold bash's prose for each pair of timeouts, read once: every
// session and subagent has the same ones.
var bashProses sync.Map

// bashProse is what the model is told about bash with these timeouts.
func bashProse(def, max time.Duration) func() tools.Prose {
	key := [2]time.Duration{def, max}
	if p, ok := bashProses.Load(key); ok {
		return p.(func() tools.Prose)
	}
	p, _ := bashProses.LoadOrStore(key, tools.ProseFile(specFiles, "bash.md",
		"{{default_ms}}", strconv.FormatInt(def.Milliseconds(), 10),
		"{{max_ms}}", strconv.FormatInt(max.Milliseconds(), 10),
		"{{tail_bytes}}", strconv.Itoa(DefaultTailBytes), "{{spill_mib}}", strconv.Itoa(DefaultSpillBytes>>20)))
	return p.(func() tools.Prose)
}

// All lists the tools in registration order: bash, bash_output, bash_kill.
func (ts *Tools) All() []tools.Tool {
	return []tools.Tool{bashTool{ts}, outputTool{ts}, killTool{ts}}
}

// Close kills every running background task and waits until they have
// ended. No completion notices are posted after Close begins, and the
// tools refuse new commands.
func (ts *Tools) Close() {
	ts.mu.Lock()
	ts.closed = true
	running := make([]*task, 0, len(ts.tasks))
	for _, t := range ts.tasks {
		running = append(running, t)
	}
	ts.mu.Unlock()
	for _, t := range running {
		t.proc.Kill()
	}
	ts.watchers.Wait()
}

var errClosed = errors.New("the bash tools are shut down; no command can run")

// spec turns validated arguments into what the executor runs.
func (ts *Tools) spec(a bashArgs, env *tools.Env) Spec {
	s := Spec{
		Command: a.Command,
		Workdir: workdir(env.Cwd, a.Workdir),
		Env:     commandEnv(ts.opts.Environ, env.SessionID),
	}
	s.SpillDir = env.SpillDir
	if !a.Background {
		s.Timeout = ts.opts.DefaultTimeout
		if a.Timeout > 0 {
			s.Timeout = min(a.Timeout, ts.opts.MaxTimeout)
		}
	}
	return s
}

// workdir resolves the model's workdir against the session cwd.
func workdir(cwd, dir string) string {
	switch {
	case dir == "":
		return cwd
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	default:
		return filepath.Join(cwd, dir)
	}
}

// start runs spec unless the tools are closed.
func (ts *Tools) start(spec Spec) (Process, error) {
	ts.mu.Lock()
	closed := ts.closed
	ts.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	p, err := ts.exec.Start(spec)
	if err != nil {
		return nil, fmt.Errorf("cannot run command: %w", err)
	}
	return p, nil
}
