package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ClaudeTool is the path of the program name (ccusage, ccstatusline) that
// npm installed in the folder TACK_CLAUDE_TOOLS names: a tool people run
// on Claude Code's transcripts and status line, for a test to run on
// tack's (make claudetools installs them). It skips tb without that
// folder or without node, and fails it where the folder lacks the tool.
func ClaudeTool(tb testing.TB, name string) string {
	tb.Helper()
	dir := os.Getenv("TACK_CLAUDE_TOOLS")
	if dir == "" {
		tb.Skip("set TACK_CLAUDE_TOOLS to a folder where npm installed ccusage and ccstatusline to run them on tack's files (make claudetools)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skip("node is not installed: ccusage and ccstatusline need it")
	}
	bin := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		tb.Fatalf("TACK_CLAUDE_TOOLS=%s has no %s: npm install ccusage ccstatusline there (make claudetools)", dir, name)
	}
	return bin
}
