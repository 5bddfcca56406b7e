package session

import (
	"bufio"
	"fmt"
	"io"
	"slices"
)

// Scan hands visit, in log order, the events of the given types logged at
// seq from or later, until visit returns false. It decodes no other line:
// it costs reading the log from there, not decoding it, which is what
// finding the few checkpoints or rewinds of a long session should cost.
// The file is read without holding up appends.
func (l *Log) Scan(from int64, types []string, visit func(Event) bool) error {
	ls, err := l.lines()
	if err != nil {
		return err
	}
	return ls.scan(max(from, 0), types, visit)
}

// scan reads the lines from the block holding seq from to the end.
func (l lines) scan(from int64, types []string, visit func(Event) bool) error {
	if from >= l.nextSeq {
		return nil
	}
	block := int(from / indexStride)
	start := l.offsets[block]
	br := bufio.NewReaderSize(io.NewSectionReader(l.f, start, l.size-start), int(min(l.size-start, readBufferSize)))
	var long []byte
	var text textArena
	for seq := int64(block) * indexStride; seq < l.nextSeq; seq++ {
		line, complete, err := readLine(br, &long)
		if err != nil {
			return fmt.Errorf("read session log %s: %w", l.path, err)
		}
		if line == nil || !complete {
			return fmt.Errorf("%w: %s: the line of seq %d has no end; %s", ErrCorrupt, l.path, seq, corruptHint)
		}
		if seq < from {
			continue
		}
		typ, err := lineType(line)
		if err != nil || !slices.Contains(types, typ) {
			continue
		}
		d, err := decodeEvent(line, &text)
		if err != nil || d.event.Seq != seq {
			return fmt.Errorf("%w: %s: the line where seq %d should be does not hold it (%v); %s",
				ErrCorrupt, l.path, seq, err, corruptHint)
		}
		if !visit(d.event) {
			return nil
		}
	}
	return nil
}
