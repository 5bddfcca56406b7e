package web

import (
	"bytes"
	"net/url"
	"os"
	"testing"
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
		if _, _, err := htmlToMarkdown(bytes.NewReader(page), u); err != nil {
			b.Fatal(err)
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
		window(s, 500_000, defaultMaxChars)
	}
}
