package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// errWouldBlock is what tryLock returns while another process holds the
// lock.
var errWouldBlock = errors.New("store lock is held")

// lockPoll is how often a waiter retries a held store lock.
const lockPoll = 5 * time.Millisecond

// lockStore takes the store's file lock, which orders the git commands and
// restores of every tack process on one workspace, waiting until ctx ends.
// The kernel drops the lock of a process that dies.
func lockStore(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("%w: make the checkpoint store %s: %v; make $TACK_HOME writable",
			ErrUnavailable, filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: lock the checkpoint store: %v", ErrUnavailable, err)
	}
	for {
		err = tryLock(f)
		if !errors.Is(err, errWouldBlock) {
			break
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("wait for the checkpoint store, busy in another tack: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: lock the checkpoint store: %v", ErrUnavailable, err)
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
