package fs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/tack-agent/tack/backend/card"
)

const (
	// diffContext is the unchanged lines shown around each change.
	diffContext = 3
	// diffMaxChanged is the most changed lines an exact diff shows; past it
	// the card shows the changed region's whole sides, marked approximate.
	diffMaxChanged = 1000
)

// fileDiff is the line diff from before to after for a diff card.
// It uses go-udiff's bounded Myers LCS, so its cost stays linear-ish even
// for large, very different files.
func fileDiff(name, before, after string, created bool) card.FileDiff {
	a, b := splitLines(before), splitLines(after)
	pre, suf := commonEnds(a, b)
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	fd := card.FileDiff{Path: name, Created: created}
	if len(am) == 0 && len(bm) == 0 {
		return fd
	}
	diffs := lcs.DiffLines(am, bm)
	for i := range diffs {
		diffs[i].Start += pre
		diffs[i].End += pre
		diffs[i].ReplStart += pre
		diffs[i].ReplEnd += pre
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].Start < diffs[j].Start })
	for _, d := range diffs {
		fd.Removed += d.End - d.Start
		fd.Added += d.ReplEnd - d.ReplStart
	}
	if fd.Added+fd.Removed > diffMaxChanged {
		fd.Added, fd.Removed = len(bm), len(am)
		fd.Approximate = true
		fd.Lines = append(sideLines(card.OpDelete, am), sideLines(card.OpAdd, bm)...)
		return fd
	}
	fd.Lines = hunkLines(a, b, diffs)
	return fd
}

// hunkLines renders sorted diffs as hunks with context, joined by gaps.
func hunkLines(a, b []string, diffs []lcs.Diff) []card.DiffLine {
	var out []card.DiffLine
	equal := func(from, to int) {
		for _, s := range a[max(from, 0):min(to, len(a))] {
			out = append(out, card.DiffLine{Op: card.OpContext, Text: s})
		}
	}
	for i, d := range diffs {
		switch {
		case i == 0:
			equal(d.Start-diffContext, d.Start)
		case d.Start-diffs[i-1].End <= 2*diffContext:
			equal(diffs[i-1].End, d.Start)
		default:
			prev := diffs[i-1].End
			equal(prev, prev+diffContext)
			skipped := d.Start - diffContext - (prev + diffContext)
			out = append(out, card.DiffLine{Op: card.OpGap, Text: fmt.Sprintf("%d unchanged lines", skipped)})
			equal(d.Start-diffContext, d.Start)
		}
		for _, s := range a[d.Start:d.End] {
			out = append(out, card.DiffLine{Op: card.OpDelete, Text: s})
		}
		for _, s := range b[d.ReplStart:d.ReplEnd] {
			out = append(out, card.DiffLine{Op: card.OpAdd, Text: s})
		}
	}
	if n := len(diffs); n > 0 {
		equal(diffs[n-1].End, diffs[n-1].End+diffContext)
	}
	return out
}

// sideLines is one whole side of an approximate diff, itself bounded.
func sideLines(op card.DiffOp, lines []string) []card.DiffLine {
	shown := lines[:min(len(lines), diffMaxChanged)]
	out := make([]card.DiffLine, 0, len(shown)+1)
	for _, s := range shown {
		out = append(out, card.DiffLine{Op: op, Text: s})
	}
	if rest := len(lines) - len(shown); rest > 0 {
		out = append(out, card.DiffLine{Op: card.OpGap, Text: fmt.Sprintf("%d more lines", rest)})
	}
	return out
}

// commonEnds counts the equal lines at the start and, before them, at the
// end of a and b.
func commonEnds(a, b []string) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// splitLines splits text into lines without their endings ("\n" or
// "\r\n"); a final line ending does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
