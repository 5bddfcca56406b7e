package sandbox

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// The profile only runs on macOS, which CI does not have: these tests pin
// its text, and the order that makes each exception win over its rule.

func profileLayout() Layout {
	return Layout{
		Writable:  []string{"/Users/u/proj", "/private/tmp", `/Users/u/.tack/spill/"s1"`},
		Hidden:    []string{"/Users/u/.tack"},
		Exposed:   []string{`/Users/u/.tack/spill/"s1"`},
		Protected: []string{"/Users/u/proj/.git/hooks", "/Users/u/proj/.git/config"},
		Pinned:    []string{"/Users/u/proj/.git"},
		TempDir:   "/private/tmp",
	}
}

func TestSeatbeltProfileMatchesGolden(t *testing.T) {
	for name, c := range map[string]Confinement{"default": {}, "network": {Network: true}, "read_only": {ReadOnly: true}} {
		golden.Assert(t, filepath.Join("testdata", "seatbelt_"+name+".sb"), []byte(SeatbeltProfile(profileLayout(), c)))
	}
}

func TestSeatbeltExceptionsFollowTheirRules(t *testing.T) {
	p := SeatbeltProfile(profileLayout(), Confinement{})
	order := []string{
		"(deny default)",
		"(allow file-read*)",
		`(deny file-read* (subpath "/Users/u/.tack"))`,
		`(allow file-read* (subpath "/Users/u/.tack/spill/\"s1\""))`,
		`(allow file-write* (subpath "/Users/u/proj")`,
		`(deny file-write* (subpath "/Users/u/proj/.git/hooks")`,
		`(deny file-write* (literal "/Users/u/proj/.git"))`,
	}
	at := 0
	for _, want := range order {
		i := strings.Index(p[at:], want)
		if i < 0 {
			t.Fatalf("want %s after position %d of the profile, it is not there:\n%s", want, at, p)
		}
		at += i + len(want)
	}
	if strings.Contains(p, "network") {
		t.Fatalf("want no network rule without network, got:\n%s", p)
	}
	if ro := SeatbeltProfile(profileLayout(), Confinement{ReadOnly: true}); strings.Contains(ro, "(allow file-write* (subpath") {
		t.Fatalf("want no writable subtree in a read-only profile, got:\n%s", ro)
	}
}

// The profile lets commands write the workspace's private build cache, as
// the Linux sandbox does, and a read-only one not even that.
func TestSeatbeltProfileLetsCommandsWriteThePrivateCache(t *testing.T) {
	ws, caches := t.TempDir(), t.TempDir()
	l := NewLayout(Options{Workspace: ws, Caches: caches})
	cache := resolved(workspaceCache(caches, ws))
	if cache == "" {
		t.Fatal("want the workspace's private cache made with the layout, it is not there")
	}
	rule := `(subpath ` + sbString(cache) + `)`
	if p := SeatbeltProfile(l, Confinement{}); !strings.Contains(p, rule) || strings.Index(p, rule) < strings.Index(p, "(allow file-write*") {
		t.Errorf("want %s among the writable paths, got:\n%s", rule, p)
	}
	if p := SeatbeltProfile(l, Confinement{ReadOnly: true}); strings.Contains(p, rule) {
		t.Errorf("want the private cache not writable in a read-only profile, got:\n%s", p)
	}
}
