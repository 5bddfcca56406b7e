// Package golden compares test output with files under the test package's
// testdata directory. `go test -update` rewrites the files instead; review
// their diff like code.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// Updating reports whether this run rewrites golden files.
func Updating() bool { return *update }

// Assert compares got with the file at path (relative to the test
// package), or writes got there when -update is given.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file %s: %v (run go test -update to create it)", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (go test -update rewrites it)\nwant:\n%s\ngot:\n%s", path, want, got)
	}
}
