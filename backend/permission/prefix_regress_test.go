package permission

import (
	"strings"
	"testing"
)

// TestPrefixesForRefusesCommandsItsPrefixWouldNotCover pins a fuzz finding:
// PrefixesFor offered to remember "gst it" for "gst it>tus", whose write to
// a file the remembered prefix would never allow, so "allow for this
// session" asked again for the very command it was given for.
func TestPrefixesForRefusesCommandsItsPrefixWouldNotCover(t *testing.T) {
	for _, command := range []string{
		"gst it>tus",
		"git status > out.txt",
		"git status >& out.txt",
		"git status $(rm x)",
		"ls <(rm y)",
		"grep x <<EOF\n$(rm y)\nEOF",
	} {
		if got, ok := PrefixesFor(command); ok {
			t.Errorf("PrefixesFor(%q): want no prefix, got %q", command, got)
		}
	}
	for command, want := range map[string]string{
		"git status > /dev/null 2>&1": "git status",
		"ls $(ls)":                    "ls",
		"grep -n x < input.txt":       "grep",
	} {
		if got, ok := PrefixesFor(command); !ok || strings.Join(got, ", ") != want {
			t.Errorf("PrefixesFor(%q): want %q, got %q, %v", command, want, got, ok)
		}
	}
}
