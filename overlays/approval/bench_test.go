package approval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// bigWrite asks about a write of a new 5,000-line file.
func bigWrite() interact.Approval {
	lines := make([]card.DiffLine, 5000)
	for i := range lines {
		lines[i] = card.DiffLine{Op: card.OpAdd, Text: fmt.Sprintf("\tfmt.Println(%d) // line %d of the generated file", i, i)}
	}
	return interact.Approval{
		CallID: "w", Tool: "write", Summary: "Write gen.go", Remember: "write",
		Card: &card.Card{Kind: card.Diff, Title: "Write gen.go",
			Diffs: []card.FileDiff{{Path: "gen.go", Created: true, Added: len(lines), Lines: lines}}},
	}
}

// BenchmarkBigWriteFrame is one frame of the dialog over a 5,000-line
// write, after the first: scrolling a row, then drawing.
//
//	go test ./overlays/approval -run '^$' -bench BigWrite -benchmem
func BenchmarkBigWriteFrame(b *testing.B) {
	d := New(bigWrite(), th, overlaytest.Epoch())
	d.View(100, 30)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		key := "down"
		if i%200 >= 100 {
			key = "up"
		}
		d.Update(keys.Key(key), overlaytest.Later())
		if v := d.View(100, 30); !strings.Contains(v, "line ") {
			b.Fatalf("want the file's lines in the dialog, got\n%s", v)
		}
		i++
	}
}

func TestTheBodyIsRenderedOncePerWidth(t *testing.T) {
	d := New(bigWrite(), th, overlaytest.Epoch())
	first := d.View(100, 30)
	rows := d.rendered
	if d.View(100, 30) != first || &d.rendered[0] != &rows[0] {
		t.Fatal("want a second frame at the same width to reuse the rendered body")
	}
	narrow := d.View(60, 20)
	if &d.rendered[0] == &rows[0] || !strings.Contains(narrow, "gen.go") {
		t.Fatal("want a new width to render the body again")
	}
}
