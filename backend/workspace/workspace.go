// Package workspace lists the files of a workspace the way a developer
// expects a coding agent to see them: what git would show, and nothing of
// what the user told git, ripgrep or the other VCS to leave out. One
// Walker serves the model's glob and grep tools and the front doors' `@`
// file completion, so both always agree on the same tree.
//
// A walk honours .gitignore files at every level (with negations and
// directory-only patterns), .ignore files (ripgrep's; they win over git's
// rules), the repository's info/exclude (also from a linked worktree) and
// the user's global excludes file (core.excludesFile, by default
// ~/.config/git/ignore). It never enters or lists .git, .hg, .svn or .jj,
// never follows a symbolic link (the link is an entry of its own), and
// prunes ignored directories, so nothing below one is read. Listings
// stop at a limit, keeping the shallowest entries.
package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Options are what a Walker takes from the environment: where the user's
// git configuration lives. They are passed in, never read from the
// process, so tests can point them anywhere.
type Options struct {
	// Home is the user's home directory ($HOME): ~/.gitconfig, and
	// ~/.config when XDGConfigHome is empty.
	Home string
	// XDGConfigHome is $XDG_CONFIG_HOME, where git also looks for its
	// config and the default global excludes file (git/ignore).
	XDGConfigHome string
	// Hidden, when set, names files and directories (by absolute path)
	// that walks leave out as if ignored: those the permission rules deny
	// reading.
	Hidden func(abs string) bool
}

// Walker walks workspaces. Its zero value reads no user configuration:
// the global excludes file is left out. A Walker is safe for concurrent
// use; every walk reads the ignore files afresh, so edits to them count
// at once.
type Walker struct{ opts Options }

// New makes a walker that reads the user's git configuration as o says.
func New(o Options) *Walker { return &Walker{opts: o} }

// Entry is one file, directory or symbolic link a walk found.
type Entry struct {
	// Path is slash-separated and relative to the walk's root.
	Path string
	// Abs is where the entry is on disk.
	Abs string
	d   fs.DirEntry
}

// Name is the entry's base name.
func (e Entry) Name() string { return e.d.Name() }

// IsDir reports whether the entry is a directory (a link to one is not).
func (e Entry) IsDir() bool { return e.d.IsDir() }

// IsRegular reports whether the entry is a regular file.
func (e Entry) IsRegular() bool { return e.d.Type().IsRegular() }

// Info stats the entry without following a link.
func (e Entry) Info() (fs.FileInfo, error) { return e.d.Info() }

// Walk calls visit for every entry under root that the ignore rules keep,
// directories before what they hold. visit runs on several goroutines at
// once, each taking whole directories, so callers collect under a lock and
// sort what they collected. An unreadable directory below root is skipped;
// an unreadable root is an error, and so is ctx ending.
func (w *Walker) Walk(ctx context.Context, root string, visit func(Entry)) error {
	return w.levels(ctx, root, false, visit, nil)
}

// List is what `@` completion offers: the entries under root as paths
// relative to it, folders ending in "/", shallowest first and in name
// order within a folder, at most limit of them (no limit when it is 0 or
// less).
func (w *Walker) List(ctx context.Context, root string, limit int) ([]string, error) {
	var out []string
	err := w.levels(ctx, root, true, nil, func(dirs []listing) bool {
		for _, d := range dirs {
			for _, e := range d.kept {
				p := e.Path
				if e.IsDir() {
					p += "/"
				}
				out = append(out, p)
				if len(out) == limit {
					return false
				}
			}
		}
		return true
	})
	return out, err
}

// dirJob is a directory waiting to be read, with the rules in force in it.
type dirJob struct {
	abs     string
	relBase string // relative to the ignore base (the work tree's top)
	relRoot string // relative to the walk's root
	rules   rules
}

// listing is what reading one directory kept, and the directories in it
// to read next; err is why it could not be read.
type listing struct {
	kept []Entry
	next []dirJob
	err  error
}

// levels reads the tree one depth at a time, the directories of a depth in
// parallel; then, in order, it hands each depth's listings to level (when
// set), which returns false to stop. sorted orders each directory's
// entries by name; visit, when set, sees every kept entry on the goroutine
// that read its directory.
func (w *Walker) levels(ctx context.Context, root string, sorted bool, visit func(Entry), level func([]listing) bool) error {
	rel, rs := w.opts.scope(root)
	jobs := []dirJob{{abs: root, relBase: rel, rules: rs}}
	for depth := 0; len(jobs) > 0; depth++ {
		dirs, err := w.readLevel(ctx, jobs, sorted, visit)
		if err != nil {
			return err
		}
		if depth == 0 && dirs[0].err != nil {
			return fmt.Errorf("list workspace %s: %w", root, dirs[0].err)
		}
		if level != nil && !level(dirs) {
			return nil
		}
		jobs = jobs[:0:0]
		for _, d := range dirs {
			jobs = append(jobs, d.next...)
		}
	}
	return nil
}

// readLevel reads jobs with a bounded pool of goroutines, each taking the
// next directory in order.
func (w *Walker) readLevel(ctx context.Context, jobs []dirJob, sorted bool, visit func(Entry)) ([]listing, error) {
	out := make([]listing, len(jobs))
	err := Parallel(ctx, len(jobs), func() func(int) {
		return func(i int) { out[i] = readJob(jobs[i], sorted, w.opts.Hidden, visit) }
	})
	return out, err
}

// readJob lists one directory and applies its ignore files, the rules it
// inherited and hidden to what it holds.
func readJob(j dirJob, sorted bool, hidden func(string) bool, visit func(Entry)) listing {
	entries, err := readDir(j.abs)
	if err != nil {
		return listing{err: err}
	}
	if sorted {
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	gitignore, dotignore := false, false
	for _, e := range entries {
		gitignore = gitignore || e.Name() == gitignoreFile
		dotignore = dotignore || e.Name() == dotignoreFile
	}
	rs := j.rules.withFiles(j.abs, j.relBase, gitignore, dotignore)
	var l listing
	for _, e := range entries {
		name := e.Name()
		if vcsDir(name) {
			continue
		}
		isDir := e.IsDir()
		relBase := joinRel(j.relBase, name)
		if rs.ignored(relBase, name, isDir) {
			continue
		}
		entry := Entry{Path: joinRel(j.relRoot, name), Abs: filepath.Join(j.abs, name), d: e}
		if hidden != nil && hidden(entry.Abs) {
			continue
		}
		if isDir {
			l.next = append(l.next, dirJob{abs: entry.Abs, relBase: relBase, relRoot: entry.Path, rules: rs})
		}
		if visit != nil {
			visit(entry)
		} else {
			l.kept = append(l.kept, entry)
		}
	}
	return l
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
