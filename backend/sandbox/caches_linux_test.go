package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goWorld is a world whose commands have a home of their own outside every
// writable root, with Go's default build cache there set up as Go leaves
// it (read-only to the commands), a tiny module in the workspace, and the
// private caches under w.outside/caches.
type goWorld struct {
	*world
	home, userCache, caches string
}

// newGoWorld skips, saying why, where go is not installed or the sandbox
// cannot be set up.
func newGoWorld(t *testing.T, with ...func(w *world, o *Options)) *goWorld {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed: " + err.Error())
	}
	g := &goWorld{}
	setCaches := func(w *world, o *Options) {
		g.home = filepath.Join(w.outside, "home")
		g.userCache = filepath.Join(g.home, ".cache", "go-build")
		g.caches = filepath.Join(w.outside, "caches", "tack", "sandbox")
		o.Caches = g.caches
	}
	g.world = newWorld(t, append([]func(*world, *Options){setCaches}, with...)...)
	for i := range 256 {
		if err := os.MkdirAll(filepath.Join(g.userCache, fmt.Sprintf("%02x", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"go.mod":  "module example.com/tiny\n\ngo 1.22\n",
		"tiny.go": "package tiny\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(g.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// run runs script in the sandbox as the user of home, with nothing of the
// test's own Go settings, plus env.
func (g *goWorld) run(t *testing.T, c Confinement, script string, env ...string) ran {
	t.Helper()
	return g.world.run(t, c, script, append([]string{"HOME=" + g.home, "GOTOOLCHAIN=local", "GOFLAGS="}, env...)...)
}

// cacheEntries counts the files Go stored in the build cache at dir.
func cacheEntries(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, "-a") || strings.HasSuffix(p, "-d")) {
			n++
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return n
}

// Go builds and vets in the sandbox although its default build cache is
// read-only there: its entries go to the workspace's private cache, and
// the user's own cache, which unsandboxed builds trust, gets none. (go
// build and go vet of a package without imports fill the cache as go test
// does, in a second rather than the minute that building the testing
// package takes on a loaded machine.)
func TestGoBuildsInTheSandboxIntoThePrivateCache(t *testing.T) {
	g := newGoWorld(t)
	r := g.run(t, Confinement{}, "go build ./... && go vet ./... && echo built")
	if r.exit.Code != 0 || !strings.Contains(r.stdout, "built") {
		t.Fatalf("want go build and go vet to pass in the sandbox, got %+v\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
	}
	private := filepath.Join(workspaceCache(g.caches, g.ws), "go-build")
	if n := cacheEntries(t, private); n == 0 {
		t.Errorf("want the build's entries in the private cache %s, it has none", private)
	}
	if n := cacheEntries(t, g.userCache); n != 0 {
		t.Errorf("want the user's own cache %s untouched, it got %d entries", g.userCache, n)
	}
}

// The cache Go uses, as go env reports it from inside the sandbox: the
// private one unless the user chose one in the environment, [sandbox]
// writable covers the default one, or the command may not write.
func TestGoUsesThePrivateCacheUnlessTheUserChoseOne(t *testing.T) {
	chosen := "/somewhere/chosen-go-build"
	cases := []struct {
		name string
		with func(w *world, o *Options)
		env  []string
		c    Confinement
		// want is the cache go env reports: "private", "default" or a
		// path.
		want string
	}{
		{name: "nothing chosen", want: "private"},
		{name: "with network", c: Confinement{Network: true}, want: "private"},
		{name: "GOCACHE set", env: []string{"GOCACHE=" + chosen}, want: chosen},
		{name: "GOCACHE empty", env: []string{"GOCACHE="}, want: "private"},
		{name: "read-only", c: Confinement{ReadOnly: true}, want: "default"},
		{name: "default cache writable", want: "default", with: func(w *world, o *Options) {
			o.Writable = []string{filepath.Join(w.outside, "home", ".cache", "go-build")}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var with []func(*world, *Options)
			if tc.with != nil {
				with = append(with, tc.with)
			}
			g := newGoWorld(t, with...)
			want := map[string]string{
				"private": filepath.Join(workspaceCache(g.caches, g.ws), "go-build"),
				"default": g.userCache,
			}[tc.want]
			if want == "" {
				want = tc.want
			}
			r := g.run(t, tc.c, "go env GOCACHE", tc.env...)
			if got := strings.TrimSpace(r.stdout); got != want {
				t.Errorf("want go to use %s, it uses %q (%+v, stderr %q)", want, got, r.exit, r.stderr)
			}
		})
	}
}

// A GOCACHE written by go env -w is the user's choice too: the settings
// file Go reads wins over the private cache.
func TestGoEnvFileChoiceIsLeftAlone(t *testing.T) {
	g := newGoWorld(t)
	file := filepath.Join(g.home, ".config", "go", "env")
	chosen := filepath.Join(g.outside, "chosen-go-build")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("GOCACHE="+chosen+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := g.run(t, Confinement{}, "go env GOCACHE")
	if got := strings.TrimSpace(r.stdout); got != chosen {
		t.Errorf("want go to use the cache go env -w chose, %s; it uses %q (stderr %q)", chosen, got, r.stderr)
	}
}

// A cache the user chose but the sandbox does not let commands write
// fails the build, and what the sandbox refused is read from Go's own
// error, so the user is told how to allow it.
func TestAChosenCacheOutsideIsReadAsARefusal(t *testing.T) {
	g := newGoWorld(t)
	chosen := filepath.Join(g.outside, "chosen-go-build")
	r := g.run(t, Confinement{}, "go build ./...", "GOCACHE="+chosen)
	if r.exit.Code == 0 {
		t.Fatalf("want go build to fail without a cache it may write, it passed:\n%s", r.stdout+r.stderr)
	}
	ref := g.sb.Refusal(Confinement{}, g.ws, r.stderr+"\n"+r.stdout)
	if ref.Kind != RefusedOutside || !strings.Contains(ref.Detail, chosen) {
		t.Errorf("want a refused write to %s read from %q, got %+v", chosen, r.stderr, ref)
	}
}
