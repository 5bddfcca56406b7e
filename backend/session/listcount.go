package session

import (
	"bytes"
	"hash/crc32"
	"io"
)

// maxCountBytes bounds how much of a log List reads to count the messages
// its index does not cover: the lines Sync leaves unindexed stay under
// reindexBytes. A log without a current index is counted only when List
// reads it whole anyway, up to maxUnindexedCount bytes.
const (
	maxCountBytes     = reindexBytes + listWindow
	maxUnindexedCount = 2 * listWindow
)

// messageCount is how many messages (Totals.Messages) the log f of size
// bytes at path logged, whose header is h and header line (newline
// included) headerLine: its index's count and those of the lines after
// it, or, without a current index, those of the whole log when it is no
// longer than maxUnindexedCount. ok is false for a longer log without a
// current index.
// scratch holds what is read when it fits.
func messageCount(path string, f io.ReaderAt, size int64, h Header, headerLine, scratch []byte) (n int, ok bool) {
	if ix, err := readIndexHead(path, h, scratch); err == nil {
		if n, ok := countAfterIndex(ix, f, size, headerLine, scratch); ok {
			return n, true
		}
	}
	headerLen := int64(len(headerLine))
	if size > maxUnindexedCount {
		return 0, false
	}
	b, err := readInto(scratch, f, headerLen, size-headerLen)
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

// countMessages counts the messages of the complete lines of chunk, which
// starts at a line.
func countMessages(chunk []byte) int {
	text := textArena{fold: true}
	n := 0
	for chunk = completeLines(chunk); len(chunk) > 0; {
		end := bytes.IndexByte(chunk, '\n')
		if d, err := decodeEvent(chunk[:end], &text); err == nil && !d.skip && appendsMessage(d.event) {
			n++
		}
		chunk = chunk[end+1:]
	}
	return n
}
