package transcript

// Render returns at most height rows of the transcript starting at row top
// (0 is the first row), rendering only the blocks they come from.
func (t *Transcript) Render(top, height int) []string {
	if height <= 0 || len(t.blocks) == 0 {
		return nil
	}
	i, off := t.h.find(top)
	out := make([]string, 0, height)
	for ; i < len(t.blocks) && len(out) < height; i++ {
		lines := t.linesOf(i)
		if off >= len(lines) {
			off -= len(lines)
			continue
		}
		n := min(len(lines)-off, height-len(out))
		out = append(out, lines[off:off+n]...)
		off = 0
	}
	return out
}

// View returns the height rows that end offsetFromBottom rows above the
// last row: View(0, h) is the bottom of the transcript, which is exact
// even when blocks far above have only estimated heights. The rows come
// from rendering the blocks on screen and nothing else. Fewer than height
// rows come back when the transcript above that point is shorter; an app
// that keeps its scroll position while new rows arrive at the bottom adds
// the growth of Lines() to offsetFromBottom, measured with Measure.
func (t *Transcript) View(offsetFromBottom, height int) []string {
	if height <= 0 || len(t.blocks) == 0 {
		return nil
	}
	t.unmeasured = t.unmeasured[:0]
	offsetFromBottom = max(offsetFromBottom, 0)
	total := t.h.total()
	last := total - 1 - offsetFromBottom // the row at the bottom of the view
	if last < 0 {
		return t.Render(0, height)
	}
	j, pos := t.h.find(last)
	below := t.h.vals[j] - 1 - pos // rows of block j under the view
	lines := t.linesOf(j)
	end := min(max(len(lines)-below, 0), len(lines))
	rows := [][]string{lines[:end]}
	n := end
	for i := j - 1; i >= 0 && n < height; i-- {
		l := t.linesOf(i)
		rows = append(rows, l)
		n += len(l)
	}
	out := make([]string, 0, height)
	skip := max(n-height, 0)
	for k := len(rows) - 1; k >= 0; k-- {
		part := rows[k]
		if skip >= len(part) {
			skip -= len(part)
			continue
		}
		out = append(out, part[skip:]...)
		skip = 0
	}
	return out
}
