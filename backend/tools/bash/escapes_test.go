package bash

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/termtext"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// escapeSamples are outputs with the control sequences commands send when
// they force colour or drive a terminal, each free of cursor movement, so
// that what a terminal shows of it is one row a line.
var escapeSamples = map[string]string{
	"16 colours and reset":   "\x1b[32mok\x1b[0m \x1b[1;31mFAIL\x1b[m done\n",
	"256 and true colour":    "\x1b[38;5;208morange\x1b[39m \x1b[48;2;38;38;38m bg \x1b[49m end\n",
	"vitest's header":        "\x1b[1m\x1b[30m\x1b[46m RUN \x1b[49m\x1b[39m\x1b[22m \x1b[36mv4.1.9 \x1b[39m\x1b[90m/work\x1b[39m\n",
	"hyperlink ended by ST":  "see \x1b]8;;https://example.com/a\x1b\\the docs\x1b]8;;\x1b\\ here\n",
	"hyperlink ended by BEL": "see \x1b]8;id=1;file:///tmp/x\x07x\x1b]8;;\x07 here\n",
	"title":                  "\x1b]0;npm test\x07tests\n\x1b]2;done\x1b\\all passed\n",
	"tput sgr0":              "\x1b[1mbold\x1b(B\x1b[m plain\n",
	"modes":                  "\x1b[?25l\x1b[?2004hhidden cursor\x1b[?25h\x1b[?2004l\x1b=\x1b>\n",
	"erase to end of line":   "progress\x1b[K\n",
	"progress redrawn":       "fetching\n 10% [#    ]\r 50% [###  ]\r100% [#####]\ndone\n",
	"spinner erased":         "⠋ building the docs\r\x1b[K⠙ building\r\x1b[0Kbuilt\n",
	"line erased, then text": "abc\x1b[2Kxy\nlong line\x1b[2K\rnew\n",
	"npm's progress":         "\x1b[?25l[\x1b[90m..................\x1b[0m] - idealTree: sill\x1b[0K\r\x1b[Kadded 3 packages\n\x1b[?25h",
	"DCS and APC strings":    "a\x1bP1$r0m\x1b\\b\x1b_Gf=100;AAAA\x1b\\c\n",
	"private CSI":            "x\x1b[>4;2my\x1b[=5uz\n",
}

// shown is what the model and the card read of output: its control
// sequences filtered as it is written, its lines overprinted when read.
func shown(output string) string {
	var f escapeFilter
	return termtext.Overprint(string(f.flush(f.filter(nil, []byte(output)))))
}

func TestEscapeFilterRemovesWhatATerminalDoesNotShow(t *testing.T) {
	for name, sample := range escapeSamples {
		got := shown(sample)
		if strings.ContainsRune(got, esc) || strings.ContainsRune(got, bel) {
			t.Errorf("%s: %q still holds a control sequence", name, got)
		}
	}
	var f escapeFilter
	if got := string(f.flush(f.filter(nil, []byte("\x1b[31mred\x1b[0m")))); got != "red" {
		t.Errorf("got %q, want red", got)
	}
}

// TestEscapeFilterAgreesWithTmux feeds each sample and the output of real
// commands run with colour forced to tmux, a real terminal, and compares
// the rows it shows with what the filter lets through.
func TestEscapeFilterAgreesWithTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("comparing with a real terminal needs tmux (apt-get install tmux); it is not on PATH")
	}
	samples := map[string]string{}
	for name, s := range escapeSamples {
		samples[name] = s
	}
	for name, s := range forcedColourOutputs(t) {
		samples[name] = s
	}
	for name, sample := range samples {
		t.Run(name, func(t *testing.T) {
			want := strings.TrimRight(shown(sample), "\n")
			if got := shownByTmux(t, sample); got != trimRows(want) {
				t.Errorf("tmux shows\n%s\nthe filter lets through\n%s", got, want)
			}
		})
	}
}

// forcedColourOutputs runs commands found on the machine the ways people
// force their colour into a pipe.
func forcedColourOutputs(t *testing.T) map[string]string {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "notes.txt"), "alpha beta\ngamma alpha\n")
	testkit.WriteFile(t, filepath.Join(dir, "old.txt"), "one\ntwo\n")
	testkit.WriteFile(t, filepath.Join(dir, "bad.c"), "int main(void) { return x; }\n")
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := map[string][]string{
		"ls --color=always":                   {"ls", "--color=always", "-1", dir},
		"grep --color=always":                 {"grep", "--color=always", "-n", "alpha", "notes.txt"},
		"diff --color=always":                 {"diff", "--color=always", "-u", "old.txt", "notes.txt"},
		"gcc -fdiagnostics-color=always":      {"gcc", "-fdiagnostics-color=always", "-fsyntax-only", "bad.c"},
		"git -c color.ui=always diff":         {"git", "-c", "color.ui=always", "diff", "--no-index", "old.txt", "notes.txt"},
		"python3 printing colour (rich-like)": {"python3", "-c", `print("\x1b[1;32m✓\x1b[0m passed \x1b[2m(3 ms)\x1b[0m")`},
	}
	out := map[string]string{}
	for name, argv := range runs {
		if _, err := exec.LookPath(argv[0]); err != nil {
			t.Logf("%s: %s is not installed; left out", name, argv[0])
			continue
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		b, _ := cmd.CombinedOutput()
		if !bytes.ContainsRune(b, esc) {
			t.Logf("%s: no control sequence in its output; left out", name)
			continue
		}
		out[name] = strings.ReplaceAll(string(b), "\t", " ")
	}
	return out
}

// shownByTmux is the rows tmux shows of text written to a pane as it is,
// without their trailing blanks.
func shownByTmux(t *testing.T, text string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "esc-") // short: the socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	sample, sock := filepath.Join(dir, "sample"), filepath.Join(dir, "s")
	testkit.WriteFile(t, sample, text)
	tmux := func(args ...string) ([]byte, error) {
		return exec.Command("tmux", append([]string{"-S", sock, "-f", os.DevNull}, args...)...).Output()
	}
	const end = "--end-of-sample--"
	if _, err := tmux("new-session", "-d", "-x", "200", "-y", "60", "cat "+sample+"; echo "+end+"; exec sleep 60"); err != nil {
		t.Fatalf("start tmux: %v", err)
	}
	t.Cleanup(func() { _, _ = tmux("kill-server") })
	var shown string
	testkit.EventuallyWithin(t, 10*time.Second, "tmux to show the sample", func() bool {
		b, _ := tmux("capture-pane", "-p")
		shown = string(b)
		return strings.Contains(shown, end)
	})
	shown, _, _ = strings.Cut(shown, end)
	return trimRows(strings.TrimRight(shown, "\n"))
}

func trimRows(s string) string {
	rows := strings.Split(s, "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return strings.Join(rows, "\n")
}

func TestEscapeFilterKeepsItsPlaceAcrossWrites(t *testing.T) {
	for name, sample := range escapeSamples {
		var whole escapeFilter
		want := whole.flush(whole.filter(nil, []byte(sample)))
		for cut := 1; cut < len(sample); cut++ {
			var f escapeFilter
			got := f.filter(nil, []byte(sample[:cut]))
			got = f.flush(f.filter(got, []byte(sample[cut:])))
			if !bytes.Equal(got, want) {
				t.Fatalf("%s cut at %d: got %q, want %q", name, cut, got, want)
			}
		}
	}
}

func TestEscapeFilterPassesOnWhatIsNoSequence(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"an ESC at the end", "done\x1b", "done\x1b"},
		{"a CSI cut short", "50%\x1b[3", "50%\x1b[3"},
		{"an ESC before a line feed", "a\x1b\nb", "a\x1b\nb"},
		{"an ESC cutting a CSI short", "a\x1b[1\x1b[31mb", "a\x1b[1b"},
		{"an unterminated hyperlink", "\x1b]8;;x" + strings.Repeat("y", maxEscapeString) + "\nrest\n",
			"\x1b]8;;x" + strings.Repeat("y", maxEscapeString) + "\nrest\n"},
		{"an OSC ended by another sequence", "\x1b]0;title\x1b[1mbold", "bold"},
	} {
		var f escapeFilter
		if got := string(f.flush(f.filter(nil, []byte(tc.in)))); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStreamKeepsOutputWithoutItsColours(t *testing.T) {
	s := NewStream(t.TempDir(), "out-*", 16, 0)
	for _, p := range []string{"\x1b[3", "2mgreen\x1b[0m ok\n", strings.Repeat("x", 20), "\x1b"} {
		_, _ = s.Write([]byte(p))
	}
	if r := s.ReadFrom(0); r.Text != strings.Repeat("x", 16) || !r.Lossy {
		t.Errorf("open stream read %+v", r)
	}
	_ = s.Close()
	c := s.Tail()
	if c.Text != strings.Repeat("x", 15)+"\x1b" || c.Lines != 1 {
		t.Errorf("tail %+v", c)
	}
	spilled, err := os.ReadFile(c.SpillPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "green ok\n" + strings.Repeat("x", 20) + "\x1b"; string(spilled) != want {
		t.Errorf("spill file holds %q, want %q", spilled, want)
	}
}

// FuzzEscapeFilter: wherever the writes of a command's output are split,
// the filter lets the same bytes through; text without an ESC goes
// through whole; and what a read makes of any of it is valid UTF-8.
func FuzzEscapeFilter(f *testing.F) {
	for _, sample := range escapeSamples {
		f.Add([]byte(sample), uint16(3))
	}
	f.Add([]byte("a\x1b]8;;x\x1b[1mb\x1b\x1b[Kc\r\x1b[2Kd"), uint16(5))
	f.Fuzz(func(t *testing.T, p []byte, cut uint16) {
		var whole escapeFilter
		want := whole.flush(whole.filter(nil, p))
		k := int(cut) % (len(p) + 1)
		var split escapeFilter
		got := split.flush(split.filter(split.filter(nil, p[:k]), p[k:]))
		if !bytes.Equal(got, want) {
			t.Fatalf("split at %d: %q, whole: %q", k, got, want)
		}
		if !bytes.ContainsRune(p, esc) && !bytes.Equal(want, p) {
			t.Fatalf("text without ESC changed: %q to %q", p, want)
		}
		if r := readable(want); !utf8.ValidString(r) {
			t.Fatalf("read as %q, not UTF-8", r)
		}
	})
}

// BenchmarkEscapeFilter is a test runner's coloured output: five
// sequences on each line of 45 bytes, the filter's worst common case.
func BenchmarkEscapeFilter(b *testing.B) {
	chunk := []byte(strings.Repeat("\x1b[32m✓\x1b[0m test passes \x1b[2m(3 ms)\x1b[0m\x1b[K\n", 1000))
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	var f escapeFilter
	var out []byte
	for b.Loop() {
		out = f.filter(out[:0], chunk)
	}
}
