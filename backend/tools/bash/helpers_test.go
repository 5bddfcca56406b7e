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

	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/sandboxhelper"
)

// TestMain lets this test binary serve as the sandbox helper of the
// sandboxed executor its tests run commands in.
func TestMain(m *testing.M) { os.Exit(sandboxhelper.Main(m)) }

// fixture is one session's bash tools over the local executor, with fast
// kills and a notice channel. Its calls carry grant, which is Off (no
// sandbox) unless the executor has a sandbox.
type fixture struct {
	tools   *Tools
	env     *tools.Env
	grant   tools.Sandbox
	notices chan string
}

func newFixture(t *testing.T, exec Local) *fixture {
	t.Helper()
	if exec.Grace == 0 {
		exec.Grace = 200 * time.Millisecond
	}
	f := &fixture{notices: make(chan string, 8), grant: tools.Sandbox{Off: exec.Sandbox == nil}}
	f.env = &tools.Env{
		SessionID: "session-1",
		Cwd:       t.TempDir(),
		SpillDir:  filepath.Join(t.TempDir(), "spill"),
		Inject: func(origin, text string) {
			f.notices <- origin + ": " + text
		},
	}
	f.tools = New(exec, Options{Environ: append(os.Environ(), "DEEPSEEK_API_KEY=sk-secret", "MCP_CLIENT_SECRET=s3cret", "TERM=xterm-256color")})
	t.Cleanup(f.tools.Close)
	return f
}

// newConfinedFixture is newFixture with every command in a sandbox whose
// workspace is the session's directory; it skips where the system cannot
// confine commands.
func newConfinedFixture(t *testing.T, exec Local) *fixture {
	t.Helper()
	cwd, spill := t.TempDir(), filepath.Join(t.TempDir(), "spill")
	sb := sandbox.New(sandbox.Options{Workspace: cwd, TempDir: t.TempDir(), SpillDir: spill, Home: t.TempDir()})
	t.Cleanup(sb.Close)
	if st := sb.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
	exec.Sandbox = sb
	f := newFixture(t, exec)
	f.env.Cwd, f.env.SpillDir = cwd, spill
	return f
}

// call is a call of the fixture's tools with args.
func (f *fixture) call(args json.RawMessage) tools.Call {
	return tools.Call{ID: "call-1", Args: args, Env: f.env, Sandbox: f.grant}
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
	return f.tool(name).Run(context.Background(), f.call(raw))
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
