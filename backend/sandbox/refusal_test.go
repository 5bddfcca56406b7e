//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRefusalReadsWhatTheSandboxRefused(t *testing.T) {
	ws, outside, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755))
	must(os.WriteFile(filepath.Join(ws, ".git", "config"), nil, 0o644))
	sb := New(Options{Workspace: ws, TempDir: tmp, Disabled: "not needed to read refusals"})
	out := filepath.Join(outside, "x")
	cases := []struct {
		name   string
		c      Confinement
		output string
		want   Refusal
	}{
		{"no sign", Confinement{}, "FAIL: TestX\nexit status 1\n", Refusal{}},
		{"curl without network", Confinement{}, "curl: (6) Could not resolve host: example.com\n",
			Refusal{RefusedNetwork, "network access (Could not resolve host)", ""}},
		{"go without network", Confinement{}, "dial tcp: lookup proxy.golang.org: no such host\n",
			Refusal{RefusedNetwork, "network access (dial tcp: lookup)", ""}},
		{"network allowed", Confinement{Network: true}, "curl: (6) Could not resolve host: example.com\n", Refusal{}},
		{"write outside, quoted", Confinement{}, "touch: cannot touch '" + out + "': Permission denied\n",
			Refusal{RefusedOutside, "a write to " + out, outside}},
		{"write outside, bare path", Confinement{}, "bash: line 1: " + out + ": Permission denied\n",
			Refusal{RefusedOutside, "a write to " + out, outside}},
		{"relative path out of the workdir", Confinement{}, "bash: ../x: Permission denied\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(filepath.Dir(ws), "x"), filepath.Dir(ws)}},
		{"git config is protected", Confinement{}, "error: could not write config file .git/config: Device or resource busy\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(ws, ".git", "config"), ""}},
		{"git hooks are protected", Confinement{}, "bash: line 1: .git/hooks/pre-commit: Read-only file system\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(ws, ".git", "hooks", "pre-commit"), ""}},
		{"go's build cache outside", Confinement{}, "failed to initialize build cache at " + out + ": mkdir " + out + ": permission denied\n",
			Refusal{RefusedOutside, "a write to " + out, outside}},
		{"node writing outside", Confinement{}, "npm error EACCES: permission denied, mkdir '" + out + "'\n",
			Refusal{RefusedOutside, "a write to " + out, outside}},
		{"read-only sandbox", Confinement{ReadOnly: true}, "touch: cannot touch 'f': Read-only file system\n",
			Refusal{RefusedReadOnly, "a write to " + filepath.Join(ws, "f"), ""}},
		{"write in the workspace is not the sandbox's doing", Confinement{}, "touch: cannot touch 'f': Permission denied\n", Refusal{}},
		{"refused outside the sandbox too", Confinement{}, "touch: cannot touch '/nonexistent-dir/sub/x': Permission denied\n", Refusal{}},
	}
	for _, c := range cases {
		if got := sb.Refusal(c.c, ws, c.output); got != c.want {
			t.Errorf("%s: Refusal(%+v, %q) = %+v, want %+v", c.name, c.c, c.output, got, c.want)
		}
	}
}

// A refused write names the [sandbox] writable entry that would allow it,
// as config.toml takes it, unless the entry would be the home itself.
func TestRefusalNamesTheWritableEntry(t *testing.T) {
	ws, home := t.TempDir(), t.TempDir()
	share := filepath.Join(home, ".local", "share")
	if err := os.MkdirAll(share, 0o755); err != nil {
		t.Fatal(err)
	}
	sb := New(Options{Workspace: ws, UserHome: home, Disabled: "not needed to read refusals"})
	for _, c := range []struct{ path, want string }{
		{filepath.Join(share, "app"), "~/.local/share"},
		{filepath.Join(share, "state.db"), "~/.local/share"},
		{share, "~/.local/share"},
		{filepath.Join(home, ".npmrc"), ""},
	} {
		output := "touch: cannot touch '" + c.path + "': Permission denied\n"
		got := sb.Refusal(Confinement{}, ws, output)
		if got.Kind != RefusedOutside || got.Writable != c.want {
			t.Errorf("a write to %s: want an outside refusal naming %q, got %+v", c.path, c.want, got)
		}
	}
	// A home of / (some containers) names no entry for itself and writes
	// the others whole.
	sb = New(Options{Workspace: ws, UserHome: "/", Disabled: "not needed to read refusals"})
	if got := sb.Refusal(Confinement{}, ws, "touch: cannot touch '"+filepath.Join(share, "state.db")+"': Permission denied\n"); got.Writable != share {
		t.Errorf("with the home at /: want the entry %q, got %+v", share, got)
	}
}
