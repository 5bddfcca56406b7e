package hooks

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

// TestATimeoutEndsTheHookAndWhatItStarted: the hook and the child it
// leaves behind would run for hours, so the hook's end comes from its
// timeout, which the reason names; the child's pid shows it was ended too.
func TestATimeoutEndsTheHookAndWhatItStarted(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	h := hook(PreToolUse, "sleep 100000 & echo $! > "+pidFile+"; sleep 100000")
	h.Timeout = 200 * time.Millisecond
	res := runOne(t, h)
	if res.Outcome != OutcomeFailed || res.Reason != "timed out after 200ms" {
		t.Errorf("result = %+v", res)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("want the hook's child pid written, got %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("want a pid, got %q", b)
	}
	testkit.Eventually(t, "the hook's child "+strconv.Itoa(pid)+" to be ended", func() bool { return procs.Gone(pid) })
}
