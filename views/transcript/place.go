package transcript

// Place is a row of the transcript told by the block it belongs to, so
// that it can be found again after the rows are laid out anew: a change
// of width, or of what the blocks show (cards expanded, reasoning shown),
// moves every row, but not the block a reader was at.
type Place struct {
	block, offset int
	// height and width are the block's height and the transcript's width
	// when the place was taken.
	height, width int
}

// PlaceOf returns the place of row r (0 is the first row).
func (t *Transcript) PlaceOf(r int) Place {
	if len(t.blocks) == 0 {
		return Place{}
	}
	i, off := t.h.find(r)
	return Place{block: i, offset: off, height: t.h.vals[i], width: t.set.Width}
}

// RowOf returns the row where p is under the current settings: the same
// row of its block, or, when the width changed and the block's rows with
// it, the row as far into the block as p was; never past the block's last
// row. It renders the rows rows from there, so a View that puts that row
// at its top shows exactly them, whatever estimates the blocks around
// them had.
func (t *Transcript) RowOf(p Place, rows int) int {
	if p.block >= len(t.blocks) {
		return t.h.total()
	}
	n := len(t.linesOf(p.block))
	off := p.offset
	if p.width != t.set.Width && p.height > 0 {
		off = off * n / p.height
	}
	r := t.h.prefix(p.block) + min(off, max(n-1, 0))
	t.Render(r, rows)
	return r
}
