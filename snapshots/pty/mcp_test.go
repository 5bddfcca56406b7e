package pty

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// fiveServersHome is a TACK_HOME whose config starts five MCP servers,
// one of which takes slowMs to answer its handshake.
func fiveServersHome(t *testing.T, slowMs int) string {
	t.Helper()
	bin := tackbin.Command(t, "fakemcp")
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
		d, _ := r.ready("the status row and editor", idleScreen)
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
