package bash

import "bytes"

// escapeFilter removes the terminal control sequences of a command's
// output as it is written: colours (SGR), cursor and mode sequences but
// erase-in-line, which termtext.Overprint applies with the line's
// carriage returns when the output is read,
// hyperlinks, titles and other strings (OSC, DCS, APC, PM, SOS), charset
// designations and the other two-byte escapes (ECMA-48). Commands run
// without a terminal and with NO_COLOR, but test runners and build tools
// that force colour (FORCE_COLOR, CLICOLOR_FORCE, --color=always) still
// send them; the model would read them as noise worth 5–15% of the
// output's tokens, and the card could only show them as `\x1b[32m`. What
// is left is what a terminal shows of the output, apart from where a
// cursor movement would have put it.
//
// A sequence may be split between writes; the filter keeps its state.
// A string sequence that runs past maxEscapeString bytes is taken to be
// no sequence at all and passed on as it came, so an unterminated one
// cannot swallow the rest of the output.
type escapeFilter struct {
	state   escapeState
	pending []byte // the bytes of the sequence read so far
}

type escapeState uint8

const (
	ground     escapeState = iota
	escape                 // after ESC
	escapeMid              // after ESC and intermediate bytes
	csi                    // after ESC [
	escString              // in an OSC, DCS, SOS, PM or APC string
	escStringE             // in such a string, after an ESC
)

const (
	esc = 0x1b
	bel = 0x07
	// maxEscapeString bounds a string sequence and a CSI's parameters.
	maxEscapeString = 4096
)

// passes says p holds no sequence and ends none: filter would return it
// whole.
func (f *escapeFilter) passes(p []byte) bool {
	return f.state == ground && bytes.IndexByte(p, esc) < 0
}

// filter appends p without its control sequences to out and returns it.
func (f *escapeFilter) filter(out, p []byte) []byte {
	for i := 0; i < len(p); i++ {
		if f.state == ground {
			// Text runs to the next ESC: copy it whole.
			n := bytes.IndexByte(p[i:], esc)
			if n < 0 {
				return append(out, p[i:]...)
			}
			out = append(out, p[i:i+n]...)
			i += n
			f.state, f.pending = escape, append(f.pending[:0], esc)
			continue
		}
		c := p[i]
		f.pending = append(f.pending, c)
		done, pass := f.step(c)
		switch {
		case pass && c == esc:
			// An ESC cuts the sequence before it short and starts one.
			out = append(out, f.pending[:len(f.pending)-1]...)
			f.state, f.pending = escape, append(f.pending[:0], c)
		case pass || len(f.pending) > maxEscapeString:
			out = append(out, f.pending...)
			f.state, f.pending = ground, f.pending[:0]
		case done:
			f.state, f.pending = ground, f.pending[:0]
		}
	}
	return out
}

// step moves the filter on by the byte c of a sequence: done says the
// sequence ended and is dropped, pass that the bytes read were no
// sequence and go on as they came.
func (f *escapeFilter) step(c byte) (done, pass bool) {
	switch f.state {
	case escape:
		switch {
		case c == '[':
			f.state = csi
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			f.state = escString
		case c >= 0x20 && c <= 0x2f:
			f.state = escapeMid
		case c >= 0x30 && c <= 0x7e:
			return true, false
		default:
			return false, true
		}
	case escapeMid:
		switch {
		case c >= 0x20 && c <= 0x2f:
		case c >= 0x30 && c <= 0x7e:
			return true, false
		default:
			return false, true
		}
	case csi:
		switch {
		case c >= 0x20 && c <= 0x3f:
		case c == 'K' && len(f.pending) <= 4 && (len(f.pending) == 3 || f.pending[2] >= '0' && f.pending[2] <= '2'):
			return false, true // erase in line
		case c >= 0x40 && c <= 0x7e:
			return true, false
		default:
			return false, true
		}
	case escString:
		switch c {
		case bel:
			return true, false
		case esc:
			f.state = escStringE
		}
	case escStringE:
		if c == '\\' {
			return true, false
		}
		// Any other byte after an ESC ends the string, as in xterm, and
		// the ESC starts a sequence of its own.
		f.state, f.pending = escape, append(f.pending[:0], esc, c)
		return f.step(c)
	}
	return false, false
}

// flush is what is left of an unfinished sequence when the output ends:
// an ESC alone or a sequence cut short goes as it came.
func (f *escapeFilter) flush(out []byte) []byte {
	out = append(out, f.pending...)
	f.state, f.pending = ground, f.pending[:0]
	return out
}
