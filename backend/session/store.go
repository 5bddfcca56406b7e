package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// writeBufferSize is how much Append buffers before the kernel sees it.
const writeBufferSize = 64 << 10

// titleRepeatBytes is how far the log may grow past its latest title
// before Append logs that title again. It is well inside List's window, so
// List finds the title a resumed session shows in the tail of the log
// however long the log grows and wherever the title was first written.
const titleRepeatBytes = listWindow / 2

// ErrClosed is returned by a Log's methods after Close.
var ErrClosed = errors.New("session log is closed")

// Log is an open session log: the single writer of one JSONL file. It holds
// the session's lock from Create or Open until Close. It keeps the fold of
// its events (Projection) and where their lines are, not the events: they
// are read back from the file on demand (ReadEvents, History). Its methods
// are safe for concurrent use.
type Log struct {
	mu  sync.Mutex
	st  logState
	w   *bufio.Writer
	enc *lineEncoder
	// lock is nil for a Log that only reads (ReadProjection).
	lock     *fileLock
	repaired []Event
	closed   bool
	// newEntry is set while the directory entry of a newly created log
	// has not been synced: the first Sync makes it durable.
	newEntry bool
}

// Create starts a new log at path (directories 0700, file 0600), writes the
// header and takes the session's lock. A zero h.Version becomes
// FormatVersion. It fails if a log already exists at path. The header is
// written through to the file but synced, with the file's directory entry,
// only by the first Sync or by Close: a session that crashes before its
// first durability barrier has no event worth keeping, and starting a
// session does not wait for the disk.
func Create(path string, h Header) (*Log, error) {
	if h.Version == 0 {
		h.Version = FormatVersion
	}
	h.Created = time.UnixMilli(h.Created.UnixMilli())
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create session %s: %w; tack keeps sessions in %s: make it writable, "+
			"or set TACK_HOME to a directory tack may write", h.ID, err, filepath.Dir(path))
	}
	lock, err := acquireLock(path, h.ID, os.Getpid())
	if err != nil {
		return nil, err
	}
	line, err := encodeHeader(h)
	if err != nil {
		return nil, errors.Join(err, lock.release())
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("create session %s: %w", h.ID, err), lock.release())
	}
	if _, err = f.Write(line); err != nil {
		return nil, errors.Join(fmt.Errorf("create session %s: %w", h.ID, err), f.Close(), lock.release())
	}
	// A stale index of an earlier log at this path must not be taken for
	// this one's.
	os.Remove(indexPath(path))
	st := newState(path, h, f, int64(len(line)))
	l := newLog(st, lock)
	l.newEntry = true
	return l, nil
}

// Open takes the lock of the log at path, reads it (through its index when
// that is current), truncates a torn last line away and appends and syncs
// the events that close what a killed writer left open (see Repaired).
// Appends continue the log.
func Open(path string) (*Log, error) {
	id := idFromPath(path)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	lock, err := acquireLock(path, id, os.Getpid())
	if err != nil {
		return nil, err
	}
	l, err := openLocked(path, lock)
	if err != nil {
		return nil, errors.Join(err, lock.release())
	}
	return l, nil
}

func openLocked(path string, lock *fileLock) (*Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("open session log: %w", err)
	}
	st, torn, err := loadState(f, path)
	if err == nil && torn {
		err = f.Truncate(st.size)
	}
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	l := newLog(st, lock)
	open, err := l.st.openTurn()
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	// The title is set aside while repairing, so that repair appends
	// exactly what Read adds; the next Append repeats it if it is far
	// behind.
	title, titleEnd := l.st.title, l.st.titleEnd
	l.st.title = nil
	at := l.st.proj.LastActive()
	for _, d := range closers(open) {
		e, err := l.Append(at, d)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("repair session log %s: %w", path, err), f.Close())
		}
		l.repaired = append(l.repaired, e)
	}
	l.st.title, l.st.titleEnd = title, titleEnd
	// A log opened as it was has nothing to make durable: resuming does
	// not wait for the disk.
	if torn || len(l.repaired) > 0 {
		if err := l.Sync(); err != nil {
			return nil, errors.Join(fmt.Errorf("repair session log %s: %w", path, err), f.Close())
		}
	}
	l.mu.Lock()
	if l.st.indexed != l.st.size {
		l.st.writeIndex()
	}
	l.mu.Unlock()
	return l, nil
}

// Read loads every event of the log at path without locking or writing
// it. A torn last line is dropped and the repair events Open would append
// are added in memory only, so the result equals what Open would load. It
// costs the whole log; ReadProjection is what a reader of a session's
// state wants.
func Read(path string) (Header, []Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, fmt.Errorf("read session log: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, readBufferSize)
	h, headerLen, err := readHeader(br, path)
	if err != nil {
		return Header{}, nil, err
	}
	var events []Event
	sc, err := scanEvents(br, path, position{off: headerLen, line: 2}, false, func(d decoded, _ int64, _ int) {
		if !d.skip {
			events = push(events, d.event)
		}
	})
	if err != nil {
		return Header{}, nil, err
	}
	at := h.Created
	if len(events) > 0 {
		at = events[len(events)-1].Time
	}
	seq := sc.end.seq
	for _, d := range closers(events) {
		events = append(events, Event{Type: d.EventType(), Seq: seq, Time: at, Data: d})
		seq++
	}
	return h, events, nil
}

// ReadProjection folds the log at path, through its index when that is
// current, without locking or writing it; the repair events Open would
// append are folded in too, so it equals what Open would load.
func ReadProjection(path string) (*Projection, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read session log: %w", err)
	}
	defer f.Close()
	st, _, err := loadState(f, path)
	if err != nil {
		return nil, err
	}
	open, err := st.openTurn()
	if err != nil {
		return nil, err
	}
	at, seq := st.proj.LastActive(), st.nextSeq
	for _, d := range closers(open) {
		st.proj.Apply(Event{Type: d.EventType(), Seq: seq, Time: at, Data: d})
		seq++
	}
	return st.proj, nil
}

func newLog(st logState, lock *fileLock) *Log {
	return &Log{st: st, w: bufio.NewWriterSize(st.file, writeBufferSize), enc: newLineEncoder(), lock: lock}
}

// Append assigns the next seq, stamps now (to the millisecond) and buffers
// the event's line. It never syncs: call Sync at the durability barriers.
// When the log has grown titleRepeatBytes past its latest session/title,
// Append logs that title again after the event (with the next seq), so
// List, which reads only the ends of a log, shows the title a resumed
// session shows.
func (l *Log) Append(now time.Time, d Data) (Event, error) {
	if _, ok := d.(CompactionMarker); ok || d == nil {
		return Event{}, fmt.Errorf("append to session %s: %T is not a log event", l.st.header.ID, d)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return Event{}, ErrClosed
	}
	e, err := l.appendLocked(now, d)
	if err != nil {
		return Event{}, err
	}
	if l.st.title != nil && l.st.size-l.st.titleEnd > titleRepeatBytes {
		// A failed write here is kept by the buffered writer and returned
		// by the next Append or Sync; the event itself was appended.
		_, _ = l.appendLocked(now, *l.st.title)
	}
	return e, nil
}

func (l *Log) appendLocked(now time.Time, d Data) (Event, error) {
	e := Event{Type: d.EventType(), Seq: l.st.nextSeq, Time: time.UnixMilli(now.UnixMilli()), Data: d}
	line, err := l.enc.encode(e)
	if err != nil {
		return Event{}, fmt.Errorf("append to session %s: %w", l.st.header.ID, err)
	}
	if _, err := l.w.Write(line); err != nil {
		return Event{}, fmt.Errorf("append to session %s: %w", l.st.header.ID, err)
	}
	off := l.st.size
	l.st.size += int64(len(line))
	l.st.ingest(decoded{event: e}, off, len(line)-1)
	return e, nil
}

// Sync writes buffered events to the file and fsyncs it (and, the first
// time after Create, the directory holding it). Once the log has grown
// well past its index, it writes a new one.
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if err := l.syncLocked(); err != nil {
		return err
	}
	if l.st.size-l.st.indexed > reindexBytes {
		l.st.writeIndex()
	}
	return nil
}

func (l *Log) syncLocked() error {
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("sync session %s: %w", l.st.header.ID, err)
	}
	if err := l.st.file.Sync(); err != nil {
		return fmt.Errorf("sync session %s: %w", l.st.header.ID, err)
	}
	if l.newEntry {
		if err := syncDir(filepath.Dir(l.st.path)); err != nil {
			return fmt.Errorf("sync session %s: %w", l.st.header.ID, err)
		}
		l.newEntry = false
	}
	return nil
}

// lines flushes the buffered events and returns where the log's lines are.
func (l *Log) lines() (lines, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return lines{}, ErrClosed
	}
	if err := l.w.Flush(); err != nil {
		return lines{}, fmt.Errorf("read session %s: %w", l.st.header.ID, err)
	}
	return l.st.lines(), nil
}

// ReadEvents reads back the events with the given seqs, which must be
// ascending; events of unknown ignorable types are left out. The file is
// read without holding up appends.
func (l *Log) ReadEvents(seqs []int64) ([]Event, error) {
	ls, err := l.lines()
	if err != nil {
		return nil, err
	}
	return ls.read(seqs)
}

// ReadAll reads back every event of the log, in seq order (events of
// unknown ignorable types are absent). It costs the whole log.
func (l *Log) ReadAll() ([]Event, error) {
	ls, err := l.lines()
	if err != nil {
		return nil, err
	}
	seqs := make([]int64, ls.nextSeq)
	for i := range seqs {
		seqs[i] = int64(i)
	}
	return ls.read(seqs)
}

// Events is ReadAll for callers that cannot act on a read error (tests and
// diagnostics): it returns nil when the log cannot be read.
func (l *Log) Events() []Event {
	events, err := l.ReadAll()
	if err != nil {
		return nil
	}
	return events
}

// Projection is a copy of the fold of every event in the log. It holds no
// message bodies of the events before it was taken; Surface reads them
// from the log.
func (l *Log) Projection() *Projection {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st.proj.Clone(false)
}

// NextSeq is the seq the next appended event gets.
func (l *Log) NextSeq() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st.nextSeq
}

// Repaired returns the events Open appended to close what the previous
// writer left open; empty for a cleanly closed log.
func (l *Log) Repaired() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.repaired[:len(l.repaired):len(l.repaired)]
}

// Header returns the log's header.
func (l *Log) Header() Header { return l.st.header }

// Path returns the log's file path.
func (l *Log) Path() string { return l.st.path }

// Close syncs, brings the index up to date, closes the file and releases
// the lock. Later calls return nil.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	err := l.syncLocked()
	if err == nil && l.st.indexed != l.st.size {
		l.st.writeIndex()
	}
	return errors.Join(err, l.st.file.Close(), l.lock.release())
}

// syncDir makes the entries of a directory durable.
func syncDir(path string) error {
	dir, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(dir.Sync(), dir.Close())
}

// idFromPath is the session id of a log path: its file name without
// ".jsonl".
func idFromPath(path string) string {
	return strings.TrimSuffix(filepath.Base(path), logExt)
}
