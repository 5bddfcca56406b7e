package checkpoint

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// helperSpec tells a helper process which store to open and what to do.
type helperSpec struct {
	Home, Workspace, Session, Token, Git string
	Plan                                 Plan
}

// helperStore opens the store of the spec file that env names, for a
// helper test run by startHelper; the test skips when env is unset, as
// it is in an ordinary run.
func helperStore(t *testing.T, env string) (*Store, helperSpec) {
	spec := os.Getenv(env)
	if spec == "" {
		t.Skip("a helper process, run by another test with " + env + " set")
	}
	var h helperSpec
	data, err := os.ReadFile(spec)
	if err != nil || json.Unmarshal(data, &h) != nil {
		t.Fatalf("read helper spec: %v", err)
	}
	s, err := Open(Options{Home: h.Home, Workspace: h.Workspace, Session: h.Session, Git: h.Git})
	if err != nil {
		t.Fatal(err)
	}
	return s, h
}

// startHelper runs the test binary's helper test named test, with env
// naming a spec file that holds h, and returns the process and its
// standard output. The caller kills it.
func startHelper(t *testing.T, test, env string, h helperSpec) (*exec.Cmd, io.Reader) {
	t.Helper()
	spec := filepath.Join(t.TempDir(), "spec.json")
	data, _ := json.Marshal(h)
	if err := os.WriteFile(spec, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return testkit.StartSelf(t, "^"+test+"$", env+"="+spec)
}
