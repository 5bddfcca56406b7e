package workspace

import (
	"net/url"
	"path/filepath"
	"strings"
)

// Repo is a repository's identity as its origin remote's URL names it:
// github.com, anthropics, claude-code for
// git@github.com:anthropics/claude-code.git.
type Repo struct {
	Host, Owner, Name string
}

// Origin is the identity of the repository holding dir, from the URL of
// its origin remote in the repository's config; false outside a
// repository, without an origin, or where the URL names no host, owner
// and name (a local path). It reads the config itself, as Branch reads
// HEAD: the status line asks often.
func Origin(dir string) (Repo, bool) {
	r, ok := findRepo(dir)
	if !ok {
		return Repo{}, false
	}
	raw, ok := configLast(filepath.Join(r.common, "config"), `remote "origin"`, "url")
	if !ok {
		return Repo{}, false
	}
	return parseRemote(raw)
}

// parseRemote reads the host, owner and name of a remote's URL, in git's
// forms: scheme://[user@]host[:port]/owner/name[.git] and scp-like
// [user@]host:owner/name[.git]. The owner is the path before the name,
// a GitLab group and its subgroups alike.
func parseRemote(raw string) (Repo, bool) {
	var host, path string
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "file" {
			return Repo{}, false
		}
		host, path = u.Hostname(), u.Path
	} else {
		// git takes a colon before any slash for scp-like syntax, but
		// for a drive's (C:/repos/x).
		before, after, ok := strings.Cut(raw, ":")
		if !ok || strings.Contains(before, "/") || len(before) == 1 {
			return Repo{}, false
		}
		host, path = before, after
		if _, h, ok := strings.Cut(before, "@"); ok {
			host = h
		}
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	owner, name, ok := cutLast(path, "/")
	if host == "" || !ok || owner == "" || name == "" {
		return Repo{}, false
	}
	return Repo{Host: host, Owner: owner, Name: name}, true
}

// cutLast slices s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// WorktreeName is the name git gave the linked worktree holding dir (its
// directory under the repository's worktrees/, the worktree's own
// directory's name unless another took it first); "" in a main work tree,
// a submodule's or outside a repository.
func WorktreeName(dir string) string {
	r, ok := findRepo(dir)
	if !ok || r.gitDir == r.common {
		return ""
	}
	return filepath.Base(r.gitDir)
}
