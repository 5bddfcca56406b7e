package checkpoint

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The shadow repository reads the .gitignore files inside the workspace
// itself. What it cannot see are the rules of the user's repository that
// live outside the workspace: the repository's info/exclude, and the
// .gitignore files of the directories above the workspace when the
// workspace is a subdirectory of a repository. excludeRules translates
// those into the shadow repository's info/exclude. Only reading touches the
// user's repository.

// excludeHeader starts the generated info/exclude.
const excludeHeader = "# Written by tack: the ignore rules of the repository around the workspace.\n"

// excludeRules is the info/exclude of the shadow repository of work.
func excludeRules(work string) []byte {
	var b bytes.Buffer
	b.WriteString(excludeHeader)
	root, common, ok := enclosingRepo(work)
	if !ok {
		return b.Bytes()
	}
	rel, err := filepath.Rel(root, work)
	if err != nil {
		return b.Bytes()
	}
	rel = filepath.ToSlash(rel)
	if rel == "." {
		rel = ""
	}
	translate(&b, filepath.Join(common, "info", "exclude"), rel)
	// The .gitignore files from the repository's root down to the
	// workspace's parent; the workspace's own the shadow repository reads.
	dir, under := root, rel
	for under != "" {
		translate(&b, filepath.Join(dir, ".gitignore"), under)
		first, rest, _ := strings.Cut(under, "/")
		dir, under = filepath.Join(dir, first), rest
	}
	return b.Bytes()
}

// enclosingRepo finds the repository holding work: its top directory and
// its common git directory (where info/exclude is, shared by worktrees).
func enclosingRepo(work string) (root, common string, ok bool) {
	for dir := work; ; dir = filepath.Dir(dir) {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitdir := dotgit
			if !fi.IsDir() {
				if gitdir, ok = readGitFile(dotgit); !ok {
					return "", "", false
				}
			}
			return dir, commonDir(gitdir), true
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", "", false
		}
	}
}

// readGitFile reads a ".git" file ("gitdir: <path>") of a worktree or
// submodule.
func readGitFile(p string) (string, bool) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", false
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(p), dir)
	}
	return dir, true
}

// commonDir is where a worktree's git directory shares its info/exclude.
func commonDir(gitdir string) string {
	data, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return gitdir
	}
	c := strings.TrimSpace(string(data))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitdir, c)
	}
	return c
}

// translate appends the rules of the ignore file at file, which apply from
// its directory, as rules for the directory under (slash-separated,
// relative to it; "" for the same directory). Rules that cannot match
// under it are dropped.
func translate(b *bytes.Buffer, file, under string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rule, ok := rebase(sc.Text(), under); ok {
			b.WriteString(rule)
			b.WriteByte('\n')
		}
	}
}

// rebase rewrites one gitignore line for the directory under. Patterns
// without a slash (but a trailing one) match at any depth and are kept;
// anchored ones keep what lies below under.
func rebase(line, under string) (string, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return "", false
	}
	neg := ""
	if strings.HasPrefix(line, "!") {
		neg, line = "!", line[1:]
	}
	body := strings.TrimSuffix(line, "/")
	if !strings.Contains(body, "/") {
		return neg + line, true
	}
	if under == "" {
		return neg + "/" + strings.TrimPrefix(line, "/"), true
	}
	pat := strings.Split(strings.TrimPrefix(line, "/"), "/")
	dirs := strings.Split(under, "/")
	for i, d := range dirs {
		if i >= len(pat) {
			return "", false // the rule names a directory above the workspace
		}
		if pat[i] == "**" {
			return neg + strings.Join(pat[i:], "/"), true
		}
		if ok, err := path.Match(pat[i], d); err != nil || !ok {
			return "", false
		}
	}
	rest := strings.Join(pat[len(dirs):], "/")
	if rest == "" {
		return "", false
	}
	return neg + "/" + rest, true
}
