package workspace

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// workers bounds the goroutines that read directories or files at once.
func workers() int { return min(max(runtime.GOMAXPROCS(0), 2), 8) }

// Parallel does the work of every index below n on a bounded pool of
// goroutines that take the indexes in order, so that the first items are
// done first: the walk reads a level's directories with it, grep the
// files a walk kept. start runs once in each goroutine and gives that
// goroutine's work, which may keep state from one item to the next.
// Parallel returns when every index is done or ctx ends, with ctx's error.
func Parallel(ctx context.Context, n int, start func() (work func(i int))) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers(), n) {
		wg.Go(func() {
			work := start()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				work(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}
