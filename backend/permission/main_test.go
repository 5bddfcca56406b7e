package permission

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/backend/sandbox"
)

// TestMain lets this test binary serve as the sandbox helper, for the
// bypass table run by the real sandboxed executor.
func TestMain(m *testing.M) {
	sandbox.ServeIfHelper()
	os.Exit(m.Run())
}
