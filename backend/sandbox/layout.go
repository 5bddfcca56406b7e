package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Layout is what a sandbox allows, worked out from Options against the
// file system as it is now: every path absolute, symlinks resolved, only
// paths that exist. Both the Linux helper and the Seatbelt profile are
// built from it, and /status shows it.
type Layout struct {
	// Writable are the directories commands may write in.
	Writable []string `json:"writable"`
	// Hidden are files and directories commands may not read.
	Hidden []string `json:"hidden"`
	// Exposed are directories inside Hidden ones that stay reachable (the
	// spill directory; a workspace inside $TACK_HOME).
	Exposed []string `json:"exposed"`
	// Protected are files and directories inside writable ones that stay
	// read-only: git hooks and config, shell start-up files.
	Protected []string `json:"protected"`
	// Pinned are directories inside writable ones that may not be renamed
	// or removed, so a protected path cannot be swapped out from under its
	// protection (.git itself).
	Pinned []string `json:"pinned"`
	// TempDir is the temp directory; in a read-only sandbox it is replaced
	// by a private one.
	TempDir string `json:"temp_dir"`
}

// startupFiles are the files, relative to $HOME, that shells and git run
// or obey on their own: a command that could change them would run code
// outside the sandbox the next time the user opens a terminal.
var startupFiles = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout",
	".config/fish", ".ssh", ".gitconfig", ".config/git",
}

// StartupFile reports whether path (absolute, clean) is one of the shell and
// git start-up files under home.
func StartupFile(path, home string) bool {
	if home == "" {
		return false
	}
	for _, f := range startupFiles {
		if within(path, filepath.Join(home, f)) {
			return true
		}
	}
	return false
}

// NewLayout works out the layout of o, making the workspace's private
// cache directory first if it is to have one.
func NewLayout(o Options) Layout {
	l := Layout{Writable: writableRoots(o), TempDir: resolved(o.TempDir)}
	for _, h := range append([]string{o.Home}, o.Hidden...) {
		if r := resolved(h); r != "" && !slices.Contains(l.Hidden, r) {
			l.Hidden = append(l.Hidden, r)
		}
	}
	for _, w := range l.Writable {
		if l.hides(w) {
			l.Exposed = append(l.Exposed, w)
		}
	}
	for _, p := range gitInternals(resolved(o.Workspace)) {
		l.protect(p)
	}
	for _, p := range o.ReadOnly {
		if r := resolved(p); r != "" {
			l.protect(r)
		}
	}
	if home := resolved(o.UserHome); home != "" {
		for _, f := range startupFiles {
			l.protect(filepath.Join(home, f))
		}
	}
	return l
}

// writableRoots are the directories of o that commands may write, those
// that exist, resolved; the workspace's private cache is made first.
func writableRoots(o Options) []string {
	cache := workspaceCache(o.Caches, o.Workspace)
	ensureCache(cache)
	var roots []string
	for _, d := range append([]string{o.Workspace, o.TempDir, o.SpillDir, cache}, o.Writable...) {
		if r := resolved(d); r != "" && isDir(r) && !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	return roots
}

// protect adds path when it exists inside a writable directory and is not
// hidden anyway; a .git directory is pinned rather than made read-only,
// since git writes objects and refs there.
func (l *Layout) protect(path string) {
	fi, err := os.Lstat(path)
	if err != nil || !l.writable(path) || l.hides(path) {
		return
	}
	if filepath.Base(path) == ".git" && fi.IsDir() {
		l.Pinned = append(l.Pinned, path)
		return
	}
	if !slices.Contains(l.Protected, path) {
		l.Protected = append(l.Protected, path)
	}
}

// writable reports whether path lies in a writable directory.
func (l *Layout) writable(path string) bool {
	for _, w := range l.Writable {
		if within(path, w) {
			return true
		}
	}
	return false
}

// hides reports whether path lies in a hidden file or directory.
func (l *Layout) hides(path string) bool {
	for _, h := range l.Hidden {
		if within(path, h) {
			return true
		}
	}
	return false
}

// gitInternals are the git files of the repository holding dir that run
// programs or name them: for a .git directory the directory itself (to
// pin), its hooks and config; for a .git file (a worktree or submodule) the
// file, and the hooks and config of the directories it points to.
func gitInternals(dir string) []string {
	if dir == "" {
		return nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Lstat(dotgit)
		switch {
		case err == nil && fi.IsDir():
			ensureHooks(dotgit)
			return []string{dotgit, filepath.Join(dotgit, "hooks"), filepath.Join(dotgit, "config")}
		case err == nil && fi.Mode().IsRegular():
			return append([]string{dotgit}, linkedGitDirs(d, dotgit)...)
		}
		if parent := filepath.Dir(d); parent == d {
			return nil
		}
	}
}

// ensureHooks makes the hooks directory git would make, so that it exists
// to be made read-only; a repository without one would let a command add
// the first hook.
func ensureHooks(gitDir string) {
	_ = os.Mkdir(filepath.Join(gitDir, "hooks"), 0o755)
}

// linkedGitDirs follows a .git file ("gitdir: <path>") to the worktree's
// git directory and its common directory.
func linkedGitDirs(worktree, dotgit string) []string {
	b, err := os.ReadFile(dotgit)
	if err != nil {
		return nil
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return nil
	}
	gitDir = absUnder(worktree, strings.TrimSpace(gitDir))
	out := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree"), filepath.Join(gitDir, "hooks")}
	if c, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common := absUnder(gitDir, strings.TrimSpace(string(c)))
		out = append(out, filepath.Join(common, "config"), filepath.Join(common, "hooks"))
	}
	return out
}

func absUnder(base, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if r := resolved(p); r != "" {
		return r
	}
	return filepath.Clean(p)
}

// resolved is p made absolute with its symlinks resolved, or "" when p is
// empty or does not exist.
func resolved(p string) string {
	if p == "" {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	r, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ""
	}
	return r
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// within reports whether path is dir or lies below it; both are clean and
// absolute.
func within(path, dir string) bool {
	if path == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}
