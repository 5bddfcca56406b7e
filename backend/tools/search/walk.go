package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
)

// workers bounds the goroutines that read directories and files at once.
func workers() int { return min(max(runtime.GOMAXPROCS(0), 2), 8) }

// file is one regular file found by a walk.
type file struct {
	abs   string
	rel   string // slash-separated, relative to the search root
	entry fs.DirEntry
}

// walk visits every regular file under root that the ignore files do not
// exclude, skipping version-control directories and symbolic links. visit
// is called from several goroutines at once. Directories are read in
// parallel by at most workers() goroutines; the order of visits is not
// defined, so callers sort what they collect. It returns ctx's error if
// the walk was cut short.
func walk(ctx context.Context, root string, visit func(file)) error {
	rel, rules := scope(root)
	w := &walker{ctx: ctx, visit: visit, sem: make(chan struct{}, workers())}
	w.wg.Add(1)
	go w.dir(root, rel, "", rules)
	w.wg.Wait()
	return ctx.Err()
}

// collect walks root and gathers what pick makes of each file it keeps,
// in no defined order; pick is called from several goroutines at once.
func collect[T any](ctx context.Context, root string, pick func(file) (T, bool)) ([]T, error) {
	var (
		mu  sync.Mutex
		out []T
	)
	err := walk(ctx, root, func(f file) {
		if v, ok := pick(f); ok {
			mu.Lock()
			out = append(out, v)
			mu.Unlock()
		}
	})
	return out, err
}

type walker struct {
	ctx   context.Context
	visit func(file)
	sem   chan struct{}
	wg    sync.WaitGroup
}

// dir lists one directory, visits its files and starts a goroutine per
// subdirectory. relBase is dir relative to the ignore base, relRoot
// relative to the search root.
func (w *walker) dir(dir, relBase, relRoot string, inherited []rule) {
	defer w.wg.Done()
	if w.ctx.Err() != nil {
		return
	}
	w.sem <- struct{}{}
	defer func() { <-w.sem }()
	entries, err := readDir(dir)
	if err != nil {
		return
	}
	present := func(name string) bool {
		return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name })
	}
	rules := withIgnoreFiles(inherited, dir, relBase, present)
	for _, e := range entries {
		name := e.Name()
		childBase, childRoot := joinRel(relBase, name), joinRel(relRoot, name)
		switch {
		case e.IsDir():
			if skipDir(name) || ignored(rules, childBase, name, true) {
				continue
			}
			w.wg.Add(1)
			go w.dir(filepath.Join(dir, name), childBase, childRoot, rules)
		case e.Type().IsRegular():
			if !ignored(rules, childBase, name, false) {
				w.visit(file{abs: filepath.Join(dir, name), rel: childRoot, entry: e})
			}
		}
	}
}

// readDir lists a directory in the order the system gives, without a
// stat per entry.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
