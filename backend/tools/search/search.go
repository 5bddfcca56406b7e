// Package search holds the glob and grep tools: pure Go searches of the
// files backend/workspace lists (what git shows: .gitignore at every
// level, .ignore, info/exclude and the global excludes file honoured;
// .git, .hg, .svn and .jj never entered).
package search

import (
	"embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// specFiles hold what the model is told about the package's tools: their
// prose (tools.ProseFile) and the schemas of their arguments
// (tools.SchemaFile).
//
//go:embed glob.md glob.schema.json grep.md grep.schema.json
var specFiles embed.FS

// target resolves the optional path argument against cwd and stats it.
func target(cwd, p string) (string, fs.FileInfo, *tools.Result) {
	abs := cwd
	if p != "" {
		abs = p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(cwd, p)
		}
	}
	abs = filepath.Clean(abs)
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		r := tools.Errorf("cannot search %q: not found", abs)
		return "", nil, &r
	}
	if err != nil {
		r := tools.Errorf("cannot search %q: %v", abs, errors.Unwrap(err))
		return "", nil, &r
	}
	return abs, info, nil
}

// pathMatcher applies a glob the way glob and grep's include do: without
// "/" to the basename at any depth, with "/" to the path relative to the
// search root.
type pathMatcher struct {
	m       *workspace.Glob
	usePath bool
	// topOnly limits an anchored glob without "/" to the files directly in
	// the search root.
	topOnly bool
}

// anchor makes the glob match paths relative to the search root even when
// it has no "/": "*.go" then means the Go files in the root itself.
func (p *pathMatcher) anchor() {
	p.topOnly = !p.usePath
	p.usePath = true
}

func newPathMatcher(glob string) (*pathMatcher, error) {
	glob = strings.TrimPrefix(glob, "./")
	m, err := workspace.CompileGlob(glob, true)
	if err != nil {
		return nil, err
	}
	return &pathMatcher{m: m, usePath: strings.Contains(glob, "/")}, nil
}

func (p *pathMatcher) match(e workspace.Entry) bool {
	if p.topOnly && strings.Contains(e.Path, "/") {
		return false
	}
	if p.usePath {
		return p.m.Match(e.Path)
	}
	return p.m.Match(e.Name())
}

// display is how a card names a path: relative to cwd when inside it.
func display(cwd, abs string) string {
	rel, err := filepath.Rel(cwd, abs)
	if cwd == "" || err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return abs
	}
	return rel
}
