package linemode

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"

	"github.com/tack-agent/tack/views/textfmt"
)

// ExitOutputClosed is the exit status once the reader of stdout has gone
// (`tack -p task | head -1`): 128 + SIGPIPE, what a shell reports for any
// program a closed pipe ended.
const ExitOutputClosed = 141

// output is stdout as print mode and line mode write it: whole writes
// under one lock (the printer and the stdin reader both answer), and the
// first write that fails (a reader gone, EPIPE; a full disk, ENOSPC) is
// kept, closes broken and ends writing, so that no half line follows.
type output struct {
	mu     sync.Mutex
	w      io.Writer
	err    error
	broken chan struct{}
}

func newOutput(w io.Writer) *output { return &output{w: w, broken: make(chan struct{})} }

func (o *output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(b)
	if err != nil {
		o.err = err
		close(o.broken)
	}
	return n, err
}

// Err is the write that failed, nil while none has.
func (o *output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// closed reports whether err is stdout's reader gone: no one is left to
// tell, so tack stops quietly.
func closed(err error) bool { return errors.Is(err, syscall.EPIPE) }

// OutputFailed is the exit status after the write to stdout that failed
// with err, and says on stderr what went wrong unless the reader just
// went away.
func OutputFailed(err error, stderr io.Writer) int {
	if closed(err) {
		return ExitOutputClosed
	}
	fmt.Fprintln(stderr, "tack: "+textfmt.SanitizeLine(fmt.Sprintf(
		"could not write to stdout (%v), so tack stopped; make room where stdout goes or send it elsewhere", err)))
	return 1
}
