package session

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync"
)

// What of a projection grows with every message and turn — the surface,
// the turns and their notes, the prompts and the saved conversations — is
// written to the parts of an index, after its head (wire.part), and read
// from the index file only when the projection first needs it: an event
// applied, a request built, the prompts listed, the rewind picker opened.
// Resuming a long session so holds the head (line offsets and the small
// fields) however long the session, and copies of a projection share the
// parts and read them once. A part read back must have the checksum the
// head gives it; one that does not (the index was replaced meanwhile) is
// folded again from the log prefix the index covered.

// partSource is where the parts of a checkpoint are: in memory, or in the
// index file at path from base on; and the log prefix the checkpoint
// describes, to fold again when the file no longer holds them.
type partSource struct {
	mem     []byte
	path    string
	base    int64
	log     string
	covered int64
}

// section is one part: n bytes at off among the parts, with checksum crc.
type section struct {
	src    *partSource
	off, n int64
	crc    uint32
}

// errStalePart says a part no longer has its checksum.
var errStalePart = errors.New("index part changed since its head was read")

func (s section) read() ([]byte, error) {
	var b []byte
	if src := s.src; src.path == "" {
		if s.off+s.n > int64(len(src.mem)) {
			return nil, errShortIndex
		}
		b = src.mem[s.off : s.off+s.n]
	} else {
		f, err := os.Open(src.path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if b, err = readAt(f, src.base+s.off, s.n); err != nil {
			return nil, err
		}
	}
	if crc32.Checksum(b, castagnoli()) != s.crc {
		return nil, errStalePart
	}
	return b, nil
}

// decode reads the part with dec, or else takes what the fold of the log
// prefix gives: from is the fold's value.
func decodePart[T any](s section, dec func(*unwire) T, from func(*Projection) T) (T, error) {
	raw, err := s.read()
	if err == nil {
		r := &unwire{b: raw}
		v := dec(r)
		if r.err == nil && len(r.b) > 0 {
			r.err = errLongPart
		}
		if err = r.err; err == nil {
			return v, nil
		}
	}
	p, ferr := s.src.refold()
	if ferr != nil {
		var zero T
		return zero, fmt.Errorf("read the session index: %w; and folding its log again: %w", err, ferr)
	}
	return from(p), nil
}

// refold is the projection the checkpoint was written from, folded again
// from the log prefix it covers.
func (src *partSource) refold() (*Projection, error) {
	if src.log == "" {
		return nil, errStalePart
	}
	f, err := os.Open(src.log)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(io.NewSectionReader(f, 0, src.covered), readBufferSize)
	h, headerLen, err := readHeader(br, src.log)
	if err != nil {
		return nil, err
	}
	st := newState(src.log, h, nil, headerLen)
	sc, err := scanEvents(br, src.log, position{off: headerLen, line: 2}, true, st.ingest)
	if err == nil && (sc.torn || sc.end.off != src.covered) {
		err = errStaleIndex
	}
	return st.proj, err
}

// bulk is the surface, the turns and their notes of a projection read from
// a checkpoint.
type bulk struct {
	once sync.Once
	part section
	// Set by decode.
	lists bulkLists
	err   error
}

type bulkLists struct {
	surface history[surfaceEntry]
	turns   history[turnRef]
	notes   []turnNotes
}

func (b *bulk) get() (bulkLists, error) {
	b.once.Do(func() {
		b.lists, b.err = decodePart(b.part, decodeBulkLists, func(p *Projection) bulkLists {
			return bulkLists{surface: p.surface, turns: p.turns, notes: p.turnNotes}
		})
	})
	return b.lists, b.err
}

func decodeBulkLists(r *unwire) bulkLists {
	return bulkLists{surface: decodeHistory(r, decodeSurface), turns: decodeHistory(r, decodeTurns), notes: decodeNotes(r)}
}

// encodeBulk writes p's surface, turns and notes as a part.
func encodeBulk(w *wire, p *Projection) {
	l := bulkLists{surface: p.surface, turns: p.turns, notes: p.turnNotes}
	if p.bulk != nil {
		l, _ = p.bulk.get()
	}
	var body wire
	encodeHistory(&body, l.surface, encodeSurface)
	encodeHistory(&body, l.turns, encodeTurns)
	encodeNotes(&body, l.notes)
	w.part(body.b)
}

func decodeBulk(r *unwire) *bulk {
	part := r.part()
	if r.err != nil {
		return nil
	}
	return &bulk{part: part}
}

// unpack takes in the bulk p was read with, if it still has one. A bulk
// that can be neither read nor folded again leaves the lists empty and
// its error in p.broken, which requests report.
func (p *Projection) unpack() {
	b := p.bulk
	if b == nil {
		return
	}
	l, err := b.get()
	// Others share these lists: appends go to fresh arrays, and the notes,
	// changed in place, are copied.
	p.surface, p.turns, p.turnNotes = l.surface.share(), l.turns.share(), slices.Clone(l.notes)
	p.broken = err
	p.bulk = nil
}

// promptList is the prompts of a projection read from a checkpoint. The
// head keeps the first, for the title; the prompts applied after the
// checkpoint are the projection's own.
type promptList struct {
	once  sync.Once
	part  section
	n     int
	first string
	// Set by get.
	list []string
}

// get lists the prompts, cut out of one string; none when they can be
// neither read nor folded again.
func (l *promptList) get() []string {
	l.once.Do(func() {
		l.list, _ = decodePart(l.part, func(r *unwire) []string {
			out := make([]string, l.n)
			rest, ok := string(r.b), true
			for i := range out {
				if out[i], rest, ok = cutString(rest); !ok {
					r.err = errShortIndex
					return nil
				}
			}
			r.b = r.b[len(r.b)-len(rest):]
			return out
		}, func(p *Projection) []string { return p.prompts[:min(l.n, len(p.prompts))] })
	})
	return l.list
}

// cutString cuts the string a wire wrote at the start of s.
func cutString(s string) (head, rest string, ok bool) {
	n, shift, i := 0, 0, 0
	for ; i < len(s) && s[i] >= 0x80 && shift < 56; i++ {
		n |= int(s[i]&0x7f) << shift
		shift += 7
	}
	if i == len(s) || s[i] >= 0x80 {
		return "", "", false
	}
	n |= int(s[i]) << shift
	s = s[i+1:]
	if n > len(s) {
		return "", "", false
	}
	return s[:n], s[n:], true
}

// promptCount is the number of prompts, listed or not.
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

// encodePrompts writes the count and the first prompt to the head and
// every prompt to a part.
func encodePrompts(w *wire, p *Projection) {
	all := p.prompts
	if p.olderPrompts != nil {
		all = append(slices.Clip(p.olderPrompts.get()), p.prompts...)
	}
	w.uint(uint64(len(all)))
	if len(all) == 0 {
		return
	}
	w.str(all[0])
	var body wire
	for _, s := range all {
		body.str(s)
	}
	w.part(body.b)
}

// decodePromptList reads what encodePrompts wrote; nil for no prompts.
func decodePromptList(r *unwire) *promptList {
	n := r.uint()
	if n == 0 || r.err != nil {
		return nil
	}
	l := &promptList{first: r.str(), part: r.part()}
	if r.err == nil && n > uint64(l.part.n) {
		r.err = errShortIndex
	}
	if r.err != nil {
		return nil
	}
	l.n = int(n)
	return l
}
