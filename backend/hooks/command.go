package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// proc is a hook's command under way, in a process group of its own.
type proc struct {
	stdout, stderr *capped
	// first gets the first line of its stdout, once it is complete.
	first chan string
	// done gets what Wait returned, once it has ended.
	done chan error
	// stop ends it and what it started.
	stop context.CancelFunc
}

// startShell starts command in the system's shell in dir, with environ
// and stdin. It runs until it ends or stop is called, whatever the
// context of the call that started it: a command may go on in the
// background after that call.
func startShell(command, dir string, environ []string, stdin []byte) (*proc, error) {
	ctx, stop := context.WithCancel(context.Background())
	cmd := shell(ctx, command)
	cmd.Dir = dir
	cmd.Env = environ
	cmd.Stdin = bytes.NewReader(stdin)
	p := &proc{stdout: &capped{}, stderr: &capped{}, first: make(chan string, 1), done: make(chan error, 1), stop: stop}
	cmd.Stdout, cmd.Stderr = &firstLine{w: p.stdout, line: p.first}, p.stderr
	ownGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd); return nil }
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		stop()
		return nil, err
	}
	go func() {
		p.done <- cmd.Wait()
		stop()
	}()
	return p, nil
}

// runShell runs command as startShell starts it, until it ends or ctx
// does, and returns the first maxOutput bytes of its stdout and stderr.
func runShell(ctx context.Context, command, dir string, environ []string, stdin []byte) (stdout, stderr *capped, err error) {
	p, err := startShell(command, dir, environ, stdin)
	if err != nil {
		return &capped{}, &capped{}, err
	}
	select {
	case err = <-p.done:
	case <-ctx.Done():
		p.stop()
		err = <-p.done
	}
	return p.stdout, p.stderr, err
}

// asyncHead is what a command says on a first line {"async": true}, as
// Claude Code's hooks may: that it goes on in the background, for at
// most asyncTimeout milliseconds.
type asyncHead struct {
	Async   bool `json:"async"`
	Timeout int  `json:"asyncTimeout"`
}

// defaultAsyncTimeout bounds a command that goes on in the background
// after its first line and names no asyncTimeout, as in Claude Code.
const defaultAsyncTimeout = 15 * time.Second

// await waits until p ends, or says on its first line that it goes on in
// the background (head is then set, and p runs on), stopping it if ctx
// ends first; err is what Wait returned.
func (p *proc) await(ctx context.Context) (head *asyncHead, err error) {
	first, cancelled := p.first, ctx.Done()
	for {
		select {
		case err := <-p.done:
			return nil, err
		case line := <-first:
			first = nil
			var h asyncHead
			if json.Unmarshal([]byte(strings.TrimSpace(line)), &h) == nil && h.Async {
				return &h, nil
			}
		case <-cancelled:
			cancelled = nil
			p.stop()
		}
	}
}

// timeout is how long a command that went on in the background may run.
func (h asyncHead) timeout() time.Duration {
	if h.Timeout <= 0 {
		return defaultAsyncTimeout
	}
	return time.Duration(h.Timeout) * time.Millisecond
}

func shell(ctx context.Context, command string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		return exec.CommandContext(ctx, "cmd", "/C", command)
	}
	return exec.CommandContext(ctx, "sh", "-c", command)
}

// firstLine passes what is written to it on to w, and hands line the
// first line written (without its newline) once it is complete.
type firstLine struct {
	w    io.Writer
	line chan<- string
	buf  []byte
	sent bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if !f.sent {
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			f.line <- string(append(f.buf, p[:i]...))
			f.sent, f.buf = true, nil
		} else if len(f.buf) < maxOutput {
			f.buf = append(f.buf, p...)
		}
	}
	return f.w.Write(p)
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
