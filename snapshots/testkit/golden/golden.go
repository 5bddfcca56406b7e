// Package golden compares test output with files under the test package's
// testdata directory. `go test -update` rewrites the files instead; review
// their diff like code. Rendered text is stored twice, as plain text and
// as a dump of its styling, so both a wording and a colour change show in
// review.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/palette"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Updating reports whether this run rewrites golden files.
func Updating() bool { return *update }

// Assert compares got with the file at path (relative to the test
// package), or writes got there when -update is given.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file %s: %v (run go test -update to create it)", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (go test -update rewrites it)\nwant:\n%s\ngot:\n%s", path, want, got)
	}
}

// File compares got with testdata/<name>.golden.
func File(t testing.TB, name, got string) {
	t.Helper()
	Assert(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

// Lines compares rendered lines with testdata/<name>.golden: the plain
// text of every line, then its styling (SGR sequences shown as ‹params›).
func Lines(t testing.TB, name string, lines []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("-- plain --\n")
	for _, l := range lines {
		b.WriteString(ansi.Strip(l) + "\n")
	}
	b.WriteString("-- styled --\n")
	for _, l := range lines {
		b.WriteString(palette.StyleDump(l) + "\n")
	}
	File(t, name, b.String())
}

// View compares a view rendered into a width×height box with
// testdata/<name>.golden: its rows framed on the left so trailing space
// shows, then their styling. It also fails when the view leaves the
// palette or the box.
func View(t testing.TB, name, view string, width, height int) {
	t.Helper()
	Fits(t, view, width, height)
	palette.Check(t, view)
	rows := strings.Split(view, "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "-- plain %dx%d --\n", width, height)
	for _, r := range rows {
		b.WriteString("|" + ansi.Strip(r) + "\n")
	}
	b.WriteString("-- styled --\n")
	for _, r := range rows {
		b.WriteString(palette.StyleDump(r) + "\n")
	}
	File(t, name, b.String())
}

// Fits fails unless view has at most height rows, none wider than width.
func Fits(t testing.TB, view string, width, height int) {
	t.Helper()
	if view == "" {
		return
	}
	rows := strings.Split(view, "\n")
	if len(rows) > height {
		t.Errorf("at %dx%d: want at most %d rows, got %d", width, height, height, len(rows))
	}
	for i, r := range rows {
		if w := ansi.StringWidth(r); w > width {
			t.Errorf("at %dx%d: row %d: want at most %d cells, got %d: %q", width, height, i, width, w, ansi.Strip(r))
		}
	}
}
