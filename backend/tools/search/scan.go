package search

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/workspace"
)

const (
	// chunkSize is how much of a file a scanner holds at once; a line
	// longer than that is searched in its first chunkSize bytes only.
	chunkSize = 4 << 20
)

// scanner greps one file at a time with a reusable buffer; each worker
// owns one.
type scanner struct {
	q   *query
	buf []byte
}

func newScanner(q *query) *scanner { return &scanner{q: q} }

// file greps one file. Unreadable and binary (workspace.Binary) files
// count as having no matches.
func (s *scanner) file(path string) fileMatches {
	f, err := openFile(path)
	if err != nil {
		return fileMatches{}
	}
	defer f.Close()
	if s.q.multiline {
		return s.whole(f)
	}
	var fm fileMatches
	line, carry, skipRest, first := 1, 0, false, true
	for {
		if s.buf == nil {
			s.buf = make([]byte, 64<<10)
		}
		n, err := io.ReadFull(f, s.buf[carry:])
		data := s.buf[:carry+n]
		eof := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		if err != nil && !eof {
			return fm
		}
		if first && workspace.Binary(data) {
			return fileMatches{}
		}
		first = false
		if skipRest {
			// The tail of a line longer than the buffer: not searched.
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				if eof {
					return fm
				}
				carry = 0
				continue
			}
			data, skipRest = s.buf[:copy(s.buf, data[i+1:])], false
		}
		chunk := data
		if !eof {
			if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
				chunk = data[:i+1]
			} else if len(s.buf) < chunkSize {
				s.buf = append(s.buf[:len(s.buf)], make([]byte, len(s.buf))...)
				carry = len(data)
				continue
			} else {
				skipRest = true
			}
		}
		line = s.chunk(chunk, line, &fm)
		if eof {
			return fm
		}
		carry = copy(s.buf, data[len(chunk):])
	}
}

// chunk greps the lines of data, the first numbered line, and returns the
// number of the line after them. A last line without "\n" counts.
func (s *scanner) chunk(data []byte, line int, fm *fileMatches) int {
	if s.q.whole != nil && !s.q.whole.Match(data) {
		n := bytes.Count(data, []byte{'\n'})
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		return line + n
	}
	for len(data) > 0 {
		end := bytes.IndexByte(data, '\n')
		text := data
		if end >= 0 {
			text, data = data[:end], data[end+1:]
		} else {
			data = nil
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if s.q.line.Match(text) {
			fm.count++
			if len(fm.lines) < s.q.keep {
				fm.lines = append(fm.lines, match{line: line, text: preview(text)})
			}
		}
		line++
	}
	return line
}

// whole greps a file in one piece, so that a match may span lines; only
// its first chunkSize bytes are searched. Each line a match touches is a
// matching line.
func (s *scanner) whole(f io.Reader) fileMatches {
	data, err := io.ReadAll(io.LimitReader(f, chunkSize))
	if err != nil || workspace.Binary(data) {
		return fileMatches{}
	}
	var fm fileMatches
	line, at, next := 1, 0, 0 // the line at offset at; the first line not yet kept
	for _, m := range s.q.line.FindAllIndex(data, -1) {
		line += bytes.Count(data[at:m[0]], []byte{'\n'})
		at = m[0]
		fm.count++
		start := bytes.LastIndexByte(data[:m[0]], '\n') + 1
		end := max(m[1], m[0]+1) // an empty match touches its line
		for n := line; start < len(data) && start < end && len(fm.lines) < s.q.keep; n++ {
			stop := bytes.IndexByte(data[start:], '\n')
			if stop < 0 {
				stop = len(data) - start
			}
			if n >= next {
				text := bytes.TrimSuffix(data[start:start+stop], []byte{'\r'})
				fm.lines = append(fm.lines, match{line: n, text: preview(text)})
				next = n + 1
			}
			start += stop + 1
		}
	}
	return fm
}

// preview is a matching line as shown: valid UTF-8, cut at grepMaxPreview
// bytes on a rune boundary.
func preview(text []byte) string {
	if len(text) <= grepMaxPreview {
		return strings.ToValidUTF8(string(text), "\uFFFD")
	}
	cut := grepMaxPreview
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(text[:cut]), "\uFFFD") + "... (line truncated)"
}
