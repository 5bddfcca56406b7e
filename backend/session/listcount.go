package session

import (
	"bytes"
	"hash/crc32"
	"io"
)

// How much of a log List reads to count its messages. The lines after a
// current index stay under reindexBytes, as Sync reindexes past that; a
// log without a current index (one killed before it wrote its first, or
// indexed by an older tack) is counted whole when it is no longer than a
// log gets before its first index, and while the List has read less than
// unindexedBudget of such logs, so a home of a thousand of them lists as
// fast as any other. Past that its count is unknown until it is opened.
const (
	maxCountBytes     = reindexBytes + listWindow
	maxUnindexedCount = reindexBytes + listWindow
	unindexedBudget   = 32 << 20
)

// counter counts the messages of the logs of one List.
type counter struct {
	scratch []byte // holds an index head, and what follows it when it fits
	whole   []byte // holds a log counted whole, grown as needed
	budget  int64  // bytes left to read of logs counted whole
}

func newCounter() *counter {
	return &counter{scratch: make([]byte, indexHeadRead), budget: unindexedBudget}
}

// messageCount is how many messages (Totals.Messages) the log f of size
// bytes at path logged, whose header is h and header line (newline
// included) headerLine: its index's count and those of the lines after
// it, or, without a current index, those of the whole log as the budget
// allows. ok is false when the count is unknown.
func (c *counter) messageCount(path string, f io.ReaderAt, size int64, h Header, headerLine []byte) (n int, ok bool) {
	if ix, err := readIndexHead(path, h, c.scratch); err == nil {
		if n, ok := countAfterIndex(ix, f, size, headerLine, c.scratch); ok {
			return n, true
		}
	}
	headerLen := int64(len(headerLine))
	n64 := size - headerLen
	if size > maxUnindexedCount || n64 > c.budget {
		return 0, false
	}
	c.budget -= n64
	if int64(cap(c.whole)) < n64 {
		c.whole = make([]byte, n64)
	}
	b, err := readInto(c.whole, f, headerLen, n64)
	if err != nil {
		return 0, false
	}
	return countMessages(b), true
}

// countAfterIndex adds the messages of the lines after ix to its count.
// It checks ix against the log as far as what it reads allows: the header
// and the window of the covered prefix that ends where ix ends.
func countAfterIndex(ix *index, f io.ReaderAt, size int64, headerLine, scratch []byte) (int, bool) {
	switch {
	case ix.headerLen != int64(len(headerLine)), ix.covered > size, len(ix.samples) == 0,
		crc32.Checksum(headerLine, castagnoli()) != ix.headerCRC:
		return 0, false
	}
	last := ix.samples[len(ix.samples)-1]
	if last.off+last.n != ix.covered || size-last.off > maxCountBytes {
		return 0, false
	}
	b, err := readInto(scratch, f, last.off, size-last.off)
	if err != nil {
		return 0, false
	}
	covered := b[:last.n]
	if crc32.Checksum(covered, castagnoli()) != last.crc || len(covered) == 0 || covered[len(covered)-1] != '\n' {
		return 0, false
	}
	return ix.proj.totals.Messages + countMessages(b[last.n:]), true
}

// namesReplace reports whether line may hold a replace field: a quoted
// "replace" in any case, as encoding/json matches field names. Inside a
// JSON string a quote is escaped, so a line without one holds none.
func namesReplace(line []byte) bool {
	const key = `replace"`
	for i := bytes.IndexByte(line, '"'); i >= 0 && i+1+len(key) <= len(line); {
		rest := line[i+1:]
		if bytes.EqualFold(rest[:len(key)], []byte(key)) {
			return true
		}
		j := bytes.IndexByte(rest, '"')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// countMessages counts the messages of the complete lines of chunk, which
// starts at a line, as the fold does (appendsMessage). It reads each
// line's type, as Scan does, and decodes only a message line that names
// a replace.
func countMessages(chunk []byte) int {
	text := textArena{fold: true}
	n := 0
	for chunk = completeLines(chunk); len(chunk) > 0; {
		end := bytes.IndexByte(chunk, '\n')
		line := chunk[:end]
		chunk = chunk[end+1:]
		t, err := lineType(line)
		if err != nil {
			continue
		}
		switch t {
		case AssistantMessage{}.EventType(), SteeringMessage{}.EventType():
			n++
		case UserMessage{}.EventType(), ToolResult{}.EventType():
			if !namesReplace(line) {
				n++
			} else if d, err := decodeEvent(line, &text); err == nil && !d.skip && appendsMessage(d.event) {
				n++
			}
		}
	}
	return n
}
