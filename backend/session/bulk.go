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

// promptList is the prompts of a projection read from a checkpoint, kept
// as the checkpoint holds them (each length and text) until the
// projection first lists them, and then cut out of that one string; the
// title needs only the first. The prompts applied after the checkpoint
// are the projection's own.
type promptList struct {
	once sync.Once
	raw  string
	n    int
	// Set by get.
	list []string
}

// decodePromptList reads a count and as many strings, kept encoded; nil
// for none.
func decodePromptList(r *unwire) *promptList {
	n := r.count()
	start := r.b
	for range n {
		k := r.count()
		if r.err != nil {
			return nil
		}
		r.b = r.b[k:]
	}
	if n == 0 || r.err != nil {
		return nil
	}
	return &promptList{raw: string(start[:len(start)-len(r.b)]), n: n}
}

func (l *promptList) get() []string {
	l.once.Do(func() {
		l.list = make([]string, l.n)
		rest := l.raw
		for i := range l.list {
			l.list[i], rest = cutString(rest)
		}
	})
	return l.list
}

// first is the first prompt, read without cutting out the others.
func (l *promptList) first() string {
	s, _ := cutString(l.raw)
	return s
}

// cutString cuts the string a wire wrote at the start of s; decodePromptList
// checked that it is whole.
func cutString(s string) (head, rest string) {
	n, shift, i := 0, 0, 0
	for ; i < len(s) && s[i] >= 0x80; i++ {
		n |= int(s[i]&0x7f) << shift
		shift += 7
	}
	if i == len(s) {
		return "", ""
	}
	n |= int(s[i]) << shift
	s = s[i+1:]
	return s[:n], s[n:]
}

// promptCount is the number of prompts, decoded or not.
func (p *Projection) promptCount() int {
	if p.olderPrompts != nil {
		return p.olderPrompts.n + len(p.prompts)
	}
	return len(p.prompts)
}

// unpackPrompts puts the checkpoint's prompts before p's own.
func (p *Projection) unpackPrompts() {
	if l := p.olderPrompts; l != nil {
		p.prompts = append(slices.Clip(l.get()), p.prompts...)
		p.olderPrompts = nil
	}
}

// encodePrompts writes the prompts, a checkpoint's as they were read.
func encodePrompts(w *wire, p *Projection) {
	w.uint(uint64(p.promptCount()))
	if p.olderPrompts != nil {
		w.b = append(w.b, p.olderPrompts.raw...)
	}
	for _, s := range p.prompts {
		w.str(s)
	}
}
