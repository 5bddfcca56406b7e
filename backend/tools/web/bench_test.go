package web

import (
	"bytes"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// BenchmarkConvertDocumentationPage measures readability extraction and
// Markdown conversion of the test documentation page.
func BenchmarkConvertDocumentationPage(b *testing.B) {
	page, err := os.ReadFile("testdata/docs-page.html")
	if err != nil {
		b.Fatal(err)
	}
	u, _ := url.Parse("https://docs.example/docs/guides/retries")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		title, md, err := htmlToMarkdown(bytes.NewReader(page), u)
		if err != nil {
			b.Fatal(err)
		}
		if !strings.HasPrefix(title, "Configuring retries") || !strings.Contains(md, "```go\nclient := sprocket.New") {
			b.Fatalf("want the retries page with its Go example, got %q and %d bytes", title, len(md))
		}
	}
}

// BenchmarkWindowOfALongPage measures cutting one window from the middle
// of a 1 MB page.
func BenchmarkWindowOfALongPage(b *testing.B) {
	page := bytes.Repeat([]byte("a line of Markdown text, é and more words here\n"), 1<<20/48)
	s := string(page)
	b.ReportAllocs()
	for b.Loop() {
		text, end := window(s, 500_000, defaultMaxChars)
		if n := utf8.RuneCountInString(text); n == 0 || n > defaultMaxChars || end != 500_000+n {
			b.Fatalf("want a window of at most %d characters from 500000, got %d ending at %d", defaultMaxChars, n, end)
		}
	}
}
