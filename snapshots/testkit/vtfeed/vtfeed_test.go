package vtfeed

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

// splits writes s to w once whole and then cut in two at every byte, and
// calls check after each; fresh makes the writer for a run.
func splits(t *testing.T, s string, fresh func() io.Writer, check func(how string)) {
	t.Helper()
	for cut := 0; cut <= len(s); cut++ {
		w := fresh()
		for _, part := range []string{s[:cut], s[cut:]} {
			if _, err := w.Write([]byte(part)); err != nil {
				t.Fatal(err)
			}
		}
		check(fmt.Sprintf("cut at byte %d", cut))
	}
}

func TestStreamsWithout0x9CInAStringPassUnchanged(t *testing.T) {
	in := "\x1b[?1049h\x1b[H\x1b[2J本 한 ✅ outside strings\x1b]2;plain title\x07" +
		"\x1b]8;id=1;https://e.com/日\x1b\\link\x1b]8;;\x1b\\\x1bM\x1b[95;1m›\x1b[m" +
		"\x1b]2;cut short\x1b[31mX\x1b[m\x1b\x1b]11;?\x07"
	var out bytes.Buffer
	splits(t, in, func() io.Writer { out.Reset(); return New(&out, nil) }, func(how string) {
		if out.String() != in {
			t.Fatalf("%s: want the stream unchanged, got\n%q\nwant\n%q", how, out.String(), in)
		}
	})
}

func TestATitleWith0x9CIsReportedWholeAndKeptFromTheEmulator(t *testing.T) {
	in := "ab\x1b]2;本 한 ✅ title\x07X"
	var em *vt.Emulator
	var titles []string
	splits(t, in, func() io.Writer {
		em, titles = vt.NewEmulator(20, 2), nil
		return New(em, func(s string) { titles = append(titles, s) })
	}, func(how string) {
		if got := strings.TrimSpace(strings.Split(em.String(), "\n")[0]); got != "abX" {
			t.Errorf("%s: want the first row %q, got %q", how, "abX", got)
		}
		if len(titles) != 1 || titles[0] != "本 한 ✅ title" {
			t.Errorf("%s: want the title reported once whole, got %q", how, titles)
		}
	})
}

func TestALinkWith0x9CHasItsAddressPercentEncoded(t *testing.T) {
	in := "\x1b]8;;https://e.com/本?q=中\x07link\x1b]8;;\x07"
	want := "\x1b]8;;https://e.com/%E6%9C%AC?q=中\x07link\x1b]8;;\x07"
	var out bytes.Buffer
	splits(t, in, func() io.Writer { out.Reset(); return New(&out, nil) }, func(how string) {
		if out.String() != want {
			t.Fatalf("%s: want %q, got %q", how, want, out.String())
		}
	})
}

// TestXVTStillEndsAnOSCStringAt0x9C pins why this package exists: when it
// fails, x/vt decodes UTF-8 inside OSC strings and the package can go.
func TestXVTStillEndsAnOSCStringAt0x9C(t *testing.T) {
	em := vt.NewEmulator(20, 2)
	_, _ = em.Write([]byte("\x1b]2;本 title\x07X"))
	if got := strings.TrimSpace(strings.Split(em.String(), "\n")[0]); got == "X" {
		t.Fatal("x/vt now keeps 本 (e6 9c ac) inside an OSC string: vtfeed is no longer needed")
	}
}
