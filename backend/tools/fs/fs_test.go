package fs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// bench is one session's file tools over a temporary working directory.
type bench struct {
	t                 *testing.T
	dir               string
	read, write, edit tools.Tool
	notebook          tools.Tool
}

func newBench(t *testing.T) *bench {
	t.Helper()
	ts := New(NewTracker())
	return &bench{t: t, dir: t.TempDir(), read: ts[0], write: ts[1], edit: ts[2], notebook: ts[3]}
}

func (b *bench) run(tool tools.Tool, args map[string]any) tools.Result {
	b.t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		b.t.Fatal(err)
	}
	return tool.Run(context.Background(), tools.Call{ID: "c1", Args: raw, Env: &tools.Env{Cwd: b.dir}})
}

func (b *bench) file(name, content string) string {
	b.t.Helper()
	p := filepath.Join(b.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		b.t.Fatal(err)
	}
	return p
}

func (b *bench) content(name string) string {
	b.t.Helper()
	data, err := os.ReadFile(filepath.Join(b.dir, name))
	if err != nil {
		b.t.Fatal(err)
	}
	return string(data)
}

// golden compares got, with the working directory replaced by $DIR, to
// testdata/<test name>.golden.
func matchGolden(t *testing.T, dir, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, dir, "$DIR")
	golden.Assert(t, filepath.Join("testdata", strings.ReplaceAll(t.Name(), "/", "_")+".golden"), []byte(got))
}

func wantError(t *testing.T, r tools.Result, want string) {
	t.Helper()
	if !r.IsError || r.Text != "Error: "+want {
		t.Errorf("want error %q, got (is_error=%v) %q", "Error: "+want, r.IsError, r.Text)
	}
}

func wantOK(t *testing.T, r tools.Result) {
	t.Helper()
	if r.IsError {
		t.Fatalf("want success, got %q", r.Text)
	}
}
