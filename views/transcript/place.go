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
	// numbering is the transcript's numbering of its blocks when the
	// place was taken: places of different numberings differ, though
	// their block numbers match.
	numbering int
}

// PlaceOf returns the place of row r (0 is the first row).
func (t *Transcript) PlaceOf(r int) Place {
	if len(t.blocks) == 0 {
		return Place{}
	}
	i, off := t.h.find(r)
	return Place{block: i, offset: off, height: t.h.vals[i], width: t.set.Width, numbering: t.numbering}
}

// Shows reports whether p's block has rows under the current settings:
// a tool card does not while cards are hidden.
func (t *Transcript) Shows(p Place) bool {
	return p.block < len(t.blocks) && len(t.linesOf(p.block)) > 0
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
	i, off := t.at(p)
	r := t.h.prefix(i) + off
	t.Render(r, rows)
	return r
}

// at is p's block and its row in that block under the current settings,
// which p.block must hold.
func (t *Transcript) at(p Place) (block, offset int) {
	n := len(t.linesOf(p.block))
	off := p.offset
	if p.width != t.set.Width && p.height > 0 {
		off = off * n / p.height
	}
	return p.block, min(off, max(n-1, 0))
}

// Scroll returns the place n rows below p, or above it when n is
// negative, counting the rows of the blocks it passes as they render
// now, not as estimated; and the rows of the move left over where it met
// the first row (negative) or the last (positive). It renders only the
// blocks it passes, so a move of a screen costs a screen.
func (t *Transcript) Scroll(p Place, n int) (Place, int) {
	if len(t.blocks) == 0 {
		return p, n
	}
	p.block = min(p.block, len(t.blocks)-1)
	i, off := t.at(p)
	for n > 0 {
		h := len(t.linesOf(i))
		if off+n < h {
			off, n = off+n, 0
			break
		}
		if i == len(t.blocks)-1 {
			n -= max(h-1-off, 0)
			off = max(h-1, 0)
			break
		}
		n -= h - off
		i, off = i+1, 0
	}
	for n < 0 {
		if off+n >= 0 {
			off, n = off+n, 0
			break
		}
		n += off
		j := i - 1
		for j >= 0 && len(t.linesOf(j)) == 0 {
			j--
		}
		if j < 0 {
			off = 0
			break
		}
		i, off, n = j, len(t.linesOf(j))-1, n+1
	}
	return Place{block: i, offset: off, height: len(t.linesOf(i)), width: t.set.Width, numbering: t.numbering}, n
}
