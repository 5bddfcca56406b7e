package sandbox

import (
	"path/filepath"
	"strings"
	"testing"
)

// On macOS each command's profile is built from the layout of the moment:
// a directory added since the session began is writable in the next one.
func TestAnAddedDirectoryIsWritableInTheNextSeatbeltProfile(t *testing.T) {
	sb := New(Options{Workspace: t.TempDir(), TempDir: t.TempDir(), Home: t.TempDir()})
	lib, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	subpath := `(subpath "` + lib + `")`
	if w := writeRule(SeatbeltProfile(sb.Layout(), Confinement{})); strings.Contains(w, subpath) {
		t.Fatalf("want %s unwritable before it is added, the profile allows %s", lib, w)
	}
	sb.AddWritable(lib)
	if w := writeRule(SeatbeltProfile(sb.Layout(), Confinement{})); !strings.Contains(w, subpath) {
		t.Fatalf("want the profile to allow writes in %s once it is added, it allows %s", subpath, w)
	}
}

// writeRule is the profile's rule that allows writes in directories.
func writeRule(profile string) string {
	for _, line := range strings.Split(profile, "\n") {
		if strings.HasPrefix(line, "(allow file-write* (subpath ") {
			return line
		}
	}
	return ""
}
