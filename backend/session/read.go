package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
)

const (
	// readBufferSize is the reader's buffer; lines longer than it are
	// gathered from several reads.
	readBufferSize = 1 << 20
	// headerBufferSize reads a header line; a longer one is gathered.
	headerBufferSize = 4 << 10
	// batchBytes is how many bytes of lines one decode job carries.
	batchBytes = 256 << 10
)

// corruptHint tells the user what to do about a log broken before its last
// line, which tack refuses to guess about.
const corruptHint = "tack will not resume a log it cannot read whole: start a new session, " +
	"or repair or delete that line (the log is plain JSONL, one event per line)"

// position is a place in a log: the byte offset where a line starts, its
// line number (the header is line 1) and the seq its event must have.
type position struct {
	off  int64
	line int
	seq  int64
}

// scanned is where a scan of a log stopped: after its last good line, and
// whether a broken last line was dropped there.
type scanned struct {
	end  position
	torn bool
}

// visitFunc receives every good event line of a scan in log order, with
// the offset where its line starts and its length without the newline.
// Events of unknown ignorable types come with d.skip set.
type visitFunc func(d decoded, off int64, n int)

// batch is a run of consecutive lines decoded by one worker. The reader
// fills everything but results; the worker fills results and closes done.
type batch struct {
	buf   []byte
	ends  []int // end offset in buf of each line
	first int   // line number of the first line
	// final says the batch holds the log's last line, and open that this
	// line has no newline.
	final, open bool
	err         error // a read error ends the log here
	results     []lineResult
	done        chan struct{}
}

type lineResult struct {
	d   decoded
	err error
}

func (b *batch) line(i int) []byte {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.buf[start:b.ends[i]]
}

// readHeader reads the first line of a log.
func readHeader(br *bufio.Reader, path string) (Header, int64, error) {
	var long []byte
	line, complete, err := readLine(br, &long)
	if err != nil {
		return Header{}, 0, fmt.Errorf("read session log %s: %w", path, err)
	}
	if line == nil {
		return Header{}, 0, fmt.Errorf("%w: %s is empty", ErrCorrupt, path)
	}
	h, err := decodeHeader(line)
	if err != nil || !complete {
		return Header{}, 0, fmt.Errorf("%w: %s has no readable header line (%v); it cannot be opened", ErrCorrupt, path, err)
	}
	return h, int64(len(line)) + 1, nil
}

// scanEvents reads the event lines of br, which starts at from, and hands
// them to visit. A broken last line is dropped and reported in torn; any
// other broken line, a seq gap or an unknown required event type is an
// error naming path and line. Lines are decoded in parallel and checked in
// order. With fold set they are decoded only for Projection.fold (see
// textArena), and visit must do no more with them.
func scanEvents(br *bufio.Reader, path string, from position, fold bool, visit visitFunc) (scanned, error) {
	workers := runtime.GOMAXPROCS(0)
	jobs, order, stop := make(chan *batch, workers), make(chan *batch, 2*workers), make(chan struct{})
	// Decoded events do not point into the lines, so collect hands each
	// batch back for the reader to fill again, buffers and all.
	free := make(chan *batch, 3*workers+1)
	var wg sync.WaitGroup
	wg.Go(func() { batchLines(br, from.line, jobs, order, free, stop) })
	for range workers {
		wg.Go(func() { decodeBatches(jobs, fold) })
	}
	s := scanned{end: from}
	err := s.collect(order, free, path, visit)
	close(stop)
	wg.Wait()
	return s, err
}

// collect checks decoded batches in log order and visits their events. It
// sends the batches it is done with to free.
func (s *scanned) collect(order <-chan *batch, free chan<- *batch, path string, visit visitFunc) error {
	for b := range order {
		<-b.done
		for i, r := range b.results {
			lineNo := b.first + i
			last := b.final && i == len(b.results)-1
			if last && b.open {
				s.torn = true
				return nil
			}
			if r.err != nil {
				var unknown errUnknownType
				switch {
				case errors.As(r.err, &unknown):
					return &UnknownTypeError{Path: path, Type: unknown.typ, Line: lineNo}
				case last:
					s.torn = true
					return nil
				}
				return fmt.Errorf("%w: %s line %d: %v; %s", ErrCorrupt, path, lineNo, r.err, corruptHint)
			}
			if r.d.event.Seq != s.end.seq {
				return fmt.Errorf("%w: %s line %d has seq %d, want %d; %s",
					ErrCorrupt, path, lineNo, r.d.event.Seq, s.end.seq, corruptHint)
			}
			n := len(b.line(i))
			visit(r.d, s.end.off, n)
			s.end = position{off: s.end.off + int64(n) + 1, line: lineNo + 1, seq: s.end.seq + 1}
		}
		if b.err != nil {
			return fmt.Errorf("read session log %s: %w", path, b.err)
		}
		select {
		case free <- b:
		default:
		}
	}
	return nil
}

// batchLines cuts the rest of the log into batches, sending each to jobs
// and then to order, until the end, a read error or stop. It fills buffers
// from free when there are some.
func batchLines(br *bufio.Reader, firstLine int, jobs, order chan<- *batch, free <-chan *batch, stop <-chan struct{}) {
	defer close(order)
	defer close(jobs)
	var long []byte
	b := newBatch(firstLine, free)
	for {
		line, complete, err := readLine(br, &long)
		if line != nil {
			b.buf = append(b.buf, line...)
			b.ends = append(b.ends, len(b.buf))
			b.open = !complete
		}
		b.err = err
		b.final = line == nil || !complete || err != nil
		if !b.final && len(b.buf) < batchBytes {
			continue
		}
		for _, ch := range []chan<- *batch{jobs, order} {
			select {
			case ch <- b:
			case <-stop:
				return
			}
		}
		if b.final {
			return
		}
		b = newBatch(b.first+len(b.ends), free)
	}
}

// newBatch starts a batch in the buffers of one from free, else in a new
// buffer with room for a full batch of lines plus one typical long line,
// so filling it rarely reallocates.
func newBatch(first int, free <-chan *batch) *batch {
	select {
	case old := <-free:
		return &batch{first: first, buf: old.buf[:0], ends: old.ends[:0], results: old.results[:0], done: make(chan struct{})}
	default:
		return &batch{first: first, buf: make([]byte, 0, batchBytes+64<<10), done: make(chan struct{})}
	}
}

// decodeBatches decodes the lines of each batch it receives, for a fold
// when fold is set. The open last line of a log is left undecoded.
func decodeBatches(jobs <-chan *batch, fold bool) {
	text := textArena{fold: fold}
	for b := range jobs {
		b.results = slices.Grow(b.results[:0], len(b.ends))[:len(b.ends)]
		clear(b.results)
		for i := range b.ends {
			if b.final && b.open && i == len(b.ends)-1 {
				continue
			}
			b.results[i].d, b.results[i].err = decodeEvent(b.line(i), &text)
		}
		close(b.done)
	}
}

// readLine returns the next line without its newline, or nil at the end.
// complete is false for a last line that has no newline. long is scratch
// space for lines longer than the reader's buffer; the returned slice is
// valid until the next call.
func readLine(br *bufio.Reader, long *[]byte) (line []byte, complete bool, err error) {
	frag, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		*long = append((*long)[:0], frag...)
		for errors.Is(err, bufio.ErrBufferFull) {
			frag, err = br.ReadSlice('\n')
			*long = append(*long, frag...)
		}
		frag = *long
	}
	switch {
	case err == nil:
		return frag[:len(frag)-1], true, nil
	case errors.Is(err, io.EOF) && len(frag) == 0:
		return nil, false, nil
	case errors.Is(err, io.EOF):
		return frag, false, nil
	}
	return nil, false, err
}
