//go:build linux

package tmuxdiff

import (
	"os"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

func TestMain(m *testing.M) { os.Exit(tackbin.Main(m)) }
