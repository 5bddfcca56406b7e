package screen

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// input reads the terminal's keys for the program in place of bubbletea's
// reader. That one waits in epoll_wait on a thread of its own, hands each
// read to a goroutine that decodes it, which hands each event to the
// program's loop; here one goroutine reads the terminal, opened a second
// time in non-blocking mode, through Go's network poller, decodes what it
// read and sends the events to the program (Send), where bubbletea turns
// them into the same messages as from its own reader (keys, pastes,
// focus, mouse, the terminal's replies).
//
// The terminal is read only while the screen holds it: stop interrupts
// the reader before the terminal is given back (every byte read until then
// goes to the program, none after), start runs a new one.
type input struct {
	f *os.File // the terminal, a description of tack's own

	mu       sync.Mutex
	stopping bool          // the running reader is to stop; the read deadline is stop's
	done     chan struct{} // closed when the running reader has stopped; nil when none runs
	closed   bool
}

// escWait is how long a sequence that may go on (a lone Esc, or the first
// part of a longer one) waits for the rest before it is decoded as it is:
// ultraviolet's DefaultEscTimeout, which bubbletea's reader uses.
const escWait = uv.DefaultEscTimeout

// start reads the terminal until stop, sending what it decodes to send.
func (in *input) start(send func(tea.Msg)) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.done != nil || in.closed {
		return
	}
	in.stopping = false
	done := make(chan struct{})
	in.done = done
	go func() {
		defer close(done)
		in.read(send)
	}()
}

// read is the reader: it reads, decodes and sends until stop.
func (in *input) read(send func(tea.Msg)) {
	var sc scanner
	var pending []byte // bytes read and not decoded yet: a sequence that may go on
	buf := make([]byte, 4096)
	for {
		in.mu.Lock()
		if in.stopping {
			in.mu.Unlock()
			sc.send(send, pending, true)
			return
		}
		var deadline time.Time
		if len(pending) > 0 {
			deadline = time.Now().Add(escWait)
		}
		_ = in.f.SetReadDeadline(deadline)
		in.mu.Unlock()
		n, err := in.f.Read(buf)
		pending = append(pending, buf[:n]...)
		switch {
		case err == nil:
			pending = pending[sc.send(send, pending, false):]
		case errors.Is(err, os.ErrDeadlineExceeded):
			// The wait for the rest of a sequence is over, or stop
			// interrupted the read: what is there is decoded as it is
			// (and the loop ends if it was stop).
			pending = pending[sc.send(send, pending, true):]
		default:
			// The terminal is gone (hung up, or it failed): nothing can
			// be typed any more, so the program ends, as it did when
			// bubbletea read the keys (see inputEndedMsg).
			sc.send(send, pending, true)
			if !in.isStopping() {
				send(inputEndedMsg{err: readError(err)})
			}
			return
		}
	}
}

// isStopping reports whether stop or close asked the reader to end.
func (in *input) isStopping() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.stopping
}

// inputEndedMsg says the terminal can no longer be read: it hung up (err
// nil) or a read failed. The screen ends the program; Screen.InputErr
// reports err.
type inputEndedMsg struct{ err error }

// readError is err unless it says the terminal hung up: a read then finds
// the input's end, or EIO once the other side of a pseudo-terminal closed.
func readError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) {
		return nil
	}
	return err
}

// stop interrupts the reader and returns once it has stopped reading;
// what it decoded has gone to the program by then.
func (in *input) stop() {
	in.mu.Lock()
	done := in.done
	if done == nil {
		in.mu.Unlock()
		return
	}
	in.stopping = true
	_ = in.f.SetReadDeadline(time.Now())
	in.mu.Unlock()
	<-done
	in.mu.Lock()
	in.done = nil
	in.mu.Unlock()
}

// close ends the reader without waiting for it (a view that panics closes
// the screen from the program's loop, to which the reader may be sending)
// and closes the terminal's second description: nothing reads it after.
// Closing again does nothing.
func (in *input) close() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return nil
	}
	in.closed, in.stopping = true, true
	return in.f.Close()
}

// scanner decodes the bytes read from the terminal into events as
// ultraviolet's TerminalReader does (its eventScanner.scanEvents,
// terminal_reader.go, MIT licence, Copyright (c) 2023-2025 Charmbracelet,
// Inc), for a terminal on Unix: ultraviolet's EventDecoder decodes each
// sequence, a bracketed paste is gathered into one event, and a sequence
// that may go on waits for more input until the wait is over. Its key
// table, which the reader looks a whole read up in first, decodes every
// sequence as the decoder does but one kind: CSI 1;<mod> R read alone is
// F3 with modifiers there, and both that key and a cursor position report
// from the decoder (see f3).
type scanner struct {
	dec   uv.EventDecoder
	paste []byte // the paste under way; nil when none is
}

// send decodes buf, sends its events and returns how many bytes it
// decoded. expired says no more input is coming for a sequence that may
// go on.
func (sc *scanner) send(send func(tea.Msg), buf []byte, expired bool) int {
	n, events := sc.scan(buf, expired)
	for _, ev := range events {
		send(ev)
	}
	return n
}

func (sc *scanner) scan(buf []byte, expired bool) (total int, events []uv.Event) {
	if len(buf) == 0 {
		return 0, nil
	}
	if k, ok := f3(buf); ok {
		return len(buf), []uv.Event{k}
	}
	for len(buf) > 0 {
		esc := buf[0] == ansi.ESC
		n, event := sc.decode(buf)
		if sc.paste != nil {
			if _, ok := event.(uv.PasteEndEvent); !ok {
				switch event := event.(type) {
				case uv.KeyPressEvent:
					if len(event.Text) > 0 {
						sc.paste = append(sc.paste, event.Text...)
					} else {
						seq := string(buf[:n])
						// ultraviolet takes CSI … _ for a Windows key
						// event, which a Unix terminal does not send.
						if !(strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "_")) {
							if esc && n <= 2 && !expired {
								return total, events
							}
							sc.paste = append(sc.paste, seq...)
						}
					}
				case uv.UnknownEvent:
					if !expired {
						return total, events
					}
				}
				buf = buf[n:]
				total += n
				continue
			}
		}
		switch event.(type) {
		case uv.UnknownEvent:
			if !expired {
				return total, events
			}
			events = append(events, event)
			buf = buf[n:]
			total += n
			continue
		case uv.PasteStartEvent:
			sc.paste = []byte{}
		case uv.PasteEndEvent:
			var paste []rune
			for len(sc.paste) > 0 {
				r, w := utf8.DecodeRune(sc.paste)
				if r != utf8.RuneError {
					paste = append(paste, r)
				}
				sc.paste = sc.paste[w:]
			}
			sc.paste = nil
			events = append(events, uv.PasteEvent{Content: string(paste)})
		}
		if event != nil && !ignored(event) {
			if esc && n <= 2 && !expired {
				return total, events
			}
			if m, ok := event.(uv.MultiEvent); ok {
				events = append(events, m...)
			} else {
				events = append(events, event)
			}
		}
		buf = buf[n:]
		total += n
	}
	return total, events
}

// decode is the decoder's next event in buf and its length. An 8-bit
// CSI X10 mouse report (0x9b M and three bytes; 0x9b is also › typed on a
// CP1252 terminal) is decoded in its 7-bit form, ESC [ M: the decoder
// slices the 8-bit one as if it were that one byte longer, so it read a
// byte past the report or, at the end of a read, panicked, which in the
// reader would end tack with the terminal left raw.
func (sc *scanner) decode(buf []byte) (int, uv.Event) {
	if len(buf) > 1 && buf[0] == 0x9b && buf[1] == 'M' {
		n, event := sc.dec.Decode(append([]byte{ansi.ESC, '['}, buf[1:]...))
		return max(n-1, 1), event
	}
	return sc.dec.Decode(buf)
}

// f3 is the key ultraviolet's key table makes of a whole read that is
// CSI 1;<mod> R: F3 with the modifiers mod-1 (xterm's encoding), which the
// decoder also reads as a cursor position report.
func f3(buf []byte) (uv.KeyPressEvent, bool) {
	s, ok := strings.CutPrefix(string(buf), "\x1b[1;")
	if !ok {
		return uv.KeyPressEvent{}, false
	}
	s, ok = strings.CutSuffix(s, "R")
	if !ok {
		return uv.KeyPressEvent{}, false
	}
	mod, err := strconv.Atoi(s)
	if err != nil || mod < 2 || mod > 16 || strconv.Itoa(mod) != s {
		return uv.KeyPressEvent{}, false
	}
	return uv.KeyPressEvent{Code: uv.KeyF3, Mod: uv.KeyMod(mod - 1)}, true
}

// ignoredType is the type of what the decoder returns for a sequence the
// terminal cancelled (CAN or SUB inside it), which ultraviolet's reader
// drops: ultraviolet does not export it.
var ignoredType = func() reflect.Type {
	var d uv.EventDecoder
	_, ev := d.Decode([]byte("\x1b]0;\x18"))
	return reflect.TypeOf(ev)
}()

func ignored(ev uv.Event) bool { return reflect.TypeOf(ev) == ignoredType }
