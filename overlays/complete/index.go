package complete

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// MaxEntries is the most paths Index returns; a bigger tree is cut off,
// the shallowest paths kept.
const MaxEntries = 100_000

// skipped reports the directory names never indexed, ignored or not.
func skipped(name string) bool { return name == ".git" || name == "node_modules" }

// dirEntry is a directory waiting to be read, with the ignore patterns in
// force inside it.
type dirEntry struct {
	rel      []string
	patterns []gitignore.Pattern
}

// Index lists the files and folders under root, relative to it with "/"
// separators, folders ending in "/", shallowest first and in name order
// within a folder. It honours .gitignore files at every level and
// .git/info/exclude, never enters .git or node_modules, does not follow
// symbolic links, and stops at MaxEntries. It reads the disk: run it in a
// command, not in Update.
func Index(root string) ([]string, error) {
	base, err := readPatterns(filepath.Join(root, ".git", "info", "exclude"), nil)
	if err != nil {
		return nil, err
	}
	var out []string
	queue := []dirEntry{{patterns: base}}
	for len(queue) > 0 && len(out) < MaxEntries {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(filepath.Join(root, filepath.Join(d.rel...)))
		if err != nil {
			if len(d.rel) == 0 {
				return nil, fmt.Errorf("index workspace %s: %w", root, err)
			}
			continue // an unreadable folder is left out, not fatal
		}
		patterns := d.patterns
		if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == ".gitignore" && !e.IsDir() }) {
			own, err := readPatterns(filepath.Join(root, filepath.Join(d.rel...), ".gitignore"), d.rel)
			if err != nil {
				return nil, err
			}
			patterns = append(slices.Clip(patterns), own...)
		}
		m := gitignore.NewMatcher(patterns)
		for _, e := range entries {
			isDir := e.IsDir()
			if isDir && skipped(e.Name()) {
				continue
			}
			rel := append(slices.Clip(d.rel), e.Name())
			if m.Match(rel, isDir) {
				continue
			}
			p := strings.Join(rel, "/")
			if isDir {
				p += "/"
				queue = append(queue, dirEntry{rel: rel, patterns: patterns})
			}
			out = append(out, p)
			if len(out) == MaxEntries {
				break
			}
		}
	}
	return out, nil
}

// readPatterns parses one ignore file whose patterns apply under domain; a
// missing file has none.
func readPatterns(path string, domain []string) ([]gitignore.Pattern, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ignore file %s: %w", path, err)
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read ignore file %s: %w", path, err)
	}
	return ps, nil
}
