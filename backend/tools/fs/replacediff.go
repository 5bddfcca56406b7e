package fs

import (
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/tack-agent/tack/backend/card"
)

// editDiff is the card diff of an edit that turned before into after. A
// replace_all edit is shown by its places (replaceAllDiff); any other by
// the line diff.
func editDiff(name, before, after string, a editArgs) card.FileDiff {
	if !a.ReplaceAll {
		return fileDiff(name, before, after, false)
	}
	old, repl := intended(before, *a.OldString, *a.NewString)
	return replaceAllDiff(name, before, after, old, repl)
}

// replaceAllDiff is the diff of before with every old replaced by repl
// (after), one change for each place an occurrence touched: its old lines
// and, right below, its new ones. A line diff finds the same lines but
// joins adjacent places into one block, so a rename through 60 adjacent
// lines read as 60 removals and then 60 additions, each line far from its
// new self. Context and gaps fold as in any diff. Where the places do not
// account for the whole change, or change more than diffMaxChanged lines,
// it is the line diff.
func replaceAllDiff(name, before, after, old, repl string) card.FileDiff {
	a, b := splitLines(before), splitLines(after)
	diffs, ok := replacedPlaces(before, after, old, repl, len(a), len(b))
	if !ok || !unchangedBetween(a, b, diffs) {
		return fileDiff(name, before, after, false)
	}
	diffs = trimPlaces(a, b, diffs)
	if changed(diffs) > diffMaxChanged {
		return fileDiff(name, before, after, false)
	}
	return exactDiff(card.FileDiff{Path: name}, a, b, diffs)
}

// replacedPlaces is, for each occurrence of old in before in the order
// strings.ReplaceAll replaces them, the lines it changes in before (na
// lines) and the lines in their place in after (nb lines), occurrences
// that share a line joined. ok is false when old does not occur, or
// after is not as long as the replacement makes it.
func replacedPlaces(before, after, old, repl string, na, nb int) (diffs []lcs.Diff, ok bool) {
	grow := len(repl) - len(old)
	if old == "" || len(after) != len(before)+strings.Count(before, old)*grow {
		return nil, false
	}
	p, q := 0, 0         // where the search and its counterpart in after stand
	lineA, lineB := 0, 0 // the line indexes of p and q
	for i := 0; ; i++ {
		k := strings.Index(before[p:], old)
		if k < 0 {
			break
		}
		lineA += strings.Count(before[p:p+k], "\n")
		next := p + k + i*grow
		lineB += strings.Count(after[q:next], "\n")
		p, q = p+k, next
		d := lcs.Diff{Start: lineA, End: lineA + strings.Count(old, "\n"),
			ReplStart: lineB, ReplEnd: lineB + strings.Count(repl, "\n")}
		// The line an end falls in is changed too, unless both ends fall
		// where lines start: then that line is whole on both sides.
		if !lineStart(before, p+len(old)) || !lineStart(after, q+len(repl)) {
			d.End, d.ReplEnd = d.End+1, d.ReplEnd+1
		}
		d.End, d.ReplEnd = min(d.End, na), min(d.ReplEnd, nb)
		if last := len(diffs) - 1; last >= 0 && (d.Start < diffs[last].End || d.ReplStart < diffs[last].ReplEnd) {
			diffs[last].End, diffs[last].ReplEnd = max(diffs[last].End, d.End), max(diffs[last].ReplEnd, d.ReplEnd)
		} else {
			diffs = append(diffs, d)
		}
		p, q = p+len(old), q+len(repl)
		lineA, lineB = lineA+strings.Count(old, "\n"), lineB+strings.Count(repl, "\n")
	}
	return diffs, len(diffs) > 0
}

// lineStart reports whether a line of s starts at i.
func lineStart(s string, i int) bool {
	return i == 0 || s[i-1] == '\n'
}

// unchangedBetween reports whether the lines around and between the places
// are the same in a and b, so that the places are the whole change.
func unchangedBetween(a, b []string, diffs []lcs.Diff) bool {
	endA, endB := 0, 0
	for _, d := range diffs {
		if d.Start < endA || d.ReplStart < endB || !slices.Equal(a[endA:d.Start], b[endB:d.ReplStart]) {
			return false
		}
		endA, endB = d.End, d.ReplEnd
	}
	return slices.Equal(a[endA:], b[endB:])
}

// trimPlaces moves the lines a place leaves as they were, at its start and
// end, out of it (a replacement that adds or drops whole lines touches its
// neighbour), and drops a place left with no change.
func trimPlaces(a, b []string, diffs []lcs.Diff) []lcs.Diff {
	out := diffs[:0]
	for _, d := range diffs {
		for d.Start < d.End && d.ReplStart < d.ReplEnd && a[d.Start] == b[d.ReplStart] {
			d.Start, d.ReplStart = d.Start+1, d.ReplStart+1
		}
		for d.Start < d.End && d.ReplStart < d.ReplEnd && a[d.End-1] == b[d.ReplEnd-1] {
			d.End, d.ReplEnd = d.End-1, d.ReplEnd-1
		}
		if d.Start < d.End || d.ReplStart < d.ReplEnd {
			out = append(out, d)
		}
	}
	return out
}
