package journeys

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/sandboxhelper"
)

// TestMain lets this test binary serve as the sandbox helper of the
// sessions its tests open.
func TestMain(m *testing.M) { os.Exit(sandboxhelper.Main(m)) }
