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

// fileDiff is the line diff from before to after for a diff card: exact
// up to diffMaxChanged changed lines, past that the changed region's whole
// sides, marked approximate.
func fileDiff(name, before, after string, created bool) card.FileDiff {
	a, b := splitLines(before), splitLines(after)
	pre, suf := commonEnds(a, b)
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	fd := card.FileDiff{Path: name, Created: created}
	if len(am) == 0 && len(bm) == 0 {
		return fd
	}
	diffs, exact := lineDiff(am, bm)
	if !exact {
		fd.Added, fd.Removed = len(bm), len(am)
		fd.Approximate = true
		fd.Lines = append(sideLines(card.OpDelete, am, pre), sideLines(card.OpAdd, bm, pre)...)
		return fd
	}
	for i := range diffs {
		diffs[i].Start += pre
		diffs[i].End += pre
		diffs[i].ReplStart += pre
		diffs[i].ReplEnd += pre
	}
	return exactDiff(fd, a, b, diffs)
}

// exactDiff is fd with the lines and counts of diffs, sorted edits from a
// to b.
func exactDiff(fd card.FileDiff, a, b []string, diffs []lcs.Diff) card.FileDiff {
	for _, d := range diffs {
		fd.Removed += d.End - d.Start
		fd.Added += d.ReplEnd - d.ReplStart
	}
	fd.Lines = hunkLines(a, b, diffs)
	return fd
}

// udiffExact is the most edits for which go-udiff's LCS is a shortest
// script: it stops searching at 50 edits (an unexported bound) and then
// returns a coarse one, which turned 100 scattered one-line changes in a
// 10,000-line file into an "approximate" card of thousands of lines.
const udiffExact = 50

// lineDiff is a shortest edit script from a to b, sorted, and whether one
// with at most diffMaxChanged changed lines exists. Small diffs take
// go-udiff's fast path; larger ones a Myers search bounded by
// diffMaxChanged, so its cost stays O((len(a)+len(b))·diffMaxChanged).
func lineDiff(a, b []string) ([]lcs.Diff, bool) {
	diffs := lcs.DiffLines(a, b)
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].Start < diffs[j].Start })
	if changed(diffs) <= udiffExact {
		return diffs, true
	}
	return boundedMyers(a, b, diffMaxChanged)
}

func changed(diffs []lcs.Diff) int {
	n := 0
	for _, d := range diffs {
		n += d.End - d.Start + d.ReplEnd - d.ReplStart
	}
	return n
}

// boundedMyers is Myers' shortest edit script from a to b when it has at
// most maxD deletions and insertions; ok is false when it has more.
func boundedMyers(a, b []string, maxD int) (diffs []lcs.Diff, ok bool) {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*maxD+3) // v[off+k]: furthest x on diagonal k
	// trace[d] is v[off-d-1 .. off+d+1] as it was before step d.
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			x := v[off+k-1] + 1 // from diagonal k-1: delete a[x-1]
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // from diagonal k+1: insert b[y-1]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the trace of boundedMyers back from (n, m) and returns
// the edits as sorted, merged diffs.
func backtrack(trace [][]int, n, m int) []lcs.Diff {
	var steps []lcs.Diff // one line each, last first
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		prevK := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		}
		px := at(prevK)
		py := px - prevK
		for x > px && y > py {
			x, y = x-1, y-1
		}
		if x == px {
			steps = append(steps, lcs.Diff{Start: x, End: x, ReplStart: py, ReplEnd: py + 1})
		} else {
			steps = append(steps, lcs.Diff{Start: px, End: px + 1, ReplStart: y, ReplEnd: y})
		}
		x, y = px, py
	}
	var diffs []lcs.Diff
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if last := len(diffs) - 1; last >= 0 && diffs[last].End == s.Start && diffs[last].ReplEnd == s.ReplStart {
			diffs[last].End, diffs[last].ReplEnd = s.End, s.ReplEnd
			continue
		}
		diffs = append(diffs, s)
	}
	return diffs
}

// hunkLines renders sorted diffs as hunks with context, joined by gaps.
// Every line carries its numbers in a (Old) and b (New).
func hunkLines(a, b []string, diffs []lcs.Diff) []card.DiffLine {
	var out []card.DiffLine
	shift := 0 // b's line index minus a's, outside the changes
	equal := func(from, to int) {
		for i := max(from, 0); i < min(to, len(a)); i++ {
			out = append(out, card.DiffLine{Op: card.OpContext, Text: a[i], Old: i + 1, New: i + shift + 1})
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
		for j := d.Start; j < d.End; j++ {
			out = append(out, card.DiffLine{Op: card.OpDelete, Text: a[j], Old: j + 1})
		}
		for j := d.ReplStart; j < d.ReplEnd; j++ {
			out = append(out, card.DiffLine{Op: card.OpAdd, Text: b[j], New: j + 1})
		}
		shift = d.ReplEnd - d.End
	}
	if n := len(diffs); n > 0 {
		equal(diffs[n-1].End, diffs[n-1].End+diffContext)
	}
	return out
}

// sideLines is one whole side of an approximate diff, itself bounded; its
// first line is line first+1 of its file.
func sideLines(op card.DiffOp, lines []string, first int) []card.DiffLine {
	shown := lines[:min(len(lines), diffMaxChanged)]
	out := make([]card.DiffLine, 0, len(shown)+1)
	for i, s := range shown {
		l := card.DiffLine{Op: op, Text: s}
		if op == card.OpDelete {
			l.Old = first + i + 1
		} else {
			l.New = first + i + 1
		}
		out = append(out, l)
	}
	if rest := len(lines) - len(shown); rest > 0 {
		out = append(out, card.DiffLine{Op: card.OpGap, Text: fmt.Sprintf("%d more lines", rest)})
	}
	return out
}

// unnumbered is d without line numbers, for a diff made from a snippet of
// the file rather than all of it.
func unnumbered(d card.FileDiff) card.FileDiff {
	lines := make([]card.DiffLine, len(d.Lines))
	for i, l := range d.Lines {
		lines[i] = card.DiffLine{Op: l.Op, Text: l.Text}
	}
	d.Lines = lines
	return d
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
