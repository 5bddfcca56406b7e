package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// readBufferSize is the reader's buffer; lines longer than it are gathered
// from several reads.
const readBufferSize = 1 << 20

// contents is what a reader found in a log before repair.
type contents struct {
	header Header
	events []Event
	// nextSeq is one past the last seq on disk, counting skipped events.
	nextSeq int64
	// validSize is the byte length of the log up to its last good line.
	validSize int64
	// torn says the last line was incomplete or unparsable and was dropped.
	torn bool
}

// readContents parses a whole log. A broken last line is dropped and
// reported in torn; any other broken line, a seq gap or an unknown required
// event type is an error naming path and line.
func readContents(r io.Reader, path string) (contents, error) {
	br := bufio.NewReaderSize(r, readBufferSize)
	var c contents
	var long []byte
	sawHeader := false
	for lineNo := 1; ; lineNo++ {
		line, complete, err := readLine(br, &long)
		if err != nil {
			return c, fmt.Errorf("read session log %s: %w", path, err)
		}
		if line == nil {
			break
		}
		if lineNo == 1 {
			if c.header, err = decodeHeader(line); err != nil || !complete {
				return c, fmt.Errorf("%w: %s has no readable header line (%v); it cannot be opened", ErrCorrupt, path, err)
			}
			c.validSize = int64(len(line)) + 1
			sawHeader = true
			continue
		}
		if !complete {
			c.torn = true
			break
		}
		d, err := decodeEvent(line)
		if err != nil {
			var unknown errUnknownType
			if errors.As(err, &unknown) {
				return c, &UnknownTypeError{Path: path, Type: unknown.typ, Line: lineNo}
			}
			// Peek may move the buffer under line; line is not used again.
			if atEOF(br) {
				c.torn = true
				break
			}
			return c, fmt.Errorf("%w: %s line %d: %v", ErrCorrupt, path, lineNo, err)
		}
		if d.event.Seq != c.nextSeq {
			return c, fmt.Errorf("%w: %s line %d has seq %d, want %d", ErrCorrupt, path, lineNo, d.event.Seq, c.nextSeq)
		}
		c.nextSeq++
		c.validSize += int64(len(line)) + 1
		if !d.skip {
			c.events = append(c.events, d.event)
		}
	}
	if !sawHeader {
		return c, fmt.Errorf("%w: %s is empty", ErrCorrupt, path)
	}
	return c, nil
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

func atEOF(br *bufio.Reader) bool {
	_, err := br.Peek(1)
	return err != nil
}
