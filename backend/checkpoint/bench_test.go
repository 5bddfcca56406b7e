package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/procstat"
)

// shortFiles is the workspace size of every benchmark under -short: the
// CI smoke runs each once to see it still works, not to measure it.
const shortFiles = 500

// benchFiles is n, or shortFiles under -short.
func benchFiles(n int) int {
	if testing.Short() {
		return shortFiles
	}
	return n
}

// benchWorkspace writes n small files, 100 to a directory, and takes the
// first checkpoint (which hashes them all) outside the timer.
func benchWorkspace(b *testing.B, n int) (*Store, string) {
	b.Helper()
	needGit(b)
	ws, home := b.TempDir(), b.TempDir()
	for i := range n {
		dir := filepath.Join(ws, fmt.Sprintf("pkg%03d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%05d.go", i)), []byte(fmt.Sprintf("package p\n\n// %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s := openStore(b, home, ws, "bench")
	take(b, s)
	return s, ws
}

// benchmarkTake measures a checkpoint of an n-file workspace in which 10
// files changed since the last one: what tack pays before a turn.
func benchmarkTake(b *testing.B, n int) {
	n = benchFiles(n)
	s, ws := benchWorkspace(b, n)
	ctx := context.Background()
	cpu0 := procstat.ChildCPUTime()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for k := range 10 {
			f := filepath.Join(ws, fmt.Sprintf("pkg%03d", k*7%(n/100)), fmt.Sprintf("file%05d.go", k*7%(n/100)*100+k))
			if err := os.WriteFile(f, []byte(fmt.Sprintf("package p\n\n// changed %d\n", i)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		snap, err := s.Take(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(snap.Changed) != 10 {
			b.Fatalf("want 10 changed files, got %d", len(snap.Changed))
		}
	}
	// The CPU time of the git processes, which a loaded machine stretches
	// less than the wall time.
	b.ReportMetric(float64((procstat.ChildCPUTime()-cpu0).Microseconds())/1000/float64(b.N), "git-cpu-ms/op")
}

func BenchmarkTake10kFiles10Changed(b *testing.B)  { benchmarkTake(b, 10_000) }
func BenchmarkTake100kFiles10Changed(b *testing.B) { benchmarkTake(b, 100_000) }

// BenchmarkFirstTake10kFiles is a workspace's first checkpoint, which
// writes every file into a new store: what Prime spares the first turn.
// A second checkpoint after one file changed, outside the timer, shows the
// first held the rest.
func BenchmarkFirstTake10kFiles(b *testing.B) {
	_, ws := benchWorkspace(b, benchFiles(10_000))
	ctx := context.Background()
	changed := filepath.Join(ws, "pkg000", "file00000.go")
	for i := 0; b.Loop(); i++ {
		s := openStore(b, b.TempDir(), ws, "bench")
		if _, err := s.Take(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := os.WriteFile(changed, []byte(fmt.Sprintf("package p\n\n// first take %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		snap, err := s.Take(ctx)
		if err != nil || len(snap.Changed) != 1 || snap.Changed[0] != "pkg000/file00000.go" {
			b.Fatalf("want only pkg000/file00000.go changed since the first checkpoint, got %v (%v)", snap.Changed, err)
		}
		b.StartTimer()
	}
}
