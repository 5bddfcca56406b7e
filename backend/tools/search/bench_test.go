package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// makeLargeTree writes 500×leaves files (50,000 for 10 leaves) in 100×leaves
// directories three levels deep, half Go and half text, with .gitignore
// files at the root and in every top-level directory. Every 997th file
// holds the grep target. It returns how many files it wrote.
func makeLargeTree(b *testing.B, dir string, leaves int) int {
	b.Helper()
	body := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) { return }\n", 20)
	write := func(p, content string) {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(dir, ".gitignore"), "*.tmp\ndist/\n")
	n := 0
	for i := range 10 {
		top := filepath.Join(dir, fmt.Sprintf("pkg%d", i))
		for j := range 10 {
			for k := range leaves {
				leaf := filepath.Join(top, fmt.Sprintf("mod%d", j), fmt.Sprintf("part%d", k))
				if err := os.MkdirAll(leaf, 0o755); err != nil {
					b.Fatal(err)
				}
				for f := range 50 {
					ext := ".go"
					if f%2 == 1 {
						ext = ".txt"
					}
					content := body
					if n%997 == 0 {
						content += "const marker = \"needle_literal\"\n"
					}
					write(filepath.Join(leaf, fmt.Sprintf("file%d%s", f, ext)), content)
					n++
				}
			}
		}
		write(filepath.Join(top, ".gitignore"), "generated/\n*.bak\n!keep.bak\n")
	}
	return n
}

// BenchmarkSearch times grep of a literal (every matching line, as
// output_mode content lists them) and glob over a 50,000-file tree (5,000
// under -short, the CI smoke). Run: go test ./backend/tools/search -bench . -benchmem -run '^$'
func BenchmarkSearch(b *testing.B) {
	dir, leaves := b.TempDir(), 10
	if testing.Short() {
		leaves = 1
	}
	files := makeLargeTree(b, dir, leaves)
	markers, gofiles, pathMatches := (files-1)/997+1, files/2, 10*leaves*5
	b.Run("grep_literal", func(b *testing.B) {
		for b.Loop() {
			r := run(b, NewGrep(noUserConfig), dir, map[string]any{"pattern": "needle_literal", "output_mode": "content"})
			if n := strings.Count(r.Text, "needle_literal"); n != markers {
				b.Fatalf("want %d matching lines, got %d: %q", markers, n, r.Text[:min(len(r.Text), 80)])
			}
		}
	})
	b.Run("glob_basename", func(b *testing.B) {
		for b.Loop() {
			r := run(b, NewGlob(noUserConfig), dir, map[string]any{"pattern": "*.go"})
			if want := fmt.Sprintf("(Showing 100 of %d matches. Narrow the pattern or path to see the rest.)", gofiles); !strings.HasSuffix(r.Text, want) {
				b.Fatalf("want %d matches, got tail %q", gofiles, r.Text[max(0, len(r.Text)-80):])
			}
		}
	})
	b.Run("glob_path", func(b *testing.B) {
		for b.Loop() {
			r := run(b, NewGlob(noUserConfig), dir, map[string]any{"pattern": "pkg3/**/file1?.go"})
			if want := min(100, pathMatches); strings.Count(r.Text, "\n") < want-1 {
				b.Fatalf("want at least %d matches, got %q", want, r.Text[:min(len(r.Text), 80)])
			}
		}
	})
}
