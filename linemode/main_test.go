package linemode

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/backend/sandbox"
)

// TestMain lets this test binary serve as the sandbox helper of the
// sessions its tests open.
func TestMain(m *testing.M) {
	sandbox.ServeIfHelper()
	os.Exit(m.Run())
}
