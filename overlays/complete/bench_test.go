package complete

import (
	"fmt"
	"strings"
	"testing"
)

// generated is a workspace of n paths, 10% of them folders, nested three
// to five levels deep with realistic names.
func generated(n int) []string {
	words := []string{"src", "internal", "pkg", "handler", "server", "client", "model", "view", "util", "config",
		"store", "cache", "auth", "api", "test", "docs", "build", "router", "session", "render"}
	exts := []string{".go", ".ts", ".md", ".json", "_test.go", ".yaml"}
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		depth := 3 + i%3
		p := ""
		for d := range depth {
			p += words[(i/(d+1)+d*7)%len(words)] + fmt.Sprint((i>>(d*2))%8) + "/"
		}
		if i%10 == 0 {
			out = append(out, p)
			continue
		}
		out = append(out, p+words[i%len(words)]+fmt.Sprint(i%97)+exts[i%len(exts)])
	}
	return out
}

// BenchmarkKeystroke is one keystroke in the @ menu over 100,000 paths:
// the query grows by one character and the menu re-ranks.
func BenchmarkKeystroke(b *testing.B) {
	m := NewMenu(th)
	m.SetFiles(NewFiles(generated(benchPaths)))
	drafts := []string{"@s", "@se", "@ser", "@serv", "@servh", "@servhan", "@servhandl", "@r", "@ro", "@rout", "@router3/"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d := drafts[i%len(drafts)]
		m.Refresh(d, len(d))
		if !m.Open() {
			b.Fatalf("want the menu open for %q", d)
		}
		i++
	}
}

// BenchmarkRank ranks one typical query over 100,000 paths.
func BenchmarkRank(b *testing.B) {
	f := NewFiles(generated(benchPaths))
	b.ReportAllocs()
	for b.Loop() {
		got := f.Rank("sesrend", MaxFileResults)
		if len(got) != MaxFileResults {
			b.Fatalf("want %d matches, got %d", MaxFileResults, len(got))
		}
		for _, m := range got {
			if !inOrder(m.Path, "sesrend") {
				b.Fatalf("want paths holding s, e, s, r, e, n, d in order, got %q", m.Path)
			}
		}
	}
}

// benchPaths is the size of the workspace the benchmarks rank: the most
// the backend lists (launch.FilesLimit).
const benchPaths = 100_000

// inOrder reports whether path holds the letters of query in order.
func inOrder(path, query string) bool {
	for _, r := range query {
		i := strings.IndexRune(path, r)
		if i < 0 {
			return false
		}
		path = path[i+1:]
	}
	return true
}
