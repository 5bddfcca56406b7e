package workspace

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

// rule is one line of an ignore file.
type rule struct {
	base     string // directory of the ignore file, relative to the ignore base; "" at the base
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	anchored bool   // contains "/": matched against the path below base
	m        *Glob
}

// rules are the ignore rules in force in one directory, in two sets: git's
// (the global excludes file, info/exclude and .gitignore files, lowest
// precedence first) and .ignore files', which win over git's whatever
// their depth, as in ripgrep.
type rules struct {
	git, dot []rule
}

// Ignore files read in each directory.
const (
	gitignoreFile = ".gitignore"
	dotignoreFile = ".ignore"
)

// vcsDir reports the names never entered nor listed: the stores of git
// (also the .git file of a worktree or submodule), Mercurial, Subversion
// and Jujutsu.
func vcsDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".jj":
		return true
	}
	return false
}

// parseIgnore reads the rules of one ignore file whose directory is base.
func parseIgnore(data []byte, base string) []rule {
	var out []rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if r, ok := parseRule(sc.Text(), base); ok {
			out = append(out, r)
		}
	}
	return out
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
	m, err := CompileGlob(line, false)
	if err != nil {
		return rule{}, false
	}
	r.m = m
	return r, true
}

// ignored reports whether the entry at rel (slash-separated, relative to
// the ignore base) named name is ignored: the last matching .ignore rule
// decides, else the last matching git rule.
func (rs rules) ignored(rel, name string, isDir bool) bool {
	if ignored, ok := decide(rs.dot, rel, name, isDir); ok {
		return ignored
	}
	ignored, _ := decide(rs.git, rel, name, isDir)
	return ignored
}

// decide applies the last rule of list that matches; ok is false when none
// does.
func decide(list []rule, rel, name string, isDir bool) (ignored, ok bool) {
	for i := len(list) - 1; i >= 0; i-- {
		r := &list[i]
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
		if r.m.Match(subject) {
			return !r.negate, true
		}
	}
	return false, false
}

// withFiles extends rs by the ignore files present in dir, whose path
// relative to the ignore base is rel.
func (rs rules) withFiles(dir, rel string, gitignore, dotignore bool) rules {
	if gitignore {
		rs.git = appendFile(rs.git, filepath.Join(dir, gitignoreFile), rel)
	}
	if dotignore {
		rs.dot = appendFile(rs.dot, filepath.Join(dir, dotignoreFile), rel)
	}
	return rs
}

// appendFile adds the rules of the ignore file at path to list without
// changing the list the caller's siblings share.
func appendFile(list []rule, path, base string) []rule {
	data, err := os.ReadFile(path)
	if err != nil {
		return list
	}
	if more := parseIgnore(data, base); len(more) > 0 {
		return append(slices.Clip(list), more...)
	}
	return list
}

// scope finds the rules in force at root and root's path relative to the
// ignore base. Inside a git work tree the base is the top of the work tree
// and the rules are the global excludes file, the repository's
// info/exclude and the ignore files of the directories from the top down
// to root's parent; outside one the base is root and only the global
// excludes apply.
func (o Options) scope(root string) (rel string, rs rules) {
	r, inRepo := findRepo(root)
	if global := o.excludesFile(r, inRepo); global != "" {
		rs.git = appendFile(rs.git, global, "")
	}
	if !inRepo {
		return "", rs
	}
	rs.git = appendFile(rs.git, filepath.Join(r.common, "info", "exclude"), "")
	relRoot, err := filepath.Rel(r.top, root)
	if err != nil || relRoot == "." {
		return "", rs
	}
	relRoot = filepath.ToSlash(relRoot)
	dir, dirRel := r.top, ""
	for _, part := range strings.Split(relRoot, "/") {
		rs = rs.withFiles(dir, dirRel, true, true)
		dir, dirRel = filepath.Join(dir, part), joinRel(dirRel, part)
	}
	return relRoot, rs
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
