package session

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ErrLocked is matched (errors.Is) by the error of opening a session that
// another Log holds, in this process or another.
var ErrLocked = errors.New("session is open elsewhere")

// errWouldBlock is what the platform's lock primitives return when another
// holder has the lock.
var errWouldBlock = errors.New("lock held elsewhere")

// LockedError says which process holds a session. PID is 0 when the holder
// did not record it.
type LockedError struct {
	ID  string
	PID int
}

func (e *LockedError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "process " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("session %s is open in %s; close it there, or start a new session", e.ID, who)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lockRetry bounds how long acquiring waits out a brief probe by List,
// which holds a shared lock for a few microseconds.
const lockRetry = 100 * time.Millisecond

// fileLock is an exclusive OS lock on "<log>.lock" (flock(2) on Unix,
// LockFileEx on Windows; lockExclusive and its kin live in the build-tagged
// files). The kernel releases it when the holder dies, so a lock file left
// by a crashed process never blocks; the pid written into it only names the
// holder in errors.
type fileLock struct{ f *os.File }

func lockPath(logPath string) string { return logPath + ".lock" }

// acquireLock takes the lock of the log at logPath for session id.
func acquireLock(logPath, id string, pid int) (*fileLock, error) {
	f, err := os.OpenFile(lockPath(logPath), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", id, err)
	}
	deadline := time.Now().Add(lockRetry)
	for {
		err = lockExclusive(f)
		if !errors.Is(err, errWouldBlock) || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if errors.Is(err, errWouldBlock) {
		holder := readPID(f)
		f.Close()
		return nil, &LockedError{ID: id, PID: holder}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock session %s: %w", id, err)
	}
	if err := writePID(f, pid); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock session %s: record pid: %w", id, err)
	}
	return &fileLock{f: f}, nil
}

// release clears the recorded pid and drops the lock. The file stays:
// removing it would let a waiter lock an unlinked inode while a newcomer
// locks a fresh one.
func (l *fileLock) release() error {
	truncErr := l.f.Truncate(0)
	unlockErr := unlock(l.f)
	closeErr := l.f.Close()
	return errors.Join(truncErr, unlockErr, closeErr)
}

// lockHolder returns the pid holding the log's lock, -1 when it is held by
// a process that recorded no pid, and 0 when nobody holds it.
func lockHolder(logPath string) int {
	f, err := os.Open(lockPath(logPath))
	if err != nil {
		return 0
	}
	defer f.Close()
	if lockShared(f) == nil {
		unlock(f)
		return 0
	}
	if pid := readPID(f); pid > 0 {
		return pid
	}
	return -1
}

func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		return 0
	}
	return pid
}

func writePID(f *os.File, pid int) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(pid)+"\n"), 0)
	return err
}
