package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/session"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// exportSession runs /export in a temporary directory and returns the
// written document.
func exportSession(t *testing.T, s *fakeSession, arg string) (string, Result) {
	t.Helper()
	dir := t.TempDir()
	res := run(t, builtins(t, Deps{Models: catalog, WorkDir: dir}), s, "/export"+arg)
	path := filepath.Join(dir, "tack-s-0001.md")
	if arg != "" {
		path = filepath.Join(dir, strings.TrimSpace(arg))
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read the export: %v (result %+v)", err, res)
	}
	return string(doc), res
}

func TestExportWritesTheDefaultFileAndSaysWhere(t *testing.T) {
	dir := t.TempDir()
	res := run(t, builtins(t, Deps{Models: catalog, WorkDir: dir}), newSession(), "/export")
	want := "Exported the transcript to " + filepath.Join(dir, "tack-s-0001.md") + "."
	if res.Kind != Success || res.Text != want {
		t.Errorf("want %q, got %+v", want, res)
	}
	_, res = exportSession(t, newSession(), " notes/../chat.md")
	if res.Kind != Success {
		t.Errorf("export to a named file: want success, got %+v", res)
	}
	res = run(t, builtins(t, Deps{WorkDir: dir}), newSession(), "/export missing/dir/x.md")
	if res.Kind != Error || !strings.HasPrefix(res.Text, "Could not export the transcript: ") {
		t.Errorf("export into a missing directory: want an error, got %+v", res)
	}
}

func TestExportMatchesGolden(t *testing.T) {
	doc, _ := exportSession(t, newSession(), "")
	matchGolden(t, "export.golden.md", doc)
}

func TestExportIsMarkdownHoldingEveryPromptAndAnswer(t *testing.T) {
	doc, _ := exportSession(t, newSession(), "")
	for _, d := range sessionData() {
		var want string
		switch d := d.(type) {
		case session.UserMessage:
			if d.Kind == session.KindPrompt {
				want = d.Text
			}
		case session.SteeringMessage:
			want = d.Text
		case session.AssistantMessage:
			want = d.Text
		}
		if want != "" && !strings.Contains(doc, want) {
			t.Errorf("want %q in the export", want)
		}
	}

	src := []byte(doc)
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	var headings, fences []string
	var html int
	must(t, ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 2 {
				headings = append(headings, string(n.Lines().Value(src)))
			}
		case *ast.FencedCodeBlock:
			fences = append(fences, string(n.Language(src)))
		case *ast.HTMLBlock:
			html++
		}
		return ast.WalkContinue, nil
	}))
	// The prompt's unclosed fence is closed, so the answer after it is still
	// its own section.
	wantHeadings := []string{"You", "Assistant", "You", "Steering", "Assistant", "Usage"}
	if !slices.Equal(headings, wantHeadings) {
		t.Errorf("sections: want %v, got %v", wantHeadings, headings)
	}
	// json tool call, text tool result (holding a ``` line), go from the prompt.
	if wantFences := []string{"json", "text", "go"}; !slices.Equal(fences, wantFences) {
		t.Errorf("code blocks: want %v, got %v", wantFences, fences)
	}
	if html != 4 {
		t.Errorf("want two <details> blocks (4 HTML blocks), got %d", html)
	}
	for _, want := range []string{"*… earlier context was compacted …*", "*Turn cancelled.*", "- Cost: $0.0193"} {
		if !strings.Contains(doc, want+"\n") {
			t.Errorf("want line %q in the export", want)
		}
	}
}

func TestOpenFenceFindsUnclosedBlocks(t *testing.T) {
	tests := map[string]string{
		"plain":                        "",
		"```go\nx\n```":                "",
		"```go\nx":                     "```",
		"~~~~\nx\n~~~":                 "~~~~",
		"````\n```\nx":                 "````",
		"``` not `a fence`\n":          "",
		"    ```\nindented code":       "",
		"```\nx\n```\n~~~\ny\n~~~~~\n": "",
	}
	for in, want := range tests {
		if got := openFence(in); got != want {
			t.Errorf("openFence(%q): want %q, got %q", in, want, got)
		}
	}
}

func TestExportNeverOverwritesAFileTheUserNamed(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := run(t, builtins(t, Deps{Models: catalog, WorkDir: dir}), newSession(), "/export notes.md")
	want := "Did not export the transcript: " + notes + " already exists. Name a new file: /export <file>."
	if res.Kind != Error || res.Text != want {
		t.Errorf("want the error %q, got %+v", want, res)
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
		t.Errorf("want notes.md untouched, got %q", b)
	}
}

func TestExportRefreshesTheSessionsOwnDefaultFile(t *testing.T) {
	dir := t.TempDir()
	for i := range 2 {
		res := run(t, builtins(t, Deps{Models: catalog, WorkDir: dir}), newSession(), "/export")
		if res.Kind != Success {
			t.Errorf("export %d: want success, got %+v", i+1, res)
		}
	}
}
