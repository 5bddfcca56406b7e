package search

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The ignore matcher is our own rather than go-git's gitignore package:
// go-git matches every pattern against every component of the path, which
// on a 50,000-file tree cost more than the whole glob budget. The walk
// prunes ignored directories, so matching a name-only pattern against the
// basename is enough, and rules from files in other branches of the tree
// are never in scope.

// rule is one line of a .gitignore, .ignore or info/exclude file.
type rule struct {
	base     string // directory of the ignore file, relative to the walk base; "" at the base
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains "/": matched against the path below base
	m        *nameMatcher
}

// ignoreFiles are read in each directory, lowest precedence first.
var ignoreFiles = [...]string{".gitignore", ".ignore"}

// skipDirs are version-control directories, never searched.
func skipDir(name string) bool { return name == ".git" || name == ".hg" || name == ".svn" }

// parseIgnore reads the rules of one ignore file whose directory is base.
func parseIgnore(data []byte, base string) []rule {
	var rules []rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if r, ok := parseRule(sc.Text(), base); ok {
			rules = append(rules, r)
		}
	}
	return rules
}

func parseRule(line, base string) (rule, bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return rule{}, false
	}
	r := rule{base: base}
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " ")
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored, line = true, strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return rule{}, false
	}
	m, err := compileGlob(line, false)
	if err != nil {
		return rule{}, false
	}
	r.m = m
	return r, true
}

// ignored reports whether the entry at rel (slash-separated, relative to
// the walk base) named name is ignored by rules; the last matching rule
// wins.
func ignored(rules []rule, rel, name string, isDir bool) bool {
	for i := len(rules) - 1; i >= 0; i-- {
		r := &rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		subject := name
		if r.anchored {
			subject = rel
			if r.base != "" {
				subject = strings.TrimPrefix(rel, r.base+"/")
			}
		}
		if r.m.match(subject) {
			return !r.negate
		}
	}
	return false
}

// withIgnoreFiles extends inherited by the ignore files in dir, whose
// path relative to the walk base is rel. present tells which files exist,
// so that no open is wasted on directories without them.
func withIgnoreFiles(inherited []rule, dir, rel string, present func(string) bool) []rule {
	rules := inherited
	for _, name := range ignoreFiles {
		if !present(name) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		if more := parseIgnore(data, rel); len(more) > 0 {
			rules = append(slices.Clip(rules), more...)
		}
	}
	return rules
}

// scope finds the rules in force at root: when root is inside a git work
// tree, the repository's info/exclude and the ignore files of the
// directories from the top of the work tree down to root's parent. It
// returns root's path relative to the top of the work tree ("" outside
// one) and the rules.
func scope(root string) (rel string, rules []rule) {
	top := root
	for {
		if _, err := os.Lstat(filepath.Join(top, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return "", nil
		}
		top = parent
	}
	if data, err := os.ReadFile(filepath.Join(top, ".git", "info", "exclude")); err == nil {
		rules = parseIgnore(data, "")
	}
	relRoot, err := filepath.Rel(top, root)
	if err != nil || relRoot == "." {
		return "", rules
	}
	relRoot = filepath.ToSlash(relRoot)
	dir, dirRel := top, ""
	exists := func(string) bool { return true }
	for _, part := range strings.Split(relRoot, "/") {
		rules = withIgnoreFiles(rules, dir, dirRel, exists)
		dir, dirRel = filepath.Join(dir, part), joinRel(dirRel, part)
	}
	return relRoot, rules
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
