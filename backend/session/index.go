package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
)

// The index beside a log ("<log>.index") lets Open skip what an earlier
// Open or Close already read: the log's projection up to a point (a
// checkpoint), the offsets of its lines, where its open turn starts and its
// latest title. It is a cache. Open checks it against the log — the size
// it covers, a line end there, and checksums of the header and of windows
// spread over the prefix it covers — and folds only the lines after it; an
// index that is missing, unreadable, from another version or that does
// not match its log is rebuilt from the whole log. A line read through
// the offsets must hold the seq the index says, or the read fails as
// corrupt. The index is written at Close, after a rebuild, and by Sync
// once the log has grown reindexBytes past it; never synced, it is
// replaced by a rename, so a crash leaves the old index or the new one.
//
// Open reads only the head of an index: the offsets, the small fields of
// the projection, and where each of its parts (the lists that grow with
// the session) lies among the parts that follow the head, with their
// checksums. A part is read when a projection first needs it (bulk.go), so
// what a resume reads and holds does not grow with the session but for
// one line offset in indexStride.

const (
	indexSuffix = ".index"
	indexMagic  = "tack session index\n"
	// indexVersion changes whenever this format, or what a Projection
	// folds from a log, changes: an index of another version is rebuilt.
	indexVersion = 7
	// sampleCount windows of sampleBytes spread over the covered prefix,
	// and one that ends where it ends, are checksummed.
	sampleCount = 8
	sampleBytes = 4 << 10
	// reindexBytes is how far a log may grow past its index before Sync
	// writes a new one: what a crash leaves for the next Open to fold.
	reindexBytes = 4 << 20
)

// castagnoli is the checksum's table, built on first use: a new session's
// start needs none.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// errStaleIndex says an index does not describe the log beside it.
var errStaleIndex = errors.New("index does not match its log")

// index is what the file beside a log holds.
type index struct {
	// covered is the length of the log prefix described, which ends with
	// a newline; nextSeq the seq of the line after it.
	covered, nextSeq int64
	// openFrom is the seq after the latest turn/end: repair reads from
	// there.
	openFrom  int64
	headerLen int64
	headerCRC uint32
	samples   []sample
	offsets   []int64
	title     *Title
	titleEnd  int64
	proj      *Projection
}

// sample is the checksum of n bytes of the log at off.
type sample struct {
	off, n int64
	crc    uint32
}

func indexPath(logPath string) string { return logPath + indexSuffix }

// sampleLog checksums the header line and the sample windows of the first
// covered bytes of f.
func sampleLog(f io.ReaderAt, headerLen, covered int64) (uint32, []sample, error) {
	head, err := readAt(f, 0, headerLen)
	if err != nil {
		return 0, nil, err
	}
	body := covered - headerLen
	var out []sample
	for i := range int64(sampleCount) {
		off := headerLen + body*i/sampleCount
		out = append(out, sample{off: off, n: min(sampleBytes, covered-off)})
	}
	last := max(headerLen, covered-sampleBytes)
	out = append(out, sample{off: last, n: covered - last})
	for i := range out {
		b, err := readAt(f, out[i].off, out[i].n)
		if err != nil {
			return 0, nil, err
		}
		out[i].crc = crc32.Checksum(b, castagnoli())
	}
	return crc32.Checksum(head, castagnoli()), out, nil
}

func readAt(f io.ReaderAt, off, n int64) ([]byte, error) {
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

// encode is the index file: the magic line, the length of the head, the
// head, a checksum of all that, and the parts the head points into.
func (ix *index) encode() []byte {
	var w wire
	w.uint(indexVersion)
	for _, v := range []int64{ix.covered, ix.nextSeq, ix.openFrom, ix.headerLen} {
		w.uint(uint64(v))
	}
	w.u32(ix.headerCRC)
	w.uint(uint64(len(ix.samples)))
	for _, s := range ix.samples {
		w.uint(uint64(s.off))
		w.uint(uint64(s.n))
		w.u32(s.crc)
	}
	w.uint(uint64(len(ix.offsets)))
	prev := int64(0)
	for _, o := range ix.offsets {
		w.uint(uint64(o - prev))
		prev = o
	}
	w.bool(ix.title != nil)
	if ix.title != nil {
		w.str(ix.title.Title)
		w.str(ix.title.Source)
		w.uint(uint64(ix.titleEnd))
	}
	encodeProjection(&w, ix.proj)
	out := binary.LittleEndian.AppendUint32([]byte(indexMagic), uint32(len(w.b)))
	out = append(out, w.b...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli()))
	return append(out, w.parts...)
}

// headEnd is where the head of the index starting with b ends (its
// checksum included), or an error for bytes that do not start an index.
func headEnd(b []byte) (int64, error) {
	if len(b) < len(indexMagic)+4 || !bytes.HasPrefix(b, []byte(indexMagic)) {
		return 0, errors.New("not a session index")
	}
	return int64(len(indexMagic)) + 4 + int64(binary.LittleEndian.Uint32(b[len(indexMagic):])) + 4, nil
}

// decodeIndex reads the head of an index for the log with header h; b
// holds at least the head. Its parts are in src, or in b after the head
// when src is nil. parts is the length of the parts the head points to.
func decodeIndex(b []byte, h Header, src *partSource) (ix *index, parts int64, err error) {
	end, err := headEnd(b)
	if err != nil {
		return nil, 0, err
	}
	if end > int64(len(b)) {
		return nil, 0, errShortIndex
	}
	if src == nil {
		src = &partSource{mem: b[end:]}
	}
	body, sum := b[len(indexMagic)+4:end-4], b[end-4:end]
	if crc32.Checksum(b[:end-4], castagnoli()) != binary.LittleEndian.Uint32(sum) {
		return nil, 0, errors.New("index checksum mismatch")
	}
	r := &unwire{b: body, src: src}
	if v := r.uint(); v != indexVersion {
		return nil, 0, fmt.Errorf("index version %d, want %d", v, indexVersion)
	}
	ix = &index{covered: int64(r.uint()), nextSeq: int64(r.uint()), openFrom: int64(r.uint()), headerLen: int64(r.uint())}
	ix.headerCRC = r.u32()
	ix.samples = make([]sample, r.count())
	for i := range ix.samples {
		ix.samples[i] = sample{off: int64(r.uint()), n: int64(r.uint()), crc: r.u32()}
	}
	ix.offsets = make([]int64, r.count())
	prev := int64(0)
	for i := range ix.offsets {
		prev += int64(r.uint())
		ix.offsets[i] = prev
	}
	if r.bool() {
		ix.title = &Title{Title: r.str(), Source: r.str()}
		ix.titleEnd = int64(r.uint())
	}
	ix.proj = decodeProjection(r, h)
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("index has trailing bytes")
	}
	return ix, r.next, r.err
}

// check verifies that ix describes the first ix.covered bytes of the log
// f of size bytes, whose header line is headerLen long.
func (ix *index) check(f io.ReaderAt, size, headerLen int64) error {
	wantOffsets := (ix.nextSeq + indexStride - 1) / indexStride
	switch {
	case ix.covered > size, ix.covered < headerLen, ix.headerLen != headerLen,
		int64(len(ix.offsets)) != wantOffsets, ix.openFrom > ix.nextSeq:
		return errStaleIndex
	}
	for i, o := range ix.offsets {
		if o < headerLen || o >= ix.covered || i > 0 && o <= ix.offsets[i-1] {
			return errStaleIndex
		}
	}
	headerCRC, samples, err := sampleLog(f, headerLen, ix.covered)
	if err != nil {
		return err
	}
	if headerCRC != ix.headerCRC || len(samples) != len(ix.samples) {
		return errStaleIndex
	}
	for i, s := range samples {
		if s != ix.samples[i] {
			return errStaleIndex
		}
	}
	if last, err := readAt(f, ix.covered-1, 1); err != nil || last[0] != '\n' {
		return errStaleIndex
	}
	return nil
}

// indexHeadRead is how much of an index loadIndex reads first: the head
// of a session of a few hundred thousand events.
const indexHeadRead = 64 << 10

// loadIndex reads the head of the index of the log at path and checks it
// against f; the parts stay in the index file until a projection needs
// them (bulk.go).
func loadIndex(path string, h Header, f io.ReaderAt, size, headerLen int64) (*index, error) {
	ix, err := readIndexHead(path, h, nil)
	if err != nil {
		return nil, err
	}
	if err := ix.check(f, size, headerLen); err != nil {
		return nil, err
	}
	return ix, nil
}

// readIndexHead reads the head of the index of the log at path, whose
// header is h, without checking it against the log. A head that fits
// scratch is read into it; the index keeps nothing of it.
func readIndexHead(path string, h Header, scratch []byte) (*index, error) {
	file, err := os.Open(indexPath(path))
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	head, err := readInto(scratch, file, 0, min(info.Size(), indexHeadRead))
	if err != nil {
		return nil, err
	}
	end, err := headEnd(head)
	if err != nil {
		return nil, err
	}
	if end > info.Size() {
		return nil, errShortIndex
	}
	if end > int64(len(head)) {
		if head, err = readInto(scratch, file, 0, end); err != nil {
			return nil, err
		}
	}
	src := &partSource{path: indexPath(path), base: end, log: path}
	ix, parts, err := decodeIndex(head[:end], h, src)
	if err != nil {
		return nil, err
	}
	if end+parts != info.Size() {
		return nil, errStaleIndex
	}
	src.covered = ix.covered
	return ix, nil
}

// readInto reads n bytes of f at off into scratch when they fit, else
// into a new slice.
func readInto(scratch []byte, f io.ReaderAt, off, n int64) ([]byte, error) {
	if int64(cap(scratch)) < n {
		return readAt(f, off, n)
	}
	b := scratch[:n]
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

// writeIndex replaces the index of the log at path with ix.
func writeIndex(path string, ix *index) error {
	dst := indexPath(path)
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, ix.encode(), 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
