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
// the session's lock from Create or Open until Close. Its methods are safe
// for concurrent use.
type Log struct {
	mu       sync.Mutex
	path     string
	header   Header
	file     *os.File
	w        *bufio.Writer
	enc      *lineEncoder
	lock     *fileLock
	events   []Event
	repaired []Event
	nextSeq  int64
	closed   bool
	// size is the log's length including buffered lines; titleEnd is
	// where the line of the latest title, title, ends (nil: no title yet).
	size, titleEnd int64
	title          *Title
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
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("create session %s: %w", h.ID, err), lock.release())
	}
	if _, err = f.Write(line); err != nil {
		return nil, errors.Join(fmt.Errorf("create session %s: %w", h.ID, err), f.Close(), lock.release())
	}
	l := newLog(path, h, f, lock, nil, 0)
	l.size = int64(len(line))
	l.newEntry = true
	return l, nil
}

// Open takes the lock of the log at path, reads it, truncates a torn last
// line away and appends and syncs the events that close what a killed
// writer left open (see Repaired). Appends continue the log.
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
	c, err := readContents(f, path)
	if err == nil && c.torn {
		err = f.Truncate(c.validSize)
	}
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	l := newLog(path, c.header, f, lock, c.events, c.nextSeq)
	l.size = c.validSize
	at := repairTime(c.header, c.events)
	for _, d := range closers(c.events) {
		e, err := l.Append(at, d)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("repair session log %s: %w", path, err), f.Close())
		}
		l.repaired = append(l.repaired, e)
	}
	// Known only after repair, so that repair appends exactly what Read
	// adds; the next Append repeats the title if it is far behind.
	l.title, l.titleEnd = c.title, c.titleEnd
	if err := l.Sync(); err != nil {
		return nil, errors.Join(fmt.Errorf("repair session log %s: %w", path, err), f.Close())
	}
	return l, nil
}

// Read loads the log at path without locking or writing it. A torn last
// line is dropped and the repair events Open would append are added in
// memory only, so the result equals what Open would load.
func Read(path string) (Header, []Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, fmt.Errorf("read session log: %w", err)
	}
	defer f.Close()
	c, err := readContents(f, path)
	if err != nil {
		return Header{}, nil, err
	}
	at := repairTime(c.header, c.events)
	seq := c.nextSeq
	for _, d := range closers(c.events) {
		c.events = append(c.events, Event{Type: d.EventType(), Seq: seq, Time: at, Data: d})
		seq++
	}
	return c.header, c.events, nil
}

// repairTime stamps repair events with the last time the log shows, when
// the writer was known to be alive.
func repairTime(h Header, events []Event) time.Time {
	if len(events) > 0 {
		return events[len(events)-1].Time
	}
	return h.Created
}

func newLog(path string, h Header, f *os.File, lock *fileLock, events []Event, nextSeq int64) *Log {
	return &Log{path: path, header: h, file: f, w: bufio.NewWriterSize(f, writeBufferSize),
		enc: newLineEncoder(), lock: lock, events: events, nextSeq: nextSeq}
}

// Append assigns the next seq, stamps now (to the millisecond) and buffers
// the event's line. It never syncs: call Sync at the durability barriers.
// When the log has grown titleRepeatBytes past its latest session/title,
// Append logs that title again after the event (with the next seq), so
// List, which reads only the ends of a log, shows the title a resumed
// session shows.
func (l *Log) Append(now time.Time, d Data) (Event, error) {
	if _, ok := d.(CompactionMarker); ok || d == nil {
		return Event{}, fmt.Errorf("append to session %s: %T is not a log event", l.header.ID, d)
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
	if l.title != nil && l.size-l.titleEnd > titleRepeatBytes {
		// A failed write here is kept by the buffered writer and returned
		// by the next Append or Sync; the event itself was appended.
		_, _ = l.appendLocked(now, *l.title)
	}
	return e, nil
}

func (l *Log) appendLocked(now time.Time, d Data) (Event, error) {
	e := Event{Type: d.EventType(), Seq: l.nextSeq, Time: time.UnixMilli(now.UnixMilli()), Data: d}
	line, err := l.enc.encode(e)
	if err != nil {
		return Event{}, fmt.Errorf("append to session %s: %w", l.header.ID, err)
	}
	if _, err := l.w.Write(line); err != nil {
		return Event{}, fmt.Errorf("append to session %s: %w", l.header.ID, err)
	}
	l.nextSeq++
	l.size += int64(len(line))
	l.events = append(l.events, e)
	if t, ok := d.(Title); ok {
		l.title, l.titleEnd = &t, l.size
	}
	return e, nil
}

// Sync writes buffered events to the file and fsyncs it (and, the first
// time after Create, the directory holding it).
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	return l.syncLocked()
}

func (l *Log) syncLocked() error {
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("sync session %s: %w", l.header.ID, err)
	}
	if err := l.file.Sync(); err != nil {
		return fmt.Errorf("sync session %s: %w", l.header.ID, err)
	}
	if l.newEntry {
		if err := syncDir(filepath.Dir(l.path)); err != nil {
			return fmt.Errorf("sync session %s: %w", l.header.ID, err)
		}
		l.newEntry = false
	}
	return nil
}

// Events returns the loaded and appended events in seq order (events of
// unknown ignorable types are absent). The slice is shared with the Log
// and must not be modified; later appends do not change it.
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events[:len(l.events):len(l.events)]
}

// Repaired returns the events Open appended to close what the previous
// writer left open; empty for a cleanly closed log.
func (l *Log) Repaired() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.repaired[:len(l.repaired):len(l.repaired)]
}

// Header returns the log's header.
func (l *Log) Header() Header { return l.header }

// Path returns the log's file path.
func (l *Log) Path() string { return l.path }

// Close syncs, closes the file and releases the lock. Later calls return
// nil.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	return errors.Join(l.syncLocked(), l.file.Close(), l.lock.release())
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
