package fs

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
)

func TestReadResultFormat(t *testing.T) {
	five := "alpha\nbeta\ngamma\ndelta\nepsilon\n"
	cases := []struct {
		name    string
		content string
		args    map[string]any
	}{
		{"whole", five, map[string]any{}},
		{"window", five, map[string]any{"offset": 2, "limit": 2}},
		{"tail", five, map[string]any{"offset": 4}},
		{"empty", "", map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t)
			b.file("f.txt", c.content)
			c.args["file_path"] = "f.txt"
			r := b.run(b.read, c.args)
			wantOK(t, r)
			matchGolden(t, b.dir, r.Text)
		})
	}
}

func TestReadFooters(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", strings.Repeat("line\n", 2500))
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)"},
		{map[string]any{"offset": 2001}, "(End of file - total 2500 lines)"},
		{map[string]any{"offset": 2500, "limit": 1}, "(End of file - total 2500 lines)"},
		{map[string]any{"offset": 10, "limit": 5}, "(Showing lines 10-14 of 2500. Use offset=15 to continue.)"},
		// Claude Code's Read asks for a large file whole with
		// allow_large, and names a PDF's pages (of no use in a text).
		{map[string]any{"allow_large": true}, "(End of file - total 2500 lines)"},
		{map[string]any{"allow_large": false}, "(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)"},
		{map[string]any{"pages": "1-5", "limit": 1}, "(Showing lines 1-1 of 2500. Use offset=2 to continue.)"},
	}
	for _, c := range cases {
		c.args["file_path"] = "f.txt"
		r := b.run(b.read, c.args)
		wantOK(t, r)
		if !strings.HasSuffix(r.Text, "\n\n"+c.want) {
			t.Errorf("args %v: want footer %q, got tail %q", c.args, c.want, r.Text[max(0, len(r.Text)-120):])
		}
	}
}

func TestReadCapsOutputAt50KB(t *testing.T) {
	b := newBench(t)
	var long strings.Builder
	for i := range 100 {
		fmt.Fprintf(&long, "%04d %s\n", i, strings.Repeat("x", 1000))
	}
	b.file("f.txt", long.String())
	r := b.run(b.read, map[string]any{"file_path": "f.txt", "offset": 3})
	wantOK(t, r)
	want := "\n    52→0051 " + strings.Repeat("x", 1000) + "\n\n(Output capped. Showing lines 3-52. Use offset=53 to continue.)"
	if !strings.HasSuffix(r.Text, want) {
		t.Errorf("want 50 lines of 1005 bytes then the capped footer, got tail %q", r.Text[len(r.Text)-100:])
	}
}

func TestReadOffsetBeyondEndIsAnError(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "one\ntwo\nthree\n")
	r := b.run(b.read, map[string]any{"file_path": "f.txt", "offset": 4})
	wantError(t, r, fmt.Sprintf("offset 4 is out of range for %q (3 lines)", p))
}

func TestReadShowsCRLFLinesWithoutCarriageReturn(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "one\r\ntwo\r\n")
	r := b.run(b.read, map[string]any{"file_path": "f.txt"})
	wantOK(t, r)
	if strings.Contains(r.Text, "\r") {
		t.Errorf("want no carriage return in %q", r.Text)
	}
	if r.Text != "     1→one\n     2→two\n\n(End of file - total 2 lines)" {
		t.Errorf("want two numbered lines, got %q", r.Text)
	}
}

func TestReadCountsLastLineWithoutNewline(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "one\ntwo")
	r := b.run(b.read, map[string]any{"file_path": "f.txt"})
	wantOK(t, r)
	if r.Text != "     1→one\n     2→two\n\n(End of file - total 2 lines)" {
		t.Errorf("want the unterminated last line counted, got %q", r.Text)
	}
}

func TestReadCutsAThreeMegabyteLine(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "first\n"+strings.Repeat("é", 1_500_000)+"\nlast\n")
	r := b.run(b.read, map[string]any{"file_path": "f.txt"})
	wantOK(t, r)
	want := "     2→" + strings.Repeat("é", 2000) + "... (line truncated to 2000 chars)\n     3→last\n"
	if !strings.Contains(r.Text, want) {
		t.Errorf("want line 2 cut to 2000 characters and line 3 intact, got %d bytes", len(r.Text))
	}
	if !strings.Contains(r.Text, "(End of file - total 3 lines)") {
		t.Errorf("want 3 lines counted, got tail %q", r.Text[len(r.Text)-60:])
	}
}

// Claude Code's Read asks with allow_large for more than the usual 50 KB,
// and names a PDF's pages; read cannot open a PDF and says how to read it
// instead.
func TestReadTakesClaudeCodesLargeAndPDFReads(t *testing.T) {
	b := newBench(t)
	b.file("big.txt", strings.Repeat("a line of text that fills the window\n", 3000))
	if r := b.run(b.read, map[string]any{"file_path": "big.txt", "allow_large": true}); !strings.HasSuffix(r.Text, "(End of file - total 3000 lines)") {
		t.Errorf("want 111 KB read whole with allow_large, got tail %q", r.Text[max(0, len(r.Text)-120):])
	}
	p := b.file("paper.pdf", "%PDF-1.7\n\x00\x01binary")
	r := b.run(b.read, map[string]any{"file_path": "paper.pdf", "pages": "1-3"})
	wantError(t, r, fmt.Sprintf("cannot read %q: binary file (it contains NUL bytes or invalid UTF-8); only UTF-8 text files are supported, "+
		"for a PDF, extract its text with bash instead (pdftotext -f FIRST -l LAST FILE -, from poppler-utils)", p))
}

func TestReadRefusesBinaryFiles(t *testing.T) {
	for name, content := range map[string]string{
		"nul":     "text\x00more",
		"invalid": "ok\xff\xfe\n",
	} {
		b := newBench(t)
		p := b.file("f.bin", content)
		r := b.run(b.read, map[string]any{"file_path": "f.bin"})
		wantError(t, r, fmt.Sprintf("cannot read %q: binary file (it contains NUL bytes or invalid UTF-8); only UTF-8 text files are supported, inspect it with bash instead (file, xxd, strings)", p))
		if r.IsError != true {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestReadAcceptsRuneCutAtSniffBoundary(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", strings.Repeat("a", sniffLen-1)+"é\n")
	wantOK(t, b.run(b.read, map[string]any{"file_path": "f.txt"}))
}

func TestReadErrors(t *testing.T) {
	b := newBench(t)
	b.file("sub/x.txt", "x\n")
	cases := []struct {
		args map[string]any
		want string
		code string
	}{
		{map[string]any{"file_path": "nope.txt"}, fmt.Sprintf("cannot read %q: not found", b.dir+"/nope.txt"), ""},
		{map[string]any{"file_path": "sub"}, fmt.Sprintf("cannot read %q: not a regular file (it is a directory; use glob to list its files)", b.dir+"/sub"), ""},
		{map[string]any{"file_path": "sub/x.txt", "limit": 2001}, "limit must be less than or equal to 2000", session.CodeInvalidArgs},
		{map[string]any{"file_path": "sub/x.txt", "offset": 0}, "offset must be greater than or equal to 1", session.CodeInvalidArgs},
		{map[string]any{"file_path": ""}, "invalid file_path: expected a non-empty string", session.CodeInvalidArgs},
	}
	for _, c := range cases {
		r := b.run(b.read, c.args)
		wantError(t, r, c.want)
		if r.Code != c.code {
			t.Errorf("args %v: want code %q, got %q", c.args, c.code, r.Code)
		}
	}
}

func TestReadCard(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "a\nb\nc\n")
	r := b.run(b.read, map[string]any{"file_path": "f.txt", "offset": 2, "limit": 1})
	wantOK(t, r)
	want := card.Card{Kind: card.Read, Title: "Read f.txt (2-2)", Label: "Read", Subject: "f.txt",
		Description: "lines 2-2", Summary: "Read 1 line", Body: "2  b", Truncated: true,
		Window: &card.LineWindow{Start: 2, Lines: 1, Total: 3, Limit: 1, Newline: true}}
	if r.Card == nil || !reflect.DeepEqual(*r.Card, want) {
		t.Errorf("want card %+v, got %+v", want, r.Card)
	}
	if got := b.read.Present([]byte(`{"file_path":"f.txt","offset":5,"limit":10}`)); got.Title != "Read f.txt (5-14)" {
		t.Errorf("want call card title %q, got %q", "Read f.txt (5-14)", got.Title)
	}
}

// The card's lines read as in an editor: numbers of one width, and the
// text's own tab stops, so line 10's indentation lines up with line 9's
// however wide their numbers are.
func TestReadCardAlignsNumbersAndIndentation(t *testing.T) {
	b := newBench(t)
	b.file("f.go", "func f() {\n"+strings.Repeat("\tx()\n", 8)+"\t\ty := 1\n}\n")
	r := b.run(b.read, map[string]any{"file_path": "f.go"})
	wantOK(t, r)
	lines := strings.Split(r.Card.Body, "\n")
	for i, want := range map[int]string{0: " 1  func f() {", 8: " 9      x()", 9: "10          y := 1", 10: "11  }"} {
		if lines[i] != want {
			t.Errorf("line %d: want %q, got %q", i+1, want, lines[i])
		}
	}
}

func TestReadFollowsSymlinksAndAllowsEditThroughThem(t *testing.T) {
	b := newBench(t)
	target := b.file("real.txt", "one\n")
	if err := os.Symlink(target, filepath.Join(b.dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	r := b.run(b.read, map[string]any{"file_path": "link.txt"})
	wantOK(t, r)
	if !strings.HasPrefix(r.Text, "     1→one\n") {
		t.Fatalf("want the target's line, got %q", r.Text)
	}
	wantOK(t, b.run(b.edit, map[string]any{"file_path": "link.txt", "old_string": "one", "new_string": "two"}))
	if got := b.content("real.txt"); got != "two\n" {
		t.Fatalf("want the edit written through the link to the target, got %q", got)
	}
}

func TestReadPermissionDeniedSaysSo(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	b := newBench(t)
	p := b.file("secret.txt", "x\n")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	wantError(t, b.run(b.read, map[string]any{"file_path": "secret.txt"}), fmt.Sprintf("cannot read %q: permission denied", p))
}

// A last line without newline whose length is a multiple of the reader's
// 64 KiB buffer used to vanish: the file read as "total 0 lines".
func TestReadKeepsAnUnterminatedLastLineOfWholeBuffers(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		for _, before := range []string{"", "first\nsecond\n"} {
			b := newBench(t)
			content := before + strings.Repeat("x", 65536*n)
			b.file("f.txt", content)
			want := strings.Count(content, "\n") + 1
			r := b.run(b.read, map[string]any{"file_path": "f.txt"})
			wantOK(t, r)
			if !strings.Contains(r.Text, fmt.Sprintf("total %d lines", want)) {
				t.Errorf("n=%d, %d lines before: want %d lines counted, got footer %q", n, strings.Count(before, "\n"), want,
					r.Text[max(0, len(r.Text)-120):])
			}
			if !strings.Contains(r.Text, fmt.Sprintf("%6d→x", want)) {
				t.Errorf("n=%d: want line %d shown", n, want)
			}
		}
	}
}

// An image read where no model that takes images runs is refused with
// what to do next, naming the model when it is known.
func TestAnImageReadWithoutVisionSaysWhatToDo(t *testing.T) {
	b := newBench(t)
	b.file("shot.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	r := b.run(b.read, map[string]any{"file_path": "shot.png"})
	if !r.IsError || !strings.Contains(r.Text, ": this session's model does not accept images; ask the user to switch") {
		t.Errorf("want the read refused for this session's model, got %q", r.Text)
	}
}
