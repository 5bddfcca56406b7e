package session

import (
	"slices"
	"sync"
)

// bulk is the part of a projection read from a checkpoint that grows with
// every message and turn: the surface, the turns and their notes. It stays
// encoded, a few bytes an entry, until the projection first needs it — an
// event applied, a request built, the rewind picker opened — so resuming
// a long session decodes and holds what the screen shows, not its whole
// past. Copies of a projection share one bulk and decode it once.
type bulk struct {
	once sync.Once
	raw  []byte
	// Set by decode; raw stays for the copies that have not decoded it.
	surface history[surfaceEntry]
	turns   history[turnRef]
	notes   []turnNotes
	err     error
}

// encodeBulk writes p's bulk: as it was read, while p has not needed it.
func encodeBulk(w *wire, p *Projection) {
	if p.bulk != nil {
		w.bytes(p.bulk.raw)
		return
	}
	var body wire
	encodeHistory(&body, p.surface, encodeSurface)
	encodeHistory(&body, p.turns, encodeTurns)
	encodeNotes(&body, p.turnNotes)
	w.bytes(body.b)
}

// decodeBulk reads what encodeBulk wrote, keeping it encoded.
func decodeBulk(r *unwire) *bulk {
	raw := r.bytes()
	if r.err != nil {
		return nil
	}
	return &bulk{raw: raw}
}

func (b *bulk) decode() {
	r := &unwire{b: b.raw}
	b.surface = decodeHistory(r, decodeSurface)
	b.turns = decodeHistory(r, decodeTurns)
	b.notes = decodeNotes(r)
	if r.err == nil && len(r.b) > 0 {
		r.err = errLongBulk
	}
	if b.err = r.err; b.err != nil {
		b.surface, b.turns, b.notes = history[surfaceEntry]{}, history[turnRef]{}, nil
	}
}

// unpack decodes the bulk p was read with, if it still has one. A bulk that
// does not decode (the index's checksum matched, so only a bug writes
// one) leaves the lists empty and its error in p.broken, which requests
// report.
func (p *Projection) unpack() {
	b := p.bulk
	if b == nil {
		return
	}
	b.once.Do(b.decode)
	// Others share these lists: appends go to fresh arrays, and the notes,
	// changed in place, are copied.
	p.surface, p.turns, p.turnNotes = b.surface.share(), b.turns.share(), slices.Clone(b.notes)
	p.broken = b.err
	p.bulk = nil
}
