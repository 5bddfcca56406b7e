package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Build caches. Go keeps its build cache in the user's cache directory
// (~/.cache/go-build, ~/Library/Caches/go-build), outside every writable
// root, and with a cache it cannot write it fails in ways that do not look
// like a refusal: "failed to initialize build cache", or even "package
// net/http is not in std" when the cache exists. So `go test`, the first
// thing asked of an agent in a Go project, would leave the sandbox.
//
// Making the user's own cache writable is no fix: Go trusts its entries
// without checking them, so a sandboxed command could plant compiled code
// that the user's unsandboxed builds of every project then link. Instead
// each workspace's sandboxed commands get a private build cache of their
// own (GOCACHE; likewise the caches of findings of staticcheck and
// golangci-lint), kept between sessions under the user's cache directory
// ($XDG_CACHE_HOME/tack/sandbox, never inside $TACK_HOME, which commands
// may not read). Only sandboxed commands of that workspace use it, and
// whatever they could plant there ends up in builds of that workspace,
// which they can write anyway. One cache shared by all workspaces would
// let a command confined to one project plant code in the builds of
// another; the price of keeping them apart is one cold build per project.
//
// The user's choice wins: a cache set in the environment (GOCACHE with
// `go env -w` too), or a default cache that [sandbox] writable already
// lets commands write, is left alone. Read-only commands get no cache to
// write at all and keep reading the user's. Unconfined commands
// (full-access, or a rerun the user let out of the sandbox) run with the
// user's environment unchanged.
//
// Other caches are left as they are. Go's module cache (GOMODCACHE) is
// only read once modules are downloaded, and downloading needs the
// network, which the user approves; the write to it is then refused like
// any other, and the user decides. `npm test` runs with ~/.npm read-only,
// pip disables a cache it cannot write with a warning, cargo builds in
// the workspace, and GOTMPDIR defaults to the temp directory, which is
// writable. A tool that fails on a cache outside is read as a refusal
// (refusal.go), which tells the user how to allow it.

// toolCaches are the caches that sandboxed commands get private copies
// of: the variable that moves each, and its directory, both in the user's
// cache directory by default and in the workspace's private one.
// staticcheck and golangci-lint trust their caches of findings as Go
// trusts its build cache, and fail as it does when they cannot write them.
var toolCaches = []struct{ env, dir string }{
	{"GOCACHE", "go-build"},
	{"STATICCHECK_CACHE", "staticcheck"},
	{"GOLANGCI_LINT_CACHE", "golangci-lint"},
}

// CacheRoot is the directory under which each workspace's sandboxed
// commands keep their private caches: tack/sandbox in the user's cache
// directory, as getenv gives the environment; "" without a home.
func CacheRoot(getenv func(string) string) string {
	dir := userCacheDir(runtime.GOOS, getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "tack", "sandbox")
}

// workspaceCache is the private cache directory of workspace under root,
// named for the workspace and told apart from others of that name by a
// hash of its path; "" without a root or workspace.
func workspaceCache(root, workspace string) string {
	if root == "" || workspace == "" {
		return ""
	}
	ws := resolved(workspace)
	if ws == "" {
		ws = filepath.Clean(workspace)
	}
	name := filepath.Base(ws)
	if name == string(filepath.Separator) || name == "." {
		name = "root"
	}
	sum := sha256.Sum256([]byte(ws))
	return filepath.Join(root, name+"-"+hex.EncodeToString(sum[:6]))
}

// ensureCache makes the workspace's private cache directory, if there is
// one, so that the layout can make it writable (each tool makes its own
// directory inside), and marks it used now, which keeps TidyCaches off it.
func ensureCache(dir string) {
	if dir == "" {
		return
	}
	_ = os.MkdirAll(dir, 0o700)
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
}

// cacheLifetime is how long the private cache of a workspace that no
// sandboxed command uses is kept. Go trims a cache it uses of entries
// unused for days; one it no longer uses, a project given up, nothing
// trims.
const cacheLifetime = 30 * 24 * time.Hour

// TidyCaches removes the private caches of the workspaces whose sandboxed
// commands have not run for cacheLifetime before now. It may take a while
// (a cache can hold gigabytes): call it in the background.
func (s *Sandbox) TidyCaches(now time.Time) {
	entries, err := os.ReadDir(s.opts.Caches)
	if s.opts.Caches == "" || err != nil {
		return
	}
	own := filepath.Base(workspaceCache(s.opts.Caches, s.opts.Workspace))
	for _, e := range entries {
		if e.Name() == own || !e.IsDir() {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > cacheLifetime {
			_ = os.RemoveAll(filepath.Join(s.opts.Caches, e.Name()))
		}
	}
}

// withCaches is env with the tool caches moved into the workspace's
// private cache directory, where the session has one that could be made
// (l, the command's layout, lets commands write it): a cache commands
// cannot write would be no better than the user's.
func (s *Sandbox) withCaches(env []string, l Layout) []string {
	private := workspaceCache(s.opts.Caches, s.opts.Workspace)
	if private == "" {
		return env
	}
	if r := resolved(private); r == "" || !slices.Contains(l.Writable, r) {
		return env
	}
	return cacheEnv(env, private, l, runtime.GOOS)
}

// cacheEnv is env with each tool cache moved to the workspace's private
// cache directory, unless the user chose that cache or the layout lets
// commands write the default one; see the comment at the top of this file.
func cacheEnv(env []string, private string, l Layout, goos string) []string {
	getenv := envLookup(env)
	userCache := userCacheDir(goos, getenv)
	var moved []string
	for _, tc := range toolCaches {
		switch {
		case getenv(tc.env) != "":
		case tc.env == "GOCACHE" && goEnvFileSets(goos, getenv, tc.env):
		case userCache != "" && l.writable(resolvedBelow(filepath.Join(userCache, tc.dir))):
		default:
			moved = append(moved, tc.env+"="+filepath.Join(private, tc.dir))
		}
	}
	if len(moved) == 0 {
		return env
	}
	out := make([]string, 0, len(env)+len(moved))
	for _, kv := range env {
		// An empty setting means the tool's default: it goes.
		if k, _, _ := strings.Cut(kv, "="); !slices.ContainsFunc(moved, func(m string) bool { return strings.HasPrefix(m, k+"=") }) {
			out = append(out, kv)
		}
	}
	return append(out, moved...)
}

// envLookup reads env as bash, which runs every command, does: the last
// entry for a key wins.
func envLookup(env []string) func(string) string {
	return func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// userCacheDir is os.UserCacheDir for goos, read from getenv.
func userCacheDir(goos string, getenv func(string) string) string {
	return userDir(goos, getenv, "XDG_CACHE_HOME", ".cache", "Library/Caches")
}

// userDir is the user's cache or configuration directory as Go's os
// package finds it on goos: $HOME/<darwin> on macOS, elsewhere the XDG
// variable when it is absolute, else $HOME/<dot>.
func userDir(goos string, getenv func(string) string, xdg, dot, darwin string) string {
	home := getenv("HOME")
	if goos == "darwin" {
		if home == "" {
			return ""
		}
		return filepath.Join(home, darwin)
	}
	if d := getenv(xdg); filepath.IsAbs(d) {
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, dot)
}

// goEnvFileSets reports whether Go's own settings file (written by `go env
// -w`) gives key a value.
func goEnvFileSets(goos string, getenv func(string) string, key string) bool {
	file := getenv("GOENV")
	switch file {
	case "off":
		return false
	case "":
		dir := userDir(goos, getenv, "XDG_CONFIG_HOME", ".config", "Library/Application Support")
		if dir == "" {
			return false
		}
		file = filepath.Join(dir, "go", "env")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && k == key && v != "" {
			return true
		}
	}
	return false
}

// resolvedBelow is p with the symlinks of its longest existing ancestor
// resolved, so that a path yet to be made compares with resolved roots.
func resolvedBelow(p string) string {
	p = filepath.Clean(p)
	for rest := ""; ; {
		if r := resolved(p); r != "" {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
