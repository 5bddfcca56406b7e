package fs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// lineKeepBytes is the most of one line scanWindow holds in memory: enough
// for readMaxLineLen runes of any width plus one to know the line was cut.
const lineKeepBytes = readMaxLineLen*utf8.UTFMax + 1

// scanWindow reads lines from br, keeping lines offset..offset+limit-1 up
// to maxBytes of text and counting the rest, without ever holding more
// than one cut line. A line
// ends at "\n"; a trailing "\r" is dropped; a last line without newline
// counts; an empty file has no lines.
func scanWindow(ctx context.Context, br *bufio.Reader, offset, limit, maxBytes int) (window, error) {
	var (
		w    window
		used int
		line []byte
		cut  bool
		// open says a line was begun by a fragment that filled the buffer:
		// at end of file it still counts, even with no bytes after it.
		open bool
	)
	start := offset - 1
	for {
		frag, err := br.ReadSlice('\n')
		if len(frag) == 0 && err != nil && (!open || !errors.Is(err, io.EOF)) {
			if errors.Is(err, io.EOF) {
				return w, nil
			}
			return w, err
		}
		keep := w.total >= start && len(w.lines) < limit
		if keep {
			room := lineKeepBytes - len(line)
			if len(frag) > room {
				frag, cut = frag[:room], true
			}
			line = append(line, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			open = true
			continue
		}
		open = false
		if err != nil && !errors.Is(err, io.EOF) {
			return w, err
		}
		w.total, w.newline = w.total+1, err == nil
		if w.total%4096 == 0 && ctx.Err() != nil {
			return w, ctx.Err()
		}
		switch {
		case w.total <= start:
		case !keep:
			w.more = true
		default:
			text := shownLine(line, cut)
			size := len(text)
			if len(w.lines) > 0 {
				size++
			}
			if used+size > maxBytes {
				w.capped, w.more = true, true
				return w, nil
			}
			w.lines = append(w.lines, text)
			used += size
		}
		line, cut = line[:0], false
		if err != nil {
			return w, nil
		}
	}
}

// shownLine is one line as read shows it: without its line ending, valid
// UTF-8, at most readMaxLineLen runes.
func shownLine(line []byte, cut bool) string {
	if !cut {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	if !cut && utf8.RuneCount(line) <= readMaxLineLen {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	n, i := 0, 0
	for i < len(line) && n < readMaxLineLen {
		_, size := utf8.DecodeRune(line[i:])
		i += size
		n++
	}
	return strings.ToValidUTF8(string(line[:i]), "\uFFFD") + lineTruncSuffix
}
