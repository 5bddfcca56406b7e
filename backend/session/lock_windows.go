//go:build windows

package session

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset places the locked byte far beyond the pid the file holds:
// Windows locks are mandatory, and a lock over the pid would stop a second
// process from reading who holds the session.
const lockOffset = 1 << 62

func lockExclusive(f *os.File) error {
	return lockFile(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
}

func lockShared(f *os.File) error { return lockFile(f, windows.LOCKFILE_FAIL_IMMEDIATELY) }

func unlock(f *os.File) error {
	ol := lockOverlapped()
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}

func lockFile(f *os.File, flags uint32) error {
	ol := lockOverlapped()
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errWouldBlock
	}
	return err
}

func lockOverlapped() windows.Overlapped {
	return windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
}
