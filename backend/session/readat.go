package session

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
)

const (
	// indexStride is how many lines apart the offsets a Log keeps are: a
	// line is found by reading at most this many lines from the nearest.
	indexStride = 64
	// maxReadAt bounds one read of consecutive line blocks.
	maxReadAt = 4 << 20
)

// lines locates event lines in a log file by seq: offsets[i] is where the
// line of seq i*indexStride starts, size where the last line ends.
type lines struct {
	f       io.ReaderAt
	path    string
	offsets []int64
	size    int64
	nextSeq int64
}

// blockEnd is where block b of indexStride lines ends.
func (l lines) blockEnd(b int) int64 {
	if b+1 < len(l.offsets) {
		return l.offsets[b+1]
	}
	return l.size
}

// read returns the events with the given seqs, which must be ascending.
// Events of unknown ignorable types are left out. A line that does not
// hold the event it should is ErrCorrupt: the offsets do not match the
// file.
func (l lines) read(seqs []int64) ([]Event, error) {
	if !slices.IsSorted(seqs) {
		return nil, fmt.Errorf("read session log %s: seqs out of order", l.path)
	}
	if len(seqs) == 0 {
		return nil, nil
	}
	out := make([]Event, 0, len(seqs))
	var text textArena
	for len(seqs) > 0 {
		s := seqs[0]
		if s < 0 || s >= l.nextSeq {
			return nil, fmt.Errorf("read session log %s: %w", l.path, errMissing(s))
		}
		first := int(s / indexStride)
		last := first
		// Join the blocks the next seqs fall in while they follow on and
		// the read stays small.
		for _, t := range seqs {
			b := int(t / indexStride)
			if b > last+1 || l.blockEnd(b)-l.offsets[first] > maxReadAt && b > last {
				break
			}
			last = b
		}
		var err error
		if out, seqs, err = l.readBlocks(first, last, seqs, out, &text); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readBlocks reads blocks first..last and decodes the lines of the seqs at
// the head of seqs that fall in them, returning the seqs left.
func (l lines) readBlocks(first, last int, seqs []int64, out []Event, text *textArena) ([]Event, []int64, error) {
	start, end := l.offsets[first], l.blockEnd(last)
	buf := make([]byte, end-start)
	if _, err := l.f.ReadAt(buf, start); err != nil {
		return out, seqs, fmt.Errorf("read session log %s: %w", l.path, err)
	}
	seq := int64(first) * indexStride
	for len(buf) > 0 && len(seqs) > 0 && seqs[0]/indexStride <= int64(last) {
		nl := bytes.IndexByte(buf, '\n')
		if nl < 0 {
			return out, seqs, fmt.Errorf("%w: %s: the line of seq %d has no end; %s", ErrCorrupt, l.path, seq, corruptHint)
		}
		line := buf[:nl]
		buf = buf[nl+1:]
		if seq == seqs[0] {
			d, err := decodeEvent(line, text)
			if err != nil || d.event.Seq != seq {
				return out, seqs, fmt.Errorf("%w: %s: the line where seq %d should be does not hold it (%v); %s",
					ErrCorrupt, l.path, seq, err, corruptHint)
			}
			if !d.skip {
				out = append(out, d.event)
			}
			seqs = seqs[1:]
		}
		seq++
	}
	if len(seqs) > 0 && seqs[0]/indexStride <= int64(last) {
		return out, seqs, fmt.Errorf("read session log %s: %w", l.path, errMissing(seqs[0]))
	}
	return out, seqs, nil
}

// errMissing is the error of a seq the log does not hold.
func errMissing(seq int64) error {
	return fmt.Errorf("%w: event %d is not in the log; %s", ErrCorrupt, seq, corruptHint)
}

// Events is a Source over events held in memory, in seq order.
type Events []Event

// ReadEvents returns the events with the given seqs.
func (es Events) ReadEvents(seqs []int64) ([]Event, error) {
	out := make([]Event, 0, len(seqs))
	for _, s := range seqs {
		i, ok := slices.BinarySearchFunc(es, s, func(e Event, s int64) int { return cmp.Compare(e.Seq, s) })
		if !ok {
			return nil, errMissing(s)
		}
		out = append(out, es[i])
	}
	return out, nil
}
