// Package vtfeed passes a program's output to the x/vt emulator, changing
// the one thing tack sends that x/vt parses unlike a real terminal in
// UTF-8 mode: an OSC string (a window title, a hyperlink) holding a
// character whose UTF-8 encoding has the byte 0x9C, such as 本, 한 or ✅.
// x/vt takes that byte for the 8-bit string terminator, ends the string
// there and prints the rest of it on the screen; tmux and xterm decode
// UTF-8 first and see one character. snapshots/tmuxdiff pins the
// difference (its known differences) and checks that the screens agree
// through this package.
package vtfeed

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

const (
	esc = 0x1b
	bel = 0x07
	st  = 0x9c // the 8-bit string terminator, and a UTF-8 continuation byte
)

// Writer passes what is written to it on to an emulator. An OSC string
// with a 0x9C byte inside a character does not reach the emulator as it
// is: a window title (OSC 0, 1 or 2) is reported to Title instead, and any
// other has those characters percent-encoded, which leaves a hyperlink's
// address the same address. Everything else passes unchanged, an ESC
// once the byte after it has come.
type Writer struct {
	out   io.Writer
	title func(string)
	state state
	osc   []byte // the open OSC string, from its ESC ]
}

type state int

const (
	ground   state = iota
	afterESC       // an ESC was held back: it may begin an OSC string
	inOSC
)

// New returns a Writer that writes to out and reports the titles it keeps
// from out to title (nil: dropped).
func New(out io.Writer, title func(string)) *Writer {
	return &Writer{out: out, title: title}
}

// Write passes p on, holding back an OSC string until it ends. It returns
// len(p) unless out fails.
func (w *Writer) Write(p []byte) (int, error) {
	var pass []byte
	for _, c := range p {
		pass = w.step(c, pass)
	}
	if _, err := w.out.Write(pass); err != nil {
		return 0, err
	}
	return len(p), nil
}

// step takes the byte c and returns pass with what to pass on added.
func (w *Writer) step(c byte, pass []byte) []byte {
	switch w.state {
	case afterESC:
		if c == ']' {
			w.state, w.osc = inOSC, []byte{esc, ']'}
			return pass
		}
		w.state = ground
		return w.step(c, append(pass, esc))
	case inOSC:
		n := len(w.osc)
		if n > 2 && w.osc[n-1] == esc && c != '\\' {
			// An ESC that is not ST's cuts the string short, as the
			// emulator sees it too, and begins the next sequence.
			pass = append(pass, w.osc[:n-1]...)
			w.state, w.osc = afterESC, nil
			return w.step(c, pass)
		}
		w.osc = append(w.osc, c)
		if end, ok := w.oscEnd(); ok {
			pass = append(pass, w.finish(end)...)
		}
		return pass
	}
	if c == esc {
		w.state = afterESC
		return pass
	}
	return append(pass, c)
}

// oscEnd reports whether the open OSC string just ended, and where its
// text ends: BEL and ESC \ end it, and so does a 0x9C that is not inside
// a character.
func (w *Writer) oscEnd() (int, bool) {
	n := len(w.osc)
	switch c := w.osc[n-1]; {
	case c == bel:
		return n - 1, true
	case c == '\\' && w.osc[n-2] == esc:
		return n - 2, true
	case c == st && !insideRune(w.osc[2:n-1]):
		return n - 1, true
	}
	return 0, false
}

// finish closes the OSC string held, whose text ends at end, and returns
// what to pass on.
func (w *Writer) finish(end int) []byte {
	held, text := w.osc, w.osc[2:end]
	w.state, w.osc = ground, nil
	if !bytes.Contains(text, []byte{st}) {
		return held
	}
	if kind, rest, ok := bytes.Cut(text, []byte(";")); ok && len(kind) == 1 && kind[0] >= '0' && kind[0] <= '2' {
		if w.title != nil {
			w.title(string(rest))
		}
		return nil
	}
	return append(append([]byte{esc, ']'}, percentEncode(text)...), held[end:]...)
}

// insideRune reports whether b ends inside a UTF-8 character: its last
// lead byte announces more continuation bytes than follow it.
func insideRune(b []byte) bool {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			need := 0
			switch {
			case b[i]&0xe0 == 0xc0:
				need = 2
			case b[i]&0xf0 == 0xe0:
				need = 3
			case b[i]&0xf8 == 0xf0:
				need = 4
			}
			return len(b)-i < need
		}
	}
	return false
}

// percentEncode writes each character of text holding a 0x9C byte as
// %XX escapes.
func percentEncode(text []byte) []byte {
	var out []byte
	for len(text) > 0 {
		_, n := utf8.DecodeRune(text)
		if bytes.IndexByte(text[:n], st) >= 0 {
			for _, b := range text[:n] {
				out = fmt.Appendf(out, "%%%02X", b)
			}
		} else {
			out = append(out, text[:n]...)
		}
		text = text[n:]
	}
	return out
}
