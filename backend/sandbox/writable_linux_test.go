package sandbox

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestAddedDirectoryIsWritableFromTheNextCommandOn(t *testing.T) {
	w := newWorld(t)
	r := w.run(t, Confinement{}, `touch "$OUT/before"; true`, "OUT="+w.outside)
	if entries, _ := os.ReadDir(w.outside); len(entries) != 0 {
		t.Fatalf("want nothing written in a directory not yet added, got %v (%+v)", entries, r)
	}
	// A command running when the directory is added keeps its sandbox and
	// is not killed by the helper's replacement.
	flag := filepath.Join(w.ws, "go-on")
	running, out := w.start(t, `while [ ! -e `+flag+` ]; do sleep 0.02; done; touch `+w.outside+`/old 2>/dev/null || echo denied; echo alive`)

	w.sb.AddWritable(w.outside)
	if outside, _ := filepath.EvalSymlinks(w.outside); !slices.Contains(w.sb.Layout().Writable, outside) {
		t.Fatalf("want %s among the writable roots, got %v", outside, w.sb.Layout().Writable)
	}
	r = w.run(t, Confinement{}, `touch "$OUT/after" && echo ok`, "OUT="+w.outside)
	if r.stdout != "ok\n" {
		t.Fatalf("want a command started after AddWritable to write there, got %+v", r)
	}

	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(out)
	if exit := running.Wait(); string(got) != "denied\nalive\n" || exit != (Exit{}) {
		t.Fatalf("want the command started before to finish in its own sandbox (denied, alive, exit 0), got %q, %+v", got, exit)
	}
	running.Release()
	if _, err := os.Stat(filepath.Join(w.outside, "old")); err == nil {
		t.Fatal("want the command started before AddWritable unable to write there")
	}
}
