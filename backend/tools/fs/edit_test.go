package fs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// readFirst reads name so that the session may edit it.
func (b *bench) readFirst(name string) {
	b.t.Helper()
	wantOK(b.t, b.run(b.read, map[string]any{"file_path": name}))
}

func TestEditResultFormat(t *testing.T) {
	t.Run("one", func(t *testing.T) {
		b := newBench(t)
		b.file("f.go", "package a\n\nfunc A() {}\n")
		b.readFirst("f.go")
		r := b.run(b.edit, map[string]any{"file_path": "f.go", "old_string": "A()", "new_string": "B()"})
		wantOK(t, r)
		matchGolden(t, b.dir, r.Text)
	})
	t.Run("all", func(t *testing.T) {
		b := newBench(t)
		b.file("f.go", "x x x\n")
		b.readFirst("f.go")
		r := b.run(b.edit, map[string]any{"file_path": "f.go", "old_string": "x", "new_string": "y", "replace_all": true})
		wantOK(t, r)
		matchGolden(t, b.dir, r.Text)
	})
}

const claudeCodeEdits = "../../../testdata/claudecode/cc-2.0.0.edits.json"

// TestEditAgreesWithClaudeCode edits each file of claudeCodeEdits after
// reading it and checks that the file holds then what real Claude Code's
// Edit left in it (testdata/claudecode/record.py recorded it): CRLF line ends kept though old_string and new_string use LF, every
// match with replace_all, curly quotes taken for straight ones, a deleted
// line's break gone with it. tackDiffers are the cases where tack differs
// on purpose.
func TestEditAgreesWithClaudeCode(t *testing.T) {
	var recorded struct {
		Cases []struct {
			Name, Before, After string
			Args                map[string]any
		}
	}
	testkit.ReadJSON(t, claudeCodeEdits, &recorded)
	joins := "Claude Code also takes the line break after text that does not fill its line, which joins two lines"
	tackDiffers := map[string]struct{ after, why string }{
		"delete within a line":     {"foo\nbaz\n", joins},
		"delete the end of a line": {"foo \nbaz\n", joins},
		"delete every such line":   {"y\na\n", joins},
		"trailing spaces in new_string": {"a\nc   \nd\t\n",
			"Claude Code strips the white space at the end of new_string's lines; tack writes what the model wrote"},
	}
	for _, tc := range recorded.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			want := tc.After
			if d, ok := tackDiffers[tc.Name]; ok {
				want = d.after
				delete(tackDiffers, tc.Name)
				t.Logf("tack differs on purpose: %s", d.why)
			}
			b := newBench(t)
			b.file("f.txt", tc.Before)
			b.readFirst("f.txt")
			tc.Args["file_path"] = "f.txt"
			wantOK(t, b.run(b.edit, tc.Args))
			if got := b.content("f.txt"); got != want {
				t.Errorf("want %q, got %q", want, got)
			}
		})
	}
	for name := range tackDiffers {
		t.Errorf("tack differs in %q, which the recording does not hold", name)
	}
}

// TestEditRefusals: each call is refused with the error that says what to
// do next, and the file stays as it was.
func TestEditRefusals(t *testing.T) {
	const binary = "cannot edit %q: binary file (it contains NUL bytes or invalid UTF-8); only UTF-8 text files are supported, " +
		"change it with bash instead (sed, or iconv to convert it to UTF-8)"
	for _, tc := range []struct {
		name, content string
		read          bool
		old           string
		// want is the error, %[1]s or %[1]q standing for the file's path.
		want string
	}{
		{"old_string not unique", "foo\nfoo\nfoo\n", true, "foo",
			"old_string matches 3 places in %[1]s; include more surrounding lines to make it unique, or set replace_all"},
		{"old_string missing", "hello\n", true, "hello ",
			"old_string was not found in %[1]s; read the file again and copy the exact text, including whitespace"},
		{"not read", "a\n", false, "a", "%[1]s has not been read in this session — read the file, then retry"},
		{"NUL byte", "a\x00b", false, "a", binary},
		{"invalid UTF-8 past the read's sniff", strings.Repeat("a\n", sniffLen) + "caf\xe9\n", true, "caf", binary},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t)
			p := b.file("f.txt", tc.content)
			if tc.read {
				b.readFirst("f.txt")
			}
			r := b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": tc.old, "new_string": "z"})
			wantError(t, r, fmt.Sprintf(tc.want, p))
			if got := b.content("f.txt"); got != tc.content {
				t.Errorf("want the file untouched, got %d bytes ending %q", len(got), got[max(len(got)-20, 0):])
			}
		})
	}
}

// TestEditWithReadLinePrefixesSaysToDropThem copies lines of read's own
// output into old_string, as a model that forgets the prefix does.
func TestEditWithReadLinePrefixesSaysToDropThem(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "alpha\n\nbeta\n")
	shown := b.run(b.read, map[string]any{"file_path": "f.txt"}).Text
	lines, _, _ := strings.Cut(shown, "\n\n(")
	r := b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": lines, "new_string": "gamma"})
	wantError(t, r, "old_string was not found in "+p+"; it seems to include the line numbers and `→` that read puts before each line, which are not part of the file: copy the text after the `→`")
}

func TestEditOfFileChangedOnDiskSinceReadIsRefused(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "a\nb\n")
	b.readFirst("f.txt")
	b.file("f.txt", "a\nb\nc\n")
	r := b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "z"})
	wantError(t, r, p+" changed on disk since it was read — re-read the file, then retry")
	b.readFirst("f.txt")
	wantOK(t, b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "z"}))
}

func TestEditArgumentErrors(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "a\n")
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"old_string": "a", "new_string": "x"}, "invalid file_path: expected a non-empty string"},
		{map[string]any{"file_path": "f.txt", "old_string": "", "new_string": "x"}, "old_string must be a non-empty string"},
		{map[string]any{"file_path": "f.txt", "new_string": "x"}, "old_string must be a non-empty string"},
		{map[string]any{"file_path": "f.txt", "old_string": "a", "new_string": "a"}, "old_string and new_string must differ"},
		{map[string]any{"file_path": "f.txt", "old_string": "a"}, "invalid new_string: expected a string"},
	}
	for _, c := range cases {
		r := b.run(b.edit, c.args)
		wantError(t, r, c.want)
		if r.Code != session.CodeInvalidArgs {
			t.Errorf("args %v: want code %s, got %q", c.args, session.CodeInvalidArgs, r.Code)
		}
	}
	wantError(t, b.run(b.edit, map[string]any{"file_path": "gone.txt", "old_string": "a", "new_string": "b"}),
		fmt.Sprintf("cannot edit %q: not found; use write to create a new file", b.dir+"/gone.txt"))
}

func TestEditCardShowsHunksWithContextAndGaps(t *testing.T) {
	b := newBench(t)
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("l%d", i))
	}
	b.file("f.txt", strings.Join(lines, "\n")+"\n")
	b.readFirst("f.txt")
	r := b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "l2\n", "new_string": "L2\n"})
	wantOK(t, r)
	r = b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "L2\nl3", "new_string": "l3"})
	wantOK(t, r)
	d := r.Card.Diffs[0]
	if d.Added != 0 || d.Removed != 1 {
		t.Errorf("want +0 -1, got +%d -%d", d.Added, d.Removed)
	}
	twoHunks := fileDiff("f", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n", "A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nK\n", false)
	want := []card.DiffLine{
		{Op: card.OpDelete, Text: "a", Old: 1}, {Op: card.OpAdd, Text: "A", New: 1},
		{Op: card.OpContext, Text: "b", Old: 2, New: 2}, {Op: card.OpContext, Text: "c", Old: 3, New: 3},
		{Op: card.OpContext, Text: "d", Old: 4, New: 4},
		{Op: card.OpGap, Text: "3 unchanged lines"},
		{Op: card.OpContext, Text: "h", Old: 8, New: 8}, {Op: card.OpContext, Text: "i", Old: 9, New: 9},
		{Op: card.OpContext, Text: "j", Old: 10, New: 10},
		{Op: card.OpDelete, Text: "k", Old: 11}, {Op: card.OpAdd, Text: "K", New: 11},
	}
	if !reflect.DeepEqual(twoHunks.Lines, want) {
		t.Errorf("want lines %v, got %v", want, twoHunks.Lines)
	}
}

func TestDiffOverBudgetIsApproximate(t *testing.T) {
	var before, after strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&before, "old %d\n", i)
		fmt.Fprintf(&after, "new %d\n", i)
	}
	d := fileDiff("f", "keep\n"+before.String(), "keep\n"+after.String(), false)
	if !d.Approximate || d.Added != 1200 || d.Removed != 1200 {
		t.Errorf("want approximate +1200 -1200, got approximate=%v +%d -%d", d.Approximate, d.Added, d.Removed)
	}
	if n := len(d.Lines); n != 2002 {
		t.Errorf("want 1000 lines per side plus a gap line each (2002), got %d", n)
	}
}

func TestDiffOfManyScatteredChangesIsExact(t *testing.T) {
	scattered := func(changes int) (string, string) {
		var before, after strings.Builder
		for i := range 10_000 {
			fmt.Fprintf(&before, "line %d\n", i)
			if i%15 == 0 && i/15 < changes {
				fmt.Fprintf(&after, "changed %d\n", i)
			} else {
				fmt.Fprintf(&after, "line %d\n", i)
			}
		}
		return before.String(), after.String()
	}
	before, after := scattered(300)
	d := fileDiff("f", before, after, false)
	if d.Approximate || d.Added != 300 || d.Removed != 300 {
		t.Fatalf("want an exact +300 -300 for 300 one-line changes, got approximate=%v +%d -%d", d.Approximate, d.Added, d.Removed)
	}
	ops := map[card.DiffOp]int{}
	for _, l := range d.Lines {
		ops[l.Op]++
	}
	if ops[card.OpAdd] != 300 || ops[card.OpDelete] != 300 || ops[card.OpGap] != 299 || ops[card.OpContext] != 300*6-3 {
		t.Fatalf("want 300 hunks of one change with 3 lines of context joined by 299 gaps, got %v", ops)
	}
	before, after = scattered(501)
	if d := fileDiff("f", before, after, false); !d.Approximate {
		t.Fatalf("want 1002 changed lines approximate, got exact +%d -%d", d.Added, d.Removed)
	}
}

func TestBoundedMyersFindsAShortestScript(t *testing.T) {
	cases := []struct{ a, b string }{
		{"", "x"},
		{"x", ""},
		{"a b c", "a c"},
		{"a b c", "a x b c"},
		{"a b c a b b a", "c b a b a c"},
		{"x y z", "p q r s"},
	}
	for _, c := range cases {
		a, b := strings.Fields(c.a), strings.Fields(c.b)
		got, ok := boundedMyers(a, b, 20)
		if !ok {
			t.Fatalf("%q -> %q: want a script, got none", c.a, c.b)
		}
		// Applying the script to a must give b, with as few edits as the LCS allows.
		var out []string
		pos := 0
		for _, d := range got {
			out = append(out, a[pos:d.Start]...)
			out = append(out, b[d.ReplStart:d.ReplEnd]...)
			pos = d.End
		}
		out = append(out, a[pos:]...)
		if strings.Join(out, " ") != strings.Join(b, " ") {
			t.Errorf("%q -> %q: want the script to rebuild b, got %q from %+v", c.a, c.b, out, got)
		}
		if n, want := changed(got), len(a)+len(b)-2*lcsLen(a, b); n != want {
			t.Errorf("%q -> %q: want %d edits, got %d", c.a, c.b, want, n)
		}
	}
	if _, ok := boundedMyers(strings.Fields("a b c"), strings.Fields("x y z"), 5); ok {
		t.Error("want no script within 5 edits for 6 needed, got one")
	}
}

// lcsLen is the longest common subsequence by dynamic programming.
func lcsLen(a, b []string) int {
	row := make([]int, len(b)+1)
	for i := range a {
		prev := 0
		for j := range b {
			cur := row[j+1]
			if a[i] == b[j] {
				row[j+1] = prev + 1
			} else {
				row[j+1] = max(row[j+1], row[j])
			}
			prev = cur
		}
	}
	return row[len(b)]
}

func TestPresentIsPure(t *testing.T) {
	b := newBench(t)
	c := b.edit.Present([]byte(`{"file_path":"x.go","old_string":"a\nb","new_string":"a\nc"}`))
	want := []card.DiffLine{{Op: card.OpContext, Text: "a"}, {Op: card.OpDelete, Text: "b"}, {Op: card.OpAdd, Text: "c"}}
	if c.Title != "Edit x.go" || len(c.Diffs) != 1 || !reflect.DeepEqual(c.Diffs[0].Lines, want) {
		t.Errorf("want edit call card with lines %v, got %+v", want, c)
	}
	w := b.write.Present([]byte(`{"file_path":"y.txt","content":"1\n2\n"}`))
	if w.Title != "Write y.txt" || w.Diffs[0].Added != 2 {
		t.Errorf("want write call card with 2 added lines, got %+v", w)
	}
}

// A file tool's card before its result names the file as the result's
// card does: relative to the working directory when under it, however
// the model wrote it, so the card's title stays as the call finishes.
func TestCallCardsNameTheirFileAsTheirResultsDo(t *testing.T) {
	b := newBench(t)
	outside := t.TempDir()
	for _, dir := range []string{b.dir, ".", outside} {
		for _, f := range []struct{ name, content string }{{"calc.go", "a := 1\n"}, {"nb.ipynb", notebook45}} {
			if err := os.WriteFile(filepath.Join(resolve(b.dir, dir), f.name), []byte(f.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// Joined by hand: filepath.Join would clean "./calc.go" away.
		code, nb := dir+string(filepath.Separator)+"calc.go", dir+string(filepath.Separator)+"nb.ipynb"
		for _, c := range []struct {
			tool tools.Tool
			args map[string]any
		}{
			{b.read, map[string]any{"file_path": code}},
			{b.edit, map[string]any{"file_path": code, "old_string": "a", "new_string": "b"}},
			{b.write, map[string]any{"file_path": code, "content": "c := 3\n"}},
			{b.read, map[string]any{"file_path": nb}},
			{b.notebook, map[string]any{"notebook_path": nb, "cell_id": "cell-2", "new_source": "x = 1"}},
		} {
			raw, _ := json.Marshal(c.args)
			got := tools.PresentIn(c.tool, raw, b.dir)
			r := b.run(c.tool, c.args)
			wantOK(t, r)
			if got.Title != r.Card.Title || got.Subject != r.Card.Subject || len(got.Diffs) > 0 && got.Diffs[0].Path != r.Card.Diffs[0].Path {
				t.Errorf("%s %s: want the call's card to name the file as its result's does, %q (%q), got %q (%q)",
					c.tool.Spec().Name, raw, r.Card.Title, r.Card.Subject, got.Title, got.Subject)
			}
		}
	}
}

// The approval shows what the edit would change in the file as it is,
// numbered by its lines; an edit that would fail has no preview.
func TestPreviewNumbersTheChangeByTheFilesLines(t *testing.T) {
	b := newBench(t)
	b.file("wc.go", "package wc\n\nfunc a() {}\n\nfunc b() {}\n")
	b.readFirst("wc.go")
	call := func(old, repl string) tools.Call {
		raw, _ := json.Marshal(map[string]any{"file_path": "wc.go", "old_string": old, "new_string": repl})
		return tools.Call{ID: "c1", Args: raw, Env: &tools.Env{Cwd: b.dir}}
	}
	pv := b.edit.(tools.Previewer)
	c, ok := pv.Preview(call("func b() {}", "func c() {}"))
	if !ok || len(c.Diffs) != 1 {
		t.Fatalf("want a preview of the edit, got %v %+v", ok, c)
	}
	var changed []card.DiffLine
	for _, l := range c.Diffs[0].Lines {
		if l.Op != card.OpContext {
			changed = append(changed, l)
		}
	}
	want := []card.DiffLine{{Op: card.OpDelete, Text: "func b() {}", Old: 5}, {Op: card.OpAdd, Text: "func c() {}", New: 5}}
	if !reflect.DeepEqual(changed, want) {
		t.Errorf("want the changed lines numbered as in the file, %+v, got %+v", want, changed)
	}
	if b.content("wc.go") != "package wc\n\nfunc a() {}\n\nfunc b() {}\n" {
		t.Error("want the preview to leave the file alone")
	}
	for _, old := range []string{"missing", "func"} {
		if _, ok := pv.Preview(call(old, "x")); ok {
			t.Errorf("old_string %q: want no preview for an edit that would fail", old)
		}
	}
}
