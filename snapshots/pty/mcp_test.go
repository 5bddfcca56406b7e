package pty

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

var (
	fakeMCPOnce sync.Once
	fakeMCPPath string
	fakeMCPErr  error
)

// fakeMCP builds ./cmd/fakemcp once for the package's tests.
func fakeMCP(t *testing.T) string {
	t.Helper()
	fakeMCPOnce.Do(func() {
		root, err := tackbin.ModuleRoot()
		if err != nil {
			fakeMCPErr = err
			return
		}
		dir, err := os.MkdirTemp("", "fakemcp-")
		if err != nil {
			fakeMCPErr = err
			return
		}
		fakeMCPPath = filepath.Join(dir, "fakemcp")
		cmd := exec.Command("go", "build", "-o", fakeMCPPath, "./cmd/fakemcp")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			fakeMCPErr = fmt.Errorf("build fakemcp: %v\n%s", err, out)
		}
	})
	if fakeMCPErr != nil {
		t.Fatal(fakeMCPErr)
	}
	return fakeMCPPath
}

// fiveServersHome is a TACK_HOME whose config starts five MCP servers,
// one of which takes slowMs to answer its handshake.
func fiveServersHome(t *testing.T, slowMs int) string {
	t.Helper()
	bin := fakeMCP(t)
	var b strings.Builder
	for _, name := range []string{"alpha", "beta", "gamma", "delta"} {
		fmt.Fprintf(&b, "[mcp_servers.%s]\ncommand = %q\nenv = { MCPTEST_PREFIX = \"%s_\" }\n\n", name, bin, name)
	}
	fmt.Fprintf(&b, "[mcp_servers.slow]\ncommand = %q\nenv = { MCPTEST_DELAY_MS = \"%d\" }\nstartup_timeout_ms = %d\n", bin, slowMs, slowMs*2)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestFirstFrameDoesNotWaitForMCPServers(t *testing.T) {
	srv := llmtest.New(t)
	r := start(t, setup{srv: srv, home: fiveServersHome(t, 120_000)})
	r.waitIdle()
	// The screen is up and answers while the slow server is still in its
	// handshake.
	r.script(
		step{do: both(typed("/mcp"), key(vt.KeyEnter))},
		step{want: []string{"MCP servers (5)", "slow · starting · stdio"}},
	)
}

func TestMeasureFirstFrameWithMCPServers(t *testing.T) {
	measuring(t)
	srv := llmtest.New(t)
	withServers := fiveServersHome(t, 5_000)
	bareHome := t.TempDir()
	firstFrame := func(home string) int64 {
		r := start(t, setup{srv: srv, home: home})
		d, _ := r.ready("the status row and editor", func(s string) bool { return idleScreen(s, r.dir) })
		r.Close()
		return d.Microseconds()
	}
	// Alternate the two, so a change in the machine's load hits both alike.
	var bare, five []int64
	for range firstFrameRuns {
		bare = append(bare, firstFrame(bareHome))
		five = append(five, firstFrame(withServers))
	}
	t.Logf("first frame after exec over %d runs: median %.1f ms without MCP servers, %.1f ms with five (one answering after 5 s)",
		firstFrameRuns, float64(medianOf(bare))/1000, float64(medianOf(five))/1000)
}
