package spill

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSpillLeavesSmallTextAlone(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("x", MaxInline)
	got, spilled := Spill(dir, "bash", text, MaxInline)
	if spilled || got != text {
		t.Fatalf("want the text unchanged and not spilled, got spilled=%v len=%d", spilled, len(got))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("want no spill file, got %d", len(entries))
	}
}

var noticeRE = regexp.MustCompile(`\n\n\(Omitted (\d+) bytes\. Full formatted result stored at: (\S+)\. Use read with offset/limit, or grep this path to search within it\.\)\n\n`)

func TestSpillSavesWholeTextAndPreviewsHeadAndTail(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 200_000; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("é", i%7))
		b.WriteString("\n")
	}
	text := "HEAD" + b.String() + "TAIL"
	got, spilled := Spill(dir, "grep", text, MaxInline)
	if !spilled {
		t.Fatal("want spilled=true, got false")
	}
	if len(got) > MaxInline {
		t.Fatalf("want preview within %d bytes, got %d", MaxInline, len(got))
	}
	if !utf8.ValidString(got) {
		t.Fatal("want a valid UTF-8 preview, got broken runes")
	}
	m := noticeRE.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("want the omission notice, got %q", got[len(got)/2-200:len(got)/2+200])
	}
	path := m[2]
	if filepath.Dir(path) != dir || !strings.HasPrefix(filepath.Base(path), "grep-") {
		t.Fatalf("want a grep-* file in %s, got %s", dir, path)
	}
	saved, err := os.ReadFile(path)
	if err != nil || string(saved) != text {
		t.Fatalf("want the spill file to hold the whole text (%d bytes), got %d bytes, err %v", len(text), len(saved), err)
	}
	head, tail, _ := strings.Cut(got, m[0])
	if !strings.HasPrefix(text, head) || !strings.HasPrefix(head, "HEAD") {
		t.Fatalf("want the preview to start with the head of the text, got %q", head[:20])
	}
	if !strings.HasSuffix(text, tail) || !strings.HasSuffix(tail, "TAIL") {
		t.Fatalf("want the preview to end with the tail of the text, got %q", tail[len(tail)-20:])
	}
	if want := len(text) - len(head) - len(tail); m[1] != strconv.Itoa(want) {
		t.Fatalf("want Omitted %d bytes, got %s", want, m[1])
	}
}

func TestSpillCutsOnRuneBoundaries(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("日本語", 1000)
	for max := 300; max < 320; max++ {
		got, _ := Spill(dir, "x", text, max)
		if !utf8.ValidString(got) {
			t.Fatalf("max %d: want valid UTF-8, got a split rune", max)
		}
		if len(got) > max {
			t.Fatalf("max %d: want at most %d bytes, got %d", max, max, len(got))
		}
	}
}

func TestSpillSaysWhenTheFileCannotBeWritten(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got, spilled := Spill(filepath.Join(blocker, "sub"), "bash", strings.Repeat("a", 1000), 400)
	if !spilled || !strings.Contains(got, "The full result could not be saved") {
		t.Fatalf("want a notice that the result could not be saved, got %q", got)
	}
}

func TestSafeNameKeepsFilesInsideTheDirectory(t *testing.T) {
	if got := safeName("../../etc/passwd"); strings.ContainsAny(got, "./") {
		t.Fatalf("want no path characters, got %q", got)
	}
}
