package search

import (
	"context"
	"sync"

	"github.com/tack-agent/tack/backend/workspace"
)

// collect walks root and gathers what pick makes of each regular file it
// keeps, in no defined order; pick is called from several goroutines at
// once.
func collect[T any](ctx context.Context, w *workspace.Walker, root string, pick func(workspace.Entry) (T, bool)) ([]T, error) {
	var (
		mu  sync.Mutex
		out []T
	)
	err := w.Walk(ctx, root, func(e workspace.Entry) {
		if !e.IsRegular() {
			return
		}
		if v, ok := pick(e); ok {
			mu.Lock()
			out = append(out, v)
			mu.Unlock()
		}
	})
	return out, err
}
