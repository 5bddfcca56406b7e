package screen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// chunks is a reader that returns one chunk per Read, as a terminal
// returns what was typed or answered since the last read, then io.EOF.
type chunks [][]byte

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	(*c)[0] = (*c)[0][n:]
	if len((*c)[0]) == 0 {
		*c = (*c)[1:]
	}
	return n, nil
}

// The screen's reader decodes what the terminal sends into the events
// ultraviolet's TerminalReader (bubbletea's reader) makes of the same
// reads, one by one and in the same order: keys in each encoding a
// terminal uses, pastes, focus, mouse, and the terminal's replies.
func TestTheKeyReaderDecodesAsBubbleteasReader(t *testing.T) {
	for _, reads := range []chunks{
		{[]byte("q")},
		{[]byte("hello"), []byte(" world")},
		{[]byte("é字\r\t\x7f\x01")},
		{[]byte("\x1b[A\x1b[1;5C\x1bOH\x1b[3~")},
		{[]byte("\x1b[97;5u"), []byte("\x1b[27;5;13~")},
		{[]byte("\x1bx"), []byte("\x1b")},
		{[]byte("\x1b[200~pasted\nlines\x1b[201~")},
		{[]byte("\x1b[200~in "), []byte("two reads\x1b[201~x")},
		{[]byte("\x1b[I"), []byte("\x1b[O")},
		{[]byte("\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<64;3;4M")},
		{[]byte("\x1b]11;rgb:0000/0000/0000\x07")},
		{[]byte("\x1b]11;rgb:ffff/ffff/ffff\x1b\\q")},
		{[]byte("\x1b[?2026;2$y\x1b[?2027;0$y"), []byte("\x1b[?1u")},
		{[]byte("\x1b[1;5R")},
		{[]byte("x\x1b[1;5R")},
		{[]byte("\x1b]0;\x18q")},
	} {
		label := fmt.Sprintf("%q", bytes.Join(reads, []byte("|")))
		got := scanned(reads)
		want := streamed(t, append(chunks(nil), reads...))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: want %#v, got %#v", label, want, got)
		}
	}
}

// ultraviolet's decoder panics on an 8-bit X10 mouse report at the end of
// a read, and reads a byte past it otherwise (its own reader does the
// same). The screen's reader decodes it as the 7-bit one, and reads what
// follows.
func TestTheKeyReaderReadsAnEightBitX10MouseReport(t *testing.T) {
	want := scanned(chunks{[]byte("\x1b[M !!q")})
	for _, reads := range []chunks{{[]byte("\x9bM !!q")}, {[]byte("\x9bM !!"), []byte("q")}} {
		if got := scanned(reads); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: want what ESC [ M !! q reads, %#v, got %#v", bytes.Join(reads, []byte("|")), want, got)
		}
	}
	if _, ok := want[0].(uv.MouseClickEvent); !ok || len(want) != 2 {
		t.Fatalf("want a mouse click and q from the 7-bit report, got %#v", want)
	}
}

// scanned is what the screen's reader sends for reads, each decoded as it
// arrives, the rest once no more come.
func scanned(reads chunks) []uv.Event {
	var sc scanner
	var got []uv.Event
	collect := func(msg tea.Msg) { got = append(got, msg) }
	var pending []byte
	for _, r := range reads {
		pending = append(pending, r...)
		pending = pending[sc.send(collect, pending, false):]
	}
	sc.send(collect, pending, true)
	return got
}

// streamed is what ultraviolet's TerminalReader sends for reads, all
// of which arrive before its escape timeout: with its default of 50 ms, a
// loaded machine made the oracle cut a DCS string that was still arriving
// (CI, 2026-12-06), which scanned, reading the same bytes, never does.
func streamed(t *testing.T, reads chunks) []uv.Event {
	t.Helper()
	events := make(chan uv.Event)
	done := make(chan error, 1)
	go func() {
		r := uv.NewTerminalReader(&reads, "xterm-256color")
		r.EscTimeout = time.Hour
		done <- r.StreamEvents(context.Background(), events)
		close(events)
	}()
	var out []uv.Event
	for ev := range events {
		out = append(out, ev)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return out
}

// Whatever the terminal sends, in whatever reads it arrives, the screen's
// reader makes of it what ultraviolet's TerminalReader makes: ultraviolet
// is the oracle. Three differences are known and kept out: CSI … _ (a
// Windows console key event, which ultraviolet decodes and a Unix
// terminal does not send), an escape sequence read alone inside a
// paste (ultraviolet looks the whole read up as a key; here it stays
// pasted text), and ESC ] 95 (below).
func FuzzKeyReaderDecodesAsBubbleteasReader(f *testing.F) {
	for _, seed := range []string{"q", "hello world", "\x1b[A\x1b[1;5C", "\x1b[200~a\nb\x1b[201~", "\x1b]11;rgb:0/0/0\x07",
		"\x1b[<0;10;5M", "\x1bx\x1b", "\x1b[1;5R", "é字\r\t\x7f"} {
		f.Add([]byte(seed), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		if len(data) > 1<<10 {
			// ultraviolet's reader decodes everything still pending
			// at each read, and bytes it waits on (a run of 0xd9s,
			// each the start of a character that never comes) stay
			// pending: 12 KB in reads of a byte took it 1.4 s, and
			// longer inputs on a loaded machine passed the fuzzer's
			// 10 s, which it calls a hang (CI, 2026-12-06). A
			// terminal's reads are not held that long: tack decodes
			// what is pending once 50 ms pass without one.
			t.Skip("longer than the oracle reads in good time")
		}
		if bytes.Contains(data, []byte("_")) {
			t.Skip("a CSI … _: a known difference")
		}
		if bytes.Contains(data, []byte("\x9bM")) {
			t.Skip("an 8-bit X10 mouse report, on which ultraviolet's reader panics")
		}
		if bytes.Contains(data, []byte("\x1b]95")) || bytes.Contains(data, []byte("\x9d95")) {
			// Found by the fuzzer on 2026-12-06: ultraviolet makes a
			// ctrl+space key release of ESC ] 95 BEL, in one read or
			// many, and of its 8-bit form (0x9d, found the same day),
			// which no terminal sends for a key (ESC ] 94 and ESC ] 99
			// stay unknown OSC events there, as here).
			t.Skip("OSC 95: a known difference")
		}
		var reads chunks
		for rest, n := data, int(cut%16)+1; len(rest) > 0; rest = rest[min(n, len(rest)):] {
			reads = append(reads, append([]byte(nil), rest[:min(n, len(rest))]...))
		}
		want := streamed(t, append(chunks(nil), reads...))
		if slices.ContainsFunc(want, func(ev uv.Event) bool { _, ok := ev.(uv.PasteStartEvent); return ok }) {
			// Not only ESC [ 200 ~ starts one: the decoder reads
			// ESC [ 20 > 0 ~ as the same sequence.
			t.Skip("a paste: a known difference")
		}
		if got := scanned(reads); !reflect.DeepEqual(got, want) {
			t.Errorf("%q in reads of %d: want %#v, got %#v", data, int(cut%16)+1, want, got)
		}
	})
}
