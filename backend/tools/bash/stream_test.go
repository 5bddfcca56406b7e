package bash

import (
	"os"
	"strings"
	"testing"
)

func TestStreamKeepsSmallOutputInMemoryOnly(t *testing.T) {
	dir := t.TempDir()
	s := NewStream(dir, "s-*.log", 10, 0)
	s.Write([]byte("0123456789"))
	s.Close()
	if c := s.Tail(); c.Text != "0123456789" || c.Truncated || c.SpillPath != "" {
		t.Fatalf("want the whole text, untruncated, no spill file; got %+v", c)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("want no spill file, got %d", len(entries))
	}
}

func TestStreamTailStartsOnARuneBoundary(t *testing.T) {
	s := NewStream(t.TempDir(), "s-*.log", 5, 0)
	s.Write([]byte("abcdé日本")) // é is 2 bytes, 日 and 本 3 each
	s.Close()
	c := s.Tail()
	if c.Text != "本" || !c.Truncated || c.SpillPath == "" {
		t.Fatalf("want tail %q, truncated, with a spill path; got %+v", "本", c)
	}
	if b, _ := os.ReadFile(c.SpillPath); string(b) != "abcdé日本" {
		t.Fatalf("want the spill file to hold everything, got %q", b)
	}
}

func TestStreamSpillStopsAtItsBound(t *testing.T) {
	s := NewStream(t.TempDir(), "s-*.log", 4, 6)
	s.Write([]byte("abc"))
	s.Write([]byte("defgh"))
	s.Write([]byte("ijk"))
	s.Close()
	if b, _ := os.ReadFile(s.Tail().SpillPath); string(b) != "abcdef" {
		t.Fatalf("want the first 6 bytes spilled, got %q", b)
	}
	if c := s.Tail(); c.Text != "hijk" {
		t.Fatalf("want tail %q, got %q", "hijk", c.Text)
	}
}

func TestStreamWithoutSpillDirReportsNoPath(t *testing.T) {
	s := NewStream("", "s-*.log", 4, 0)
	s.Write([]byte("abcdefgh"))
	if c := s.Tail(); c.SpillPath != "" || !c.Truncated {
		t.Fatalf("want truncated with no spill path, got %+v", c)
	}
	if got := streamText(s.Tail()); !strings.HasSuffix(got, "[output truncated; full output: (unavailable)]") {
		t.Fatalf("want the unavailable notice, got %q", got)
	}
}

func TestStreamReadFromIsIncrementalAndHoldsBackPartialRunes(t *testing.T) {
	s := NewStream(t.TempDir(), "s-*.log", 100, 0)
	s.Write([]byte("ab\xe6\x97")) // first two bytes of 日
	r := s.ReadFrom(0)
	if r.Text != "ab" || r.Next != 2 || r.Lossy {
		t.Fatalf("want %q up to offset 2, got %+v", "ab", r)
	}
	s.Write([]byte("\xa5c"))
	if r = s.ReadFrom(r.Next); r.Text != "日c" || r.Next != 6 {
		t.Fatalf("want %q up to offset 6, got %+v", "日c", r)
	}
	if r = s.ReadFrom(r.Next); r.Text != "" || r.Next != 6 {
		t.Fatalf("want nothing new, got %+v", r)
	}
}

func TestStreamReadFromReportsDroppedBytes(t *testing.T) {
	s := NewStream(t.TempDir(), "s-*.log", 4, 0)
	s.Write([]byte("abcdefgh"))
	s.Close()
	r := s.ReadFrom(0)
	if r.Text != "efgh" || !r.Lossy || r.SpillPath == "" || r.Next != 8 {
		t.Fatalf("want the kept tail, lossy, with a spill path, got %+v", r)
	}
}

func TestStreamTextIsValidUTF8(t *testing.T) {
	s := NewStream(t.TempDir(), "s-*.log", 64, 0)
	s.Write([]byte("caf\xe9 \xff\xfe ok"))
	if r := s.ReadFrom(0); r.Text != "caf\uFFFD \uFFFD ok" {
		t.Fatalf("want invalid bytes replaced while open, got %q", r.Text)
	}
	s.Close()
	if c := s.Tail(); c.Text != "caf\uFFFD \uFFFD ok" {
		t.Fatalf("want invalid bytes replaced in the tail, got %q", c.Text)
	}
}
