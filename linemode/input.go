package linemode

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/peterh/liner"
)

// input is one thing read from stdin: a line, the end of input, or Ctrl+C
// pressed at a terminal prompt.
type input struct {
	line      string
	eof       bool
	interrupt bool
	// prompted, when not nil, closes once the reader's next prompt is on
	// screen. The front door waits for it before acting on the input, so
	// nothing the input causes is written before that prompt.
	prompted <-chan struct{}
}

// promptWait bounds the wait for liner's next prompt (a terminal too
// narrow for liner's editing never shows the sign that it is up).
const promptWait = 250 * time.Millisecond

// readPiped sends every line of r on out, then an eof input, then closes
// out. It stops early when done closes. A read blocked on a pipe cannot be
// interrupted, so the goroutine running it may outlive Run until the next
// line arrives or the process exits; it touches nothing of Run's state.
func readPiped(r io.Reader, out chan<- input, done <-chan struct{}) {
	defer close(out)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" || err == nil {
			line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
			if !send(out, input{line: line}, done) {
				return
			}
		}
		if err != nil {
			send(out, input{eof: true}, done)
			return
		}
	}
}

// terminalInput reads lines with liner: editing, history, and Ctrl+C as an
// input instead of a signal.
type terminalInput struct {
	st      *liner.State
	history string
}

// newTerminalInput puts the terminal under liner's control and loads the
// history file, if any.
func newTerminalInput(history string) *terminalInput {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	if history != "" {
		if f, err := os.Open(history); err == nil {
			_, _ = st.ReadHistory(f)
			f.Close()
		}
	}
	return &terminalInput{st: st, history: history}
}

// read prompts for lines until end of input or done, sending each on out,
// then closes out.
func (t *terminalInput) read(out chan<- input, done <-chan struct{}) {
	defer close(out)
	for {
		line, err := t.st.Prompt(Prompt)
		var in input
		switch {
		case errors.Is(err, liner.ErrPromptAborted):
			in = input{interrupt: true}
		case err != nil:
			send(out, input{eof: true}, done)
			return
		default:
			if strings.TrimSpace(line) != "" {
				t.st.AppendHistory(line)
			}
			in = input{line: line}
		}
		in.prompted = watchPrompt(done)
		if !send(out, in, done) {
			return
		}
	}
}

// close saves the history and gives the terminal back.
func (t *terminalInput) close() {
	if t.history != "" {
		if f, err := os.OpenFile(t.history, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
			_, _ = t.st.WriteHistory(f)
			f.Close()
		}
	}
	_ = t.st.Close()
}

// watchPrompt returns a channel that closes once liner's next prompt is
// on screen, or after promptWait. liner writes its prompt and then turns
// the terminal's signal keys off (ISIG) to read Ctrl+C as a key, so their
// going off is the sign; between prompts they are on. Where the terminal
// mode cannot be read the channel closes at once.
func watchPrompt(done <-chan struct{}) <-chan struct{} {
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		deadline := time.After(promptWait)
		for {
			if on, err := signalKeysOn(int(os.Stdin.Fd())); err != nil || !on {
				return
			}
			select {
			case <-tick.C:
			case <-deadline:
				return
			case <-done:
				return
			}
		}
	}()
	return shown
}

func send(out chan<- input, in input, done <-chan struct{}) bool {
	select {
	case out <- in:
		return true
	case <-done:
		return false
	}
}
