// Package xvfb runs programs in real terminal emulators on a virtual X
// display, for tests whose oracle is the emulator. Every tool is
// optional: a test asks Need and skips, saying what to install, where one
// is missing.
package xvfb

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Start starts a virtual X display for the test and returns its name;
// Xvfb picks a free display number and writes it to the pipe it is given.
// The display ends with the test.
func Start(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	n, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("want Xvfb's display number: %v; its stderr: %s", err, stderr.String())
	}
	return ":" + strings.TrimSpace(n)
}

// Need skips the test unless every tool is on PATH; install says how to
// get them.
func Need(t *testing.T, install string, tools ...string) {
	t.Helper()
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		t.Skipf("needs %s (%s); missing: %s", strings.Join(tools, ", "), install, strings.Join(missing, ", "))
	}
}
