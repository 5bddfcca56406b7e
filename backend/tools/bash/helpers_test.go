//go:build unix

package bash

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// fixture is one session's bash tools over the local executor, with fast
// kills and a notice channel.
type fixture struct {
	tools   *Tools
	env     *tools.Env
	notices chan string
}

func newFixture(t *testing.T, exec Local) *fixture {
	t.Helper()
	if exec.Grace == 0 {
		exec.Grace = 200 * time.Millisecond
	}
	f := &fixture{notices: make(chan string, 8)}
	f.env = &tools.Env{
		SessionID: "session-1",
		Cwd:       t.TempDir(),
		SpillDir:  filepath.Join(t.TempDir(), "spill"),
		Inject: func(origin, text string) {
			f.notices <- origin + ": " + text
		},
	}
	f.tools = New(exec, Options{Environ: append(os.Environ(), "DEEPSEEK_API_KEY=sk-secret", "TERM=xterm-256color")})
	t.Cleanup(f.tools.Close)
	return f
}

func (f *fixture) tool(name string) tools.Tool {
	for _, t := range f.tools.All() {
		if t.Spec().Name == name {
			return t
		}
	}
	panic("no tool " + name)
}

func (f *fixture) run(t *testing.T, name string, args map[string]any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return f.tool(name).Run(context.Background(), tools.Call{ID: "call-1", Args: raw, Env: f.env})
}

var spillName = regexp.MustCompile(`bash-\d+-(stdout|stderr)\.log`)

// normalise replaces the temporary directories and random file names of a
// result so it can be compared with a golden file.
func (f *fixture) normalise(text string) string {
	text = strings.ReplaceAll(text, f.env.SpillDir, "$SPILL")
	text = strings.ReplaceAll(text, f.env.Cwd, "$CWD")
	return spillName.ReplaceAllString(text, "bash-N-$1.log")
}

// golden compares got with testdata/<name>.golden, rewriting it with -update.
func matchGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name+".golden"), []byte(got))
}
