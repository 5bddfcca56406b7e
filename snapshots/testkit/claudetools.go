package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NPMDir is the folder the environment variable env names, where npm
// installed what (packages a test runs with node, which the network CI
// has cannot fetch); make is the target that installs them. It skips tb
// without the folder or without node.
func NPMDir(tb testing.TB, env, what, make string) string {
	tb.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		tb.Skipf("set %s to a folder where npm installed %s to run this test (make %s)", env, what, make)
	}
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skipf("node is not installed: %s need it", what)
	}
	return dir
}

// ClaudeTool is the path of the program name (ccusage, ccstatusline) that
// npm installed in the folder TACK_CLAUDE_TOOLS names: a tool people run
// on Claude Code's transcripts and status line, for a test to run on
// tack's (make claudetools installs them). It skips tb without that
// folder or without node, and fails it where the folder lacks the tool.
func ClaudeTool(tb testing.TB, name string) string {
	tb.Helper()
	dir := NPMDir(tb, "TACK_CLAUDE_TOOLS", "ccusage and ccstatusline", "claudetools")
	bin := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		tb.Fatalf("TACK_CLAUDE_TOOLS=%s has no %s: npm install ccusage ccstatusline there (make claudetools)", dir, name)
	}
	return bin
}
