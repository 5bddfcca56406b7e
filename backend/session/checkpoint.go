package session

import (
	"cmp"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"slices"
	"time"

	"github.com/tack-agent/tack/backend/llm"
)

// A checkpoint is a Projection written out in a compact binary form, so a
// long session resumes without folding its log again (see index.go). Every
// field of Projection is written: TestCheckpointRoundTripsEveryField holds
// the two to each other, and TestCheckpointVersion asks for indexVersion to
// be bumped when what a fold produces changes.

// wire appends the varint-based encoding of values to a byte slice, and
// the parts that grow with the session to parts (see part).
type wire struct{ b, parts []byte }

func (w *wire) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *wire) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *wire) str(s string)  { w.uint(uint64(len(s))); w.b = append(w.b, s...) }
func (w *wire) u32(v uint32)  { w.b = binary.LittleEndian.AppendUint32(w.b, v) }

// part puts b in the parts, which follow the head of an index, and its
// length and checksum in the head: a reader reads b only when it needs it.
func (w *wire) part(b []byte) {
	w.uint(uint64(len(b)))
	w.u32(crc32.Checksum(b, castagnoli()))
	w.parts = append(w.parts, b...)
}

func (w *wire) bool(v bool) {
	if v {
		w.uint(1)
	} else {
		w.uint(0)
	}
}

func (w *wire) usage(u llm.Usage) {
	w.int(int64(u.Input))
	w.int(int64(u.CacheRead))
	w.int(int64(u.Output))
	w.int(int64(u.Reasoning))
}

var (
	// errShortIndex is the error of reading past the end of an index.
	errShortIndex = errors.New("index ends early")
	// errLongPart is the error of a part with bytes after its lists.
	errLongPart = errors.New("index part has trailing bytes")
)

// unwire reads what wire wrote. The first failure sticks: later reads
// return zero values, and err says what went wrong.
type unwire struct {
	b   []byte
	err error
	// src is where the parts are; next is where the next one starts.
	src  *partSource
	next int64
}

func (r *unwire) uint() uint64 { return varint(r, binary.Uvarint) }

func (r *unwire) int() int64 { return varint(r, binary.Varint) }

// varint reads a number that decode, binary.Uvarint or binary.Varint,
// reads from the front of what is left.
func varint[T uint64 | int64](r *unwire, decode func([]byte) (T, int)) T {
	if r.err != nil {
		return 0
	}
	v, n := decode(r.b)
	if n <= 0 {
		r.err = errShortIndex
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length that must fit in what is left of the index, each
// element taking at least one byte.
func (r *unwire) count() int {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.err = errShortIndex
		return 0
	}
	return int(n)
}

// readList reads what wire wrote as a count and that many elements, each
// read by elem; nil for none.
func readList[T any](r *unwire, elem func() T) []T {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = elem()
	}
	return out
}

func (r *unwire) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// part reads where a part is, which wire.part wrote.
func (r *unwire) part() section {
	n, sum := int64(r.uint()), r.u32()
	if r.err != nil || r.src == nil {
		r.err = cmp.Or(r.err, errShortIndex)
		return section{}
	}
	s := section{src: r.src, off: r.next, n: n, crc: sum}
	r.next += n
	return s
}

func (r *unwire) u32() uint32 {
	if r.err != nil || len(r.b) < 4 {
		r.err = errShortIndex
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *unwire) bool() bool { return r.uint() != 0 }

func (r *unwire) usage() llm.Usage {
	return llm.Usage{Input: int(r.int()), CacheRead: int(r.int()), Output: int(r.int()), Reasoning: int(r.int())}
}

// encodeProjection writes every field of p but its header, which a reader
// takes from the log, and refs, which a checkpoint always has.
func encodeProjection(w *wire, p *Projection) {
	todos := todoTable{}
	w.uint(uint64(p.applied))
	encodeBulk(w, p)
	w.uint(uint64(p.surfaceBytes))
	encodeHistory(w, p.transcript, encodeRuns)
	todos.write(w, p.todos)
	w.usage(p.totals.Sum)
	w.usage(p.totals.Last)
	w.uint(uint64(p.totals.Turns))
	w.uint(uint64(p.totals.Steps))
	w.uint(uint64(p.totals.ToolCalls))
	w.uint(uint64(p.totals.Messages))
	w.uint(uint64(len(p.byModel)))
	for _, u := range p.byModel {
		w.str(u.Model)
		w.int(u.From.UnixMilli())
		w.usage(u.Usage)
	}
	w.int(int64(p.step.turn))
	w.int(int64(p.step.step))
	w.str(p.step.model)
	w.uint(uint64(p.afterLast))
	w.bool(p.sawAssistant)
	w.bool(p.replaced)
	w.str(p.title)
	w.bool(p.named)
	w.bool(p.userNamed)
	encodePrompts(w, p)
	w.str(p.lastAnswer)
	names := slices.Sorted(maps.Keys(p.commands))
	w.uint(uint64(len(names)))
	for _, name := range names {
		w.str(name)
		w.uint(uint64(p.commands[name]))
	}
	w.str(p.model)
	w.str(string(p.effort))
	w.int(int64(p.turn))
	w.str(p.permission)
	w.bool(p.plan)
	w.int(p.lastActive.UnixMilli())
	encodeHistory(w, p.rewinds, encodeRewinds)
	encodeCheckpoint(w, p.lastCheckpoint)
	w.str(p.checkpointID)
	encodeSaved(w, p.allSaved())
	todos.encode(w)
}

// decodeProjection reads what encodeProjection wrote, as a projection of
// the session with header h that keeps no message bodies.
func decodeProjection(r *unwire, h Header) *Projection {
	p := &Projection{header: h, refs: true, applied: int(r.uint())}
	p.bulk = decodeBulk(r)
	p.surfaceBytes = int(r.uint())
	p.transcript = decodeHistory(r, decodeRuns)
	todo := int(r.uint())
	p.totals.Sum, p.totals.Last = r.usage(), r.usage()
	p.totals.Turns, p.totals.Steps, p.totals.ToolCalls = int(r.uint()), int(r.uint()), int(r.uint())
	p.totals.Messages = int(r.uint())
	p.byModel = readList(r, func() ModelUsage {
		return ModelUsage{Model: r.str(), From: time.UnixMilli(r.int()), Usage: r.usage()}
	})
	p.step = stepModel{turn: int(r.int()), step: int(r.int()), model: r.str()}
	p.afterLast = int(r.uint())
	p.sawAssistant, p.replaced = r.bool(), r.bool()
	p.title, p.named, p.userNamed = r.str(), r.bool(), r.bool()
	p.olderPrompts = decodePromptList(r)
	p.lastAnswer = r.str()
	if n := r.count(); n > 0 {
		p.commands = make(map[string]int, n)
		for range n {
			name := r.str()
			p.commands[name] = int(r.uint())
		}
	}
	p.model, p.effort, p.turn = r.str(), llm.Effort(r.str()), int(r.int())
	p.permission, p.plan = r.str(), r.bool()
	p.lastActive = time.UnixMilli(r.int())
	p.rewinds = decodeHistory(r, decodeRewinds)
	p.lastCheckpoint, p.checkpointID = decodeCheckpoint(r), r.str()
	p.savedOld = decodeSavedBlob(r)
	p.todos = decodeTodoTable(r).get(r, todo)
	return p
}

// encodeHistory writes the frozen versions of h, then its current one.
func encodeHistory[T any](w *wire, h history[T], enc func(*wire, []T)) {
	w.uint(uint64(len(h.frozen)))
	for _, v := range h.frozen {
		enc(w, v)
	}
	enc(w, h.cur)
}

func decodeHistory[T any](r *unwire, dec func(*unwire) []T) history[T] {
	var h history[T]
	h.frozen = readList(r, func() []T { return dec(r) })
	h.cur = dec(r)
	return h
}

func encodeSurface(w *wire, entries []surfaceEntry) {
	w.uint(uint64(len(entries)))
	prev := int64(0)
	for _, s := range entries {
		w.int(s.seq - prev)
		w.int(s.src - s.seq)
		w.uint(uint64(s.bytes))
		prev = s.seq
	}
}

func decodeSurface(r *unwire) []surfaceEntry {
	prev := int64(0)
	return readList(r, func() surfaceEntry {
		seq := prev + r.int()
		prev = seq
		return surfaceEntry{seq: seq, src: seq + r.int(), bytes: int(r.uint())}
	})
}

func encodeRuns(w *wire, runs []Span) {
	w.uint(uint64(len(runs)))
	prev := int64(0)
	for _, s := range runs {
		w.int(s.Start - prev)
		w.uint(uint64(s.End - s.Start))
		prev = s.End
	}
}

func decodeRuns(r *unwire) []Span {
	prev := int64(0)
	return readList(r, func() Span {
		start := prev + r.int()
		s := Span{Start: start, End: start + int64(r.uint())}
		prev = s.End
		return s
	})
}

func encodeTurns(w *wire, turns []turnRef) {
	w.uint(uint64(len(turns)))
	for _, t := range turns {
		w.int(int64(t.turn))
		w.int(t.seq)
		w.int(t.time.UnixMilli())
	}
}

func decodeTurns(r *unwire) []turnRef {
	return readList(r, func() turnRef {
		return turnRef{turn: int(r.int()), seq: r.int(), time: time.UnixMilli(r.int())}
	})
}
