package sandbox

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestEachWorkspaceHasAPrivateCacheOfItsOwn(t *testing.T) {
	root := "/home/u/.cache/tack/sandbox"
	a, b := workspaceCache(root, "/src/one/app"), workspaceCache(root, "/src/two/app")
	if a == b {
		t.Errorf("want two workspaces named app to have caches of their own, both got %s", a)
	}
	if again := workspaceCache(root, "/src/one/app"); again != a {
		t.Errorf("want a workspace's cache kept between sessions, got %s then %s", a, again)
	}
	if filepath.Dir(a) != root || filepath.Base(a)[:4] != "app-" {
		t.Errorf("want the cache named for the workspace under %s, got %s", root, a)
	}
	if got := workspaceCache("", "/src/one/app"); got != "" {
		t.Errorf("want no cache without a root, got %s", got)
	}
}

func TestCacheRootIsInTheUsersCacheDirectory(t *testing.T) {
	env := func(kv ...string) func(string) string { return envLookup(kv) }
	cases := []struct {
		goos   string
		getenv func(string) string
		want   string
	}{
		{"linux", env("HOME=/home/u"), "/home/u/.cache"},
		{"linux", env("HOME=/home/u", "XDG_CACHE_HOME=/var/cache/u"), "/var/cache/u"},
		{"linux", env("HOME=/home/u", "XDG_CACHE_HOME=relative"), "/home/u/.cache"},
		{"darwin", env("HOME=/Users/u", "XDG_CACHE_HOME=/x"), "/Users/u/Library/Caches"},
		{"linux", env(), ""},
	}
	for _, c := range cases {
		if got := userCacheDir(c.goos, c.getenv); got != c.want {
			t.Errorf("%s: want the user's cache directory %q, got %q", c.goos, c.want, got)
		}
	}
	if got := CacheRoot(env("XDG_CACHE_HOME=/var/cache/u")); got != "/var/cache/u/tack/sandbox" {
		t.Errorf("want the private caches under tack/sandbox, got %q", got)
	}
}

// On macOS Go's default cache is ~/Library/Caches/go-build: [sandbox]
// writable covering it leaves GOCACHE alone there, as ~/.cache/go-build
// does on Linux, while the caches it does not cover move.
func TestWritableDefaultCacheIsLeftAloneOnEachPlatform(t *testing.T) {
	env := []string{"HOME=/Users/u", "PATH=/usr/bin"}
	for goos, caches := range map[string]string{"darwin": "/Users/u/Library/Caches", "linux": "/Users/u/.cache"} {
		writable := Layout{Writable: []string{filepath.Join(caches, "go-build")}}
		got := envLookup(cacheEnv(env, "/p", writable, goos))
		if got("GOCACHE") != "" || got("STATICCHECK_CACHE") != "/p/staticcheck" {
			t.Errorf("%s: want GOCACHE left alone and staticcheck's cache moved, got GOCACHE=%q STATICCHECK_CACHE=%q",
				goos, got("GOCACHE"), got("STATICCHECK_CACHE"))
		}
		if got := envLookup(cacheEnv(env, "/p", Layout{}, goos)); got("GOCACHE") != "/p/go-build" {
			t.Errorf("%s: want the private build cache given, got GOCACHE=%q", goos, got("GOCACHE"))
		}
	}
}

// The private caches of workspaces no sandboxed command used for a month
// go; the session's own and those of workspaces in use stay.
func TestTidyCachesRemovesOnlyLongUnusedCaches(t *testing.T) {
	ws, root := t.TempDir(), t.TempDir()
	now := time.Now()
	old := now.Add(-cacheLifetime - time.Hour)
	dirs := map[string]time.Time{
		workspaceCache(root, ws):                   old,
		filepath.Join(root, "gone-0123456789ab"):   old,
		filepath.Join(root, "in-use-0123456789ab"): now.Add(-time.Hour),
	}
	for d, mtime := range dirs {
		if err := os.MkdirAll(filepath.Join(d, "go-build", "00"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	New(Options{Workspace: ws, Caches: root, Disabled: "not needed to tidy"}).TidyCaches(now)
	for d := range dirs {
		_, err := os.Stat(d)
		if gone := filepath.Base(d) == "gone-0123456789ab"; gone != os.IsNotExist(err) {
			t.Errorf("%s: want removed %v, stat says %v", filepath.Base(d), gone, err)
		}
	}
}

// Where the private cache cannot be made (here its root would be inside a
// file), commands keep the caches they had: one they cannot write would
// be no better.
func TestNoPrivateCacheThatCannotBeMade(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=/home/u"}
	sb := New(Options{Workspace: t.TempDir(), Caches: filepath.Join(file, "tack", "sandbox"), Disabled: "not needed"})
	if got := sb.withCaches(env, sb.Layout()); len(got) != len(env) {
		t.Errorf("want the environment left alone, got %q", got)
	}
}
