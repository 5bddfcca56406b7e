package workspace

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// repo is the git repository whose work tree holds a directory.
type repo struct {
	top    string // the top of the work tree
	gitDir string // top/.git, or where a .git file points (a worktree, a submodule)
	common string // where refs, config and info/exclude live: gitDir, or its commondir
}

// findRepo finds the repository whose work tree holds dir, looking up
// from dir for a .git directory or a .git file ("gitdir: <path>", as git
// worktree and submodules write it).
func findRepo(dir string) (repo, bool) {
	for d := filepath.Clean(dir); ; {
		if r, ok := repoAt(d); ok {
			return r, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return repo{}, false
		}
		d = parent
	}
}

// repoAt reads the .git entry of top, if it has one.
func repoAt(top string) (repo, bool) {
	dotGit := filepath.Join(top, ".git")
	info, err := os.Stat(dotGit)
	if err != nil {
		return repo{}, false
	}
	r := repo{top: top, gitDir: dotGit, common: dotGit}
	if !info.IsDir() {
		b, err := os.ReadFile(dotGit)
		target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if err != nil || !ok {
			return repo{}, false
		}
		r.gitDir = absFrom(top, strings.TrimSpace(target))
		r.common = r.gitDir
	}
	if b, err := os.ReadFile(filepath.Join(r.gitDir, "commondir")); err == nil {
		r.common = absFrom(r.gitDir, strings.TrimSpace(string(b)))
	}
	return r, true
}

// ProjectChain is dir and its parents up to the top of the repository
// holding it (the nearest one with a .git entry), nearest first; outside
// a repository, dir alone. Project files (instructions, commands, skills)
// are looked up along it.
func ProjectChain(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		out = append(out, d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return out
		}
		if filepath.Dir(d) == d {
			return out[:1]
		}
	}
}

// absFrom resolves p against base unless it is absolute.
func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// MainRoot is the top of the main work tree of the repository holding
// dir, the same for each of its linked worktrees; "" outside a
// repository. A repository whose git directory is not a work tree's .git
// (a submodule's, kept in its parent's) is its own work tree's top.
func MainRoot(dir string) string {
	r, ok := findRepo(dir)
	if !ok {
		return ""
	}
	if filepath.Base(r.common) == ".git" {
		return filepath.Dir(r.common)
	}
	return r.top
}

// Branch is the branch checked out in the work tree holding dir: its name,
// the short hash of the commit when HEAD is detached, or "" outside a
// repository. It reads HEAD itself rather than running git, so the status
// row costs no process.
func Branch(dir string) string {
	r, ok := findRepo(dir)
	if !ok {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		if name, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			return name
		}
		return ref
	}
	return head[:min(len(head), 7)]
}

// excludesFile is the global excludes file git would read for r: the last
// core.excludesFile set in the user's config files ($XDG_CONFIG_HOME/git/
// config, then ~/.gitconfig, then the repository's config), else
// $XDG_CONFIG_HOME/git/ignore, with ~/.config for an unset
// XDG_CONFIG_HOME. It is "" when neither home nor XDG_CONFIG_HOME is
// known. [include] sections are not followed.
func (o Options) excludesFile(r repo, inRepo bool) string {
	config := o.XDGConfigHome
	if config == "" && o.Home != "" {
		config = filepath.Join(o.Home, ".config")
	}
	var files []string
	if config != "" {
		files = append(files, filepath.Join(config, "git", "config"))
	}
	if o.Home != "" {
		files = append(files, filepath.Join(o.Home, ".gitconfig"))
	}
	if inRepo {
		files = append(files, filepath.Join(r.common, "config"))
	}
	path := ""
	for _, f := range files {
		if v, ok := coreExcludesFile(f); ok {
			path = v
		}
	}
	switch {
	case path == "" && config != "":
		return filepath.Join(config, "git", "ignore")
	case strings.HasPrefix(path, "~/") && o.Home != "":
		return filepath.Join(o.Home, path[2:])
	}
	return path
}

// coreExcludesFile reads core.excludesFile from one git config file.
func coreExcludesFile(path string) (string, bool) {
	return configLast(path, "core", "excludesfile")
}

// configLast reads the last value of key set in a section of one git
// config file: section names the section and, in quotes, its subsection
// (`remote "origin"`). Section and key names are matched without case,
// a subsection's with; values may be quoted, and # or ; start a comment
// outside quotes.
func configLast(path, section, key string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	wantName, wantSub, _ := strings.Cut(section, " ")
	value, found, in := "", false, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			header, _, _ := strings.Cut(strings.TrimPrefix(line, "["), "]")
			name, sub, _ := strings.Cut(strings.TrimSpace(header), " ")
			in = strings.EqualFold(name, wantName) && strings.TrimSpace(sub) == wantSub
			continue
		}
		k, raw, ok := strings.Cut(line, "=")
		if !in || !ok || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		value, found = configValue(raw), true
	}
	return value, found
}

// configValue decodes a git config value: quotes removed, \" \\ \t \n
// unescaped, a comment cut off, surrounding blanks trimmed.
func configValue(raw string) string {
	var b strings.Builder
	quoted := false
	raw = strings.TrimSpace(raw)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(raw[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
