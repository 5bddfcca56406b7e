package permission

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/sandboxhelper"
)

// TestMain lets this test binary serve as the sandbox helper, for the
// bypass table run by the real sandboxed executor.
func TestMain(m *testing.M) { os.Exit(sandboxhelper.Main(m)) }
