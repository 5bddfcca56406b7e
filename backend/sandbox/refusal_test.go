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
			Refusal{RefusedNetwork, "network access (Could not resolve host)"}},
		{"go without network", Confinement{}, "dial tcp: lookup proxy.golang.org: no such host\n",
			Refusal{RefusedNetwork, "network access (dial tcp: lookup)"}},
		{"network allowed", Confinement{Network: true}, "curl: (6) Could not resolve host: example.com\n", Refusal{}},
		{"write outside, quoted", Confinement{}, "touch: cannot touch '" + out + "': Permission denied\n",
			Refusal{RefusedOutside, "a write to " + out}},
		{"write outside, bare path", Confinement{}, "bash: line 1: " + out + ": Permission denied\n",
			Refusal{RefusedOutside, "a write to " + out}},
		{"relative path out of the workdir", Confinement{}, "bash: ../x: Permission denied\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(filepath.Dir(ws), "x")}},
		{"git config is protected", Confinement{}, "error: could not write config file .git/config: Device or resource busy\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(ws, ".git", "config")}},
		{"git hooks are protected", Confinement{}, "bash: line 1: .git/hooks/pre-commit: Read-only file system\n",
			Refusal{RefusedOutside, "a write to " + filepath.Join(ws, ".git", "hooks", "pre-commit")}},
		{"go's build cache outside", Confinement{}, "failed to initialize build cache at " + out + ": mkdir " + out + ": permission denied\n",
			Refusal{RefusedOutside, "a write to " + out}},
		{"node writing outside", Confinement{}, "npm error EACCES: permission denied, mkdir '" + out + "'\n",
			Refusal{RefusedOutside, "a write to " + out}},
		{"read-only sandbox", Confinement{ReadOnly: true}, "touch: cannot touch 'f': Read-only file system\n",
			Refusal{RefusedReadOnly, "a write to " + filepath.Join(ws, "f")}},
		{"write in the workspace is not the sandbox's doing", Confinement{}, "touch: cannot touch 'f': Permission denied\n", Refusal{}},
		{"refused outside the sandbox too", Confinement{}, "touch: cannot touch '/nonexistent-dir/sub/x': Permission denied\n", Refusal{}},
	}
	for _, c := range cases {
		if got := sb.Refusal(c.c, ws, c.output); got != c.want {
			t.Errorf("%s: Refusal(%+v, %q) = %+v, want %+v", c.name, c.c, c.output, got, c.want)
		}
	}
}
