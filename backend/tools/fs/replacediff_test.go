package fs

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
)

// A rename through adjacent lines shows each line's old text with its new
// text right below, numbered, with context and gaps as other diffs fold
// them; a line diff showed all the removals, then all the additions.
func TestReplaceAllCardShowsEachPlaceOldThenNew(t *testing.T) {
	b := newBench(t)
	var lines []string
	for i := 1; i <= 20; i++ {
		line := fmt.Sprintf("l%d", i)
		if (i >= 5 && i <= 7) || i == 16 {
			line = fmt.Sprintf("oldName(%d)", i)
		}
		lines = append(lines, line)
	}
	b.file("f.txt", strings.Join(lines, "\n")+"\n")
	b.readFirst("f.txt")
	r := b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "oldName", "new_string": "newName", "replace_all": true})
	wantOK(t, r)
	ctx := func(n int) card.DiffLine {
		return card.DiffLine{Op: card.OpContext, Text: fmt.Sprintf("l%d", n), Old: n, New: n}
	}
	pair := func(n int) []card.DiffLine {
		return []card.DiffLine{{Op: card.OpDelete, Text: fmt.Sprintf("oldName(%d)", n), Old: n},
			{Op: card.OpAdd, Text: fmt.Sprintf("newName(%d)", n), New: n}}
	}
	var want []card.DiffLine
	want = append(want, ctx(2), ctx(3), ctx(4))
	want = append(append(append(want, pair(5)...), pair(6)...), pair(7)...)
	want = append(want, ctx(8), ctx(9), ctx(10), card.DiffLine{Op: card.OpGap, Text: "2 unchanged lines"}, ctx(13), ctx(14), ctx(15))
	want = append(append(want, pair(16)...), ctx(17), ctx(18), ctx(19))
	d := r.Card.Diffs[0]
	if !reflect.DeepEqual(d.Lines, want) {
		t.Errorf("want lines\n%v\ngot\n%v", want, d.Lines)
	}
	if d.Added != 4 || d.Removed != 4 || d.Approximate {
		t.Errorf("want an exact +4 -4, got approximate=%v +%d -%d", d.Approximate, d.Added, d.Removed)
	}
}

// Whatever old and new strings a replace_all is given (several lines,
// line ends, empty, sharing lines), its card is the whole change: read as
// a patch it turns the file before into the file strings.ReplaceAll made.
func TestReplaceAllCardIsThePatchFromBeforeToAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "ab", "\n", "\n", "x\n", "a\nb", "\r\n"}
	text := func(n int) string {
		var s strings.Builder
		for range n {
			s.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return s.String()
	}
	tried := 0
	for i := range 3000 {
		before, old, repl := text(5+rng.IntN(40)), text(1+rng.IntN(3)), text(rng.IntN(3))
		if !strings.Contains(before, old) || old == repl {
			continue
		}
		tried++
		after := strings.ReplaceAll(before, old, repl)
		d := replaceAllDiff("f", before, after, old, repl)
		got, err := applyDiff(splitLines(before), d)
		if err != nil || !reflect.DeepEqual(got, splitLines(after)) {
			t.Fatalf("case %d: before %q, %q → %q: want the card to patch before into %q, got %q (%v); lines %v",
				i, before, old, repl, splitLines(after), got, err, d.Lines)
		}
	}
	if tried < 1000 {
		t.Fatalf("want at least 1000 edits tried, got %d", tried)
	}
}

// A replace_all that changes more lines than a diff shows exactly is the
// line diff's approximate card, as any other large edit.
func TestReplaceAllOverBudgetIsApproximate(t *testing.T) {
	before := strings.Repeat("old\n", 1200)
	d := replaceAllDiff("f", before, strings.ReplaceAll(before, "old", "new"), "old", "new")
	if !d.Approximate || d.Added != 1200 || d.Removed != 1200 {
		t.Errorf("want approximate +1200 -1200, got approximate=%v +%d -%d", d.Approximate, d.Added, d.Removed)
	}
}

// applyDiff applies d's lines to a: context and removed lines must be a's
// at their numbers, added lines land at theirs, lines in gaps are copied.
func applyDiff(a []string, d card.FileDiff) ([]string, error) {
	var out []string
	next := 0 // the first line of a not yet copied or removed
	take := func(l card.DiffLine) error {
		if l.Old-1 < next || l.Old > len(a) || a[l.Old-1] != l.Text {
			return fmt.Errorf("line %+v is not line %d of before", l, l.Old)
		}
		out = append(out, a[next:l.Old-1]...)
		next = l.Old
		return nil
	}
	for _, l := range d.Lines {
		switch l.Op {
		case card.OpContext, card.OpDelete:
			if err := take(l); err != nil {
				return out, err
			}
			if l.Op == card.OpContext {
				if l.New != len(out)+1 {
					return out, fmt.Errorf("context line %+v stands at %d of after", l, len(out)+1)
				}
				out = append(out, l.Text)
			}
		case card.OpAdd:
			if l.New != len(out)+1 {
				return out, fmt.Errorf("added line %+v lands at %d", l, len(out)+1)
			}
			out = append(out, l.Text)
		}
	}
	return append(out, a[next:]...), nil
}

// A diff asked of text the replacement did not make is the line diff, not
// a panic.
func TestReplaceAllDiffOfOtherTextIsTheLineDiff(t *testing.T) {
	for _, c := range []struct{ before, after, old, repl string }{
		{"a\nb\n", "x\n", "a", "aaaa"},
		{"a\nb\n", "a\nc\n", "b", "d"},
		{"a\n", "b\n", "", "b"},
	} {
		got := replaceAllDiff("f", c.before, c.after, c.old, c.repl)
		if want := fileDiff("f", c.before, c.after, false); !reflect.DeepEqual(got, want) {
			t.Errorf("%q → %q: want the line diff %v, got %v", c.before, c.after, want.Lines, got.Lines)
		}
	}
}
