// Package golden compares rendered lines with files under a test package's
// testdata directory; `go test -update` rewrites the files.
package golden

import (
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/tack-agent/tack/snapshots/golden"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/internal/sgrtest"
)

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
	goldenfile.Assert(t, filepath.Join("testdata", name+".golden"), []byte(got))
}
