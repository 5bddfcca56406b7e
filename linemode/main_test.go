package linemode

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/snapshots/testkit/sandboxhelper"
)

// TestMain lets this test binary serve as the sandbox helper of the
// sessions its tests open, and as the stdio MCP server they name.
func TestMain(m *testing.M) {
	mcptest.RunIfServer()
	os.Exit(sandboxhelper.Main(m))
}
