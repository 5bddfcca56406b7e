package bash

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/termtext"
)

// Default bounds of a captured stream.
const (
	// DefaultTailBytes is how much of each stream stays in memory.
	DefaultTailBytes = 64_000
	// DefaultSpillBytes is the largest spill file written per stream.
	DefaultSpillBytes = 64 << 20
)

// Stream captures one output stream of a process: the last TailBytes stay in
// memory, and once the stream outgrows them every byte (from the first one)
// also goes to a spill file, up to SpillBytes. Binary output (see
// looksBinary) is not kept as text: it goes to the spill file whole, and
// reads say what it is and where. It is safe for one writer and any
// number of concurrent readers.
type Stream struct {
	mu        sync.Mutex
	tailBytes int
	maxSpill  int64
	dir       string
	pattern   string

	buf     []byte // the last ≤ tailBytes bytes
	total   int64  // bytes written so far
	lines   int64  // line feeds written so far
	spill   *os.File
	path    string
	spilled int64
	failed  bool // the spill file could not be made or written
	closed  bool
	escapes escapeFilter
	plain   []byte // scratch for what escapes lets through
	// received counts the bytes written, before escapes; binary says the
	// stream's start looked binary.
	received int64
	binary   bool
}

// NewStream makes a stream that spills into dir (no spill when dir is empty)
// under a file name made from pattern as os.CreateTemp does. Non-positive
// bounds take the defaults.
func NewStream(dir, pattern string, tailBytes int, spillBytes int64) *Stream {
	if tailBytes <= 0 {
		tailBytes = DefaultTailBytes
	}
	if spillBytes <= 0 {
		spillBytes = DefaultSpillBytes
	}
	return &Stream{tailBytes: tailBytes, maxSpill: spillBytes, dir: dir, pattern: pattern, failed: dir == ""}
}

// Write captures p without its terminal control sequences (see
// escapeFilter). It never fails: a spill problem only makes the full
// output unavailable.
func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := s.received
	s.received += int64(len(p))
	if !s.binary && start < sniffBytes && looksBinary(p[:min(int64(len(p)), sniffBytes-start)]) {
		s.becomeBinary()
	}
	switch {
	case s.binary:
		if s.spill != nil {
			s.writeSpill(p)
		}
		s.total += int64(len(p))
	case s.escapes.passes(p):
		s.capture(p)
	default:
		s.plain = s.escapes.filter(s.plain[:0], p)
		s.capture(s.plain)
	}
	return len(p), nil
}

// becomeBinary stops keeping the stream as text: what it kept goes to the
// spill file, which takes every byte from now on as it comes.
func (s *Stream) becomeBinary() {
	s.binary = true
	if s.spill == nil && !s.failed {
		s.openSpill()
	}
	s.buf = nil
}

// binaryNotice is what reads of a binary stream say instead of its bytes.
func (s *Stream) binaryNotice() string {
	where := "write it to a file and look at it with file, xxd or od"
	if s.path != "" {
		where = "saved to " + s.path + " (look at it with file, xxd or od)"
	}
	return fmt.Sprintf("[binary output, %d bytes, not shown: %s]", s.received, where)
}

// capture keeps p in the tail and the spill file.
func (s *Stream) capture(p []byte) {
	if s.spill == nil && !s.failed && s.total+int64(len(p)) > int64(s.tailBytes) {
		s.openSpill() // buf still holds every byte so far
	}
	if s.spill != nil {
		s.writeSpill(p)
	}
	s.buf = append(s.buf, p...)
	if over := len(s.buf) - s.tailBytes; over > 0 {
		s.buf = s.buf[:copy(s.buf, s.buf[over:])]
	}
	s.total += int64(len(p))
	s.lines += int64(bytes.Count(p, []byte{'\n'}))
}

func (s *Stream) openSpill() {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		s.failed = true
		return
	}
	f, err := os.CreateTemp(s.dir, s.pattern)
	if err != nil {
		s.failed = true
		return
	}
	s.spill, s.path = f, f.Name()
	s.writeSpill(s.buf)
}

func (s *Stream) writeSpill(p []byte) {
	room := s.maxSpill - s.spilled
	if room <= 0 {
		return
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := s.spill.Write(p)
	s.spilled += int64(n)
	if err != nil {
		s.failed = true
		s.path = ""
		s.closeSpill()
	}
}

// Close ends the stream and closes its spill file. Later reads return
// everything left, including an incomplete last rune.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.binary {
		s.capture(s.escapes.flush(s.plain[:0]))
	}
	s.closed = true
	return s.closeSpill()
}

func (s *Stream) closeSpill() error {
	if s.spill == nil {
		return nil
	}
	err := s.spill.Close()
	s.spill = nil
	if err != nil {
		s.failed, s.path = true, ""
		return fmt.Errorf("close spill file: %w", err)
	}
	return nil
}

// Capture is what a stream kept.
type Capture struct {
	// Text is the kept tail, starting on a rune boundary.
	Text string
	// Truncated says bytes before Text were dropped from memory.
	Truncated bool
	// SpillPath names the file holding the full stream (at most the spill
	// bound); empty when there is none.
	SpillPath string
	// Lines counts the line feeds of the whole stream, kept or not.
	Lines int64
}

// Tail is the kept tail of the stream.
func (s *Stream) Tail() Capture {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.binary {
		return Capture{Text: s.binaryNotice(), SpillPath: s.path}
	}
	truncated := s.total > int64(len(s.buf))
	b := s.buf
	if truncated {
		b = trimRuneStart(b)
	}
	return Capture{Text: readable(b), Truncated: truncated, SpillPath: s.path, Lines: s.lines}
}

// Total is the number of bytes written so far.
func (s *Stream) Total() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// Read is one incremental read of a stream.
type Read struct {
	Text string
	// Next is the offset to read from next time.
	Next int64
	// Lossy says bytes between the requested offset and Text were dropped
	// from memory; SpillPath (when set) still holds them.
	Lossy     bool
	SpillPath string
}

// ReadFrom returns the bytes written since offset. While the stream is open
// an incomplete last rune is held back for the next read.
func (s *Stream) ReadFrom(offset int64) Read {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.binary {
		if offset >= s.total {
			return Read{Next: s.total, SpillPath: s.path}
		}
		return Read{Text: s.binaryNotice(), Next: s.total, SpillPath: s.path}
	}
	start := s.total - int64(len(s.buf))
	r := Read{SpillPath: s.path}
	b := s.buf
	if offset < start {
		r.Lossy = true
		b = trimRuneStart(b)
		offset = s.total - int64(len(b))
	}
	b = b[offset-(s.total-int64(len(b))):]
	if !s.closed {
		b = b[:len(b)-partialRuneSuffix(b)]
	}
	r.Text = readable(b)
	r.Next = offset + int64(len(b))
	return r
}

// readable is b as text the model and the session log can carry, as a
// terminal shows it: invalid UTF-8 (Latin-1, a cut rune) becomes U+FFFD,
// so that the result the model reads is the one a resumed session shows,
// and a line redrawn in place (a progress bar, a spinner) reads as its
// last state, not as every one: tqdm's and pip's redraws cost a model
// more tokens than all the rest of their output.
func readable(b []byte) string {
	return termtext.Overprint(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// trimRuneStart drops continuation bytes at the start of b, so a tail cut
// in the middle of a rune starts on the next one.
func trimRuneStart(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// partialRuneSuffix is the length of an incomplete rune at the end of b.
func partialRuneSuffix(b []byte) int {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if !utf8.RuneStart(c) {
			continue
		}
		if c < utf8.RuneSelf || utf8.FullRune(b[len(b)-i:]) {
			return 0
		}
		return i
	}
	return 0
}

// sniffBytes is how much of a stream's start tells binary output from
// text, as git's and grep's heuristics look at a file's first 8,000.
const sniffBytes = 8000

// looksBinary reports whether the start of a stream is binary: it holds a
// NUL and bytes that are not UTF-8, as an executable, an image or an
// archive does within its first bytes. NULs in UTF-8 text (find -print0,
// git ls-files -z) are text.
func looksBinary(p []byte) bool {
	if bytes.IndexByte(p, 0) < 0 {
		return false
	}
	return !utf8.Valid(p[:len(p)-partialRuneSuffix(p)])
}
