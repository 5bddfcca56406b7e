package session

import (
	"bufio"
	"io"
	"os"
)

// logState is what a Log knows of its file: the fold of its events, where
// their lines are, and the bookkeeping of repair, titles and the index.
type logState struct {
	path      string
	header    Header
	headerLen int64
	file      *os.File
	// proj is the fold of every event, keeping no message bodies.
	proj *Projection
	// offsets[i] is where the line of seq i*indexStride starts.
	offsets []int64
	nextSeq int64
	// openFrom is the seq after the latest turn/end.
	openFrom int64
	// size is the log's length including buffered lines; titleEnd is
	// where the line of the latest title, title, ends (nil: no title yet).
	size, titleEnd int64
	title          *Title
	// indexed is the length of the log its index on disk describes, 0
	// when there is none; foldFrom is where loading it began to fold
	// lines: where its index ended, or after the header.
	indexed, foldFrom int64
}

func newState(path string, h Header, f *os.File, headerLen int64) logState {
	proj := NewProjection(h)
	proj.refs = true
	return logState{path: path, header: h, headerLen: headerLen, file: f, size: headerLen, proj: proj}
}

// loadState reads the log f at path: through its index when that is
// current, folding only the lines after it, else from the start. torn says
// a broken last line was dropped (st.size ends before it).
func loadState(f *os.File, path string) (st logState, torn bool, err error) {
	info, err := f.Stat()
	if err != nil {
		return st, false, err
	}
	size := info.Size()
	// The header is read on its own: a log read through its index is
	// mostly not read at all, and its buffers should not cost as if it were.
	h, headerLen, err := readHeader(bufio.NewReaderSize(io.NewSectionReader(f, 0, size), headerBufferSize), path)
	if err != nil {
		return st, false, err
	}
	st = newState(path, h, f, headerLen)
	from := position{off: headerLen, line: 2}
	if ix, err := loadIndex(path, h, f, size, headerLen); err == nil {
		st.adopt(ix)
		from = position{off: ix.covered, line: int(ix.nextSeq) + 2, seq: ix.nextSeq}
	}
	st.foldFrom = from.off
	sc := scanned{end: from}
	if rest := size - from.off; rest > 0 {
		br := bufio.NewReaderSize(io.NewSectionReader(f, from.off, rest), int(min(rest, readBufferSize)))
		if sc, err = scanEvents(br, path, from, true, st.ingest); err != nil {
			return st, false, err
		}
	}
	st.size = sc.end.off
	return st, sc.torn, nil
}

// adopt takes what an index holds.
func (st *logState) adopt(ix *index) {
	st.proj, st.offsets, st.nextSeq, st.openFrom = ix.proj, ix.offsets, ix.nextSeq, ix.openFrom
	st.title, st.titleEnd, st.indexed = ix.title, ix.titleEnd, ix.covered
	st.size = ix.covered
}

// ingest takes in the event whose line of n bytes starts at off: it is
// located, folded and its title and turn end noted. It may have been
// decoded for a fold only: st.proj keeps no message bodies.
func (st *logState) ingest(d decoded, off int64, n int) {
	e := d.event
	if e.Seq%indexStride == 0 {
		st.offsets = push(st.offsets, off)
	}
	st.nextSeq = e.Seq + 1
	if d.skip {
		return
	}
	st.proj.fold(e, d.messageSize())
	switch t := e.Data.(type) {
	case TurnEnd:
		st.openFrom = e.Seq + 1
	case Title:
		if st.title == nil || st.title.Source != TitleUser || t.Source == TitleUser {
			st.title, st.titleEnd = &t, off+int64(n)+1
		}
	}
}

// lines is where the log's lines are; the buffered ones must have been
// written through.
func (st *logState) lines() lines {
	return lines{f: st.file, path: st.path, offsets: st.offsets, size: st.size, nextSeq: st.nextSeq}
}

// openTurn reads the events after the latest turn/end, which repair
// closes.
func (st *logState) openTurn() ([]Event, error) {
	seqs := make([]int64, 0, st.nextSeq-st.openFrom)
	for s := st.openFrom; s < st.nextSeq; s++ {
		seqs = append(seqs, s)
	}
	return st.lines().read(seqs)
}

// writeIndex writes the index of everything written through to the file,
// which must be all of it. An index is a cache: when it cannot be written
// the next Open reads more of the log, so the failure is not reported.
func (st *logState) writeIndex() {
	if st.nextSeq == 0 {
		return
	}
	headerCRC, samples, err := sampleLog(st.file, st.headerLen, st.size)
	if err != nil {
		return
	}
	ix := &index{covered: st.size, nextSeq: st.nextSeq, openFrom: st.openFrom, headerLen: st.headerLen,
		headerCRC: headerCRC, samples: samples, offsets: st.offsets, title: st.title, titleEnd: st.titleEnd, proj: st.proj}
	if writeIndex(st.path, ix) == nil {
		st.indexed = st.size
	}
}
