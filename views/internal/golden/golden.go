// Package golden compares rendered lines with files under a test package's
// testdata directory; `go test -update` rewrites the files.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/internal/sgrtest"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Lines compares lines with testdata/<name>.golden, which holds the plain
// text of every line followed by a dump of its styling (SGR sequences shown
// as ‹params›), so both a wording and a colour change show in review.
func Lines(t *testing.T, name string, lines []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("-- plain --\n")
	for _, l := range lines {
		b.WriteString(ansi.Strip(l) + "\n")
	}
	b.WriteString("-- styled --\n")
	for _, l := range lines {
		b.WriteString(sgrtest.StyleDump(l) + "\n")
	}
	got := b.String()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s: %v (run go test -update to create it)", path, err)
	}
	if string(want) != got {
		t.Errorf("%s: want\n%s\ngot\n%s", path, want, got)
	}
}
