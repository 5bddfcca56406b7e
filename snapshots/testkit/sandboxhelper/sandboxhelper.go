// Package sandboxhelper is the TestMain of a package whose tests run
// commands in the sandbox, directly or through the sessions they open:
// backend/sandbox starts the running binary again as its helper, so the
// test binary must serve as one.
package sandboxhelper

import (
	"testing"

	"github.com/tack-agent/tack/backend/sandbox"
)

// Main serves as the sandbox helper when the binary was started as one (it
// does not return then), and otherwise runs the tests; it returns the exit
// code for os.Exit:
//
//	func TestMain(m *testing.M) { os.Exit(sandboxhelper.Main(m)) }
func Main(m *testing.M) int {
	sandbox.ServeIfHelper()
	return m.Run()
}
