package frontmatter

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type command struct {
	Description  string `yaml:"description"`
	ArgumentHint Text   `yaml:"argument-hint"`
	Model        string `yaml:"model"`
	AllowedTools List   `yaml:"allowed-tools"`
	Invocable    *bool  `yaml:"user-invocable"`
}

func TestParseSplitsFrontMatterFromBody(t *testing.T) {
	src := "---\ndescription: Review the diff\nargument-hint: [pr-number]\nallowed-tools: Bash(git diff:*), Read\n---\nReview PR $1.\n"
	var c command
	doc, err := Parse([]byte(src), &c)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Body != "Review PR $1.\n" || doc.BodyLine != 6 || !doc.Present {
		t.Errorf("doc = %+v", doc)
	}
	if c.Description != "Review the diff" || c.ArgumentHint != "[pr-number]" || !reflect.DeepEqual(c.AllowedTools, List{"Bash(git diff:*)", "Read"}) {
		t.Errorf("decoded %+v", c)
	}
}

func TestParseWithoutFrontMatterIsAllBody(t *testing.T) {
	var c command
	doc, err := Parse([]byte("\ufeffJust a prompt.\r\nSecond line.\r\n"), &c)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Present || doc.Body != "Just a prompt.\nSecond line.\n" || doc.BodyLine != 1 || !reflect.DeepEqual(c, command{}) {
		t.Errorf("doc = %+v, c = %+v", doc, c)
	}
}

func TestParseReportsTheFileLineOfAYAMLError(t *testing.T) {
	src := "---\ndescription: fine\n\tmodel: tabbed\n---\nbody\n"
	var c command
	_, err := Parse([]byte(src), &c)
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if fe.Line != 3 {
		t.Errorf("line = %d (%v), want 3, the tab-indented line", fe.Line, err)
	}
}

// Agent descriptions with examples pasted in under them, unindented, are
// not YAML, yet Anthropic's plugin-dev guide tells plugin authors to write
// agents so, and its own agents are (anthropics/claude-code's
// plugins/plugin-dev/agents/, pr-review-toolkit's code-simplifier.md);
// agent collections (davila7/claude-code-templates) indent the examples
// but put ": " in them. The description is the lines up to the next key
// the file's reader knows, the examples' "user:" lines and all.
func TestParseReadsAValueGoingOnOverUnindentedLines(t *testing.T) {
	type agent struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		Model       string `yaml:"model"`
		Tools       List   `yaml:"tools"`
	}
	for _, tc := range []struct {
		src  string
		want agent
	}{
		{"name: maker\ndescription: Use this agent to make things. Examples:\n\n<example>\nContext: asked to make\nuser: \"Make it\"\n" +
			"assistant: \"I'll make it.\"\n</example>\n\ncolor: blue\nmodel: inherit\ntools: [\"Read\", \"Write\"]\n",
			agent{"maker", "Use this agent to make things. Examples:\n\n<example>\nContext: asked to make\nuser: \"Make it\"\n" +
				"assistant: \"I'll make it.\"\n</example>", "inherit", List{"Read", "Write"}}},
		{"name: tidy\ndescription: Use this agent to tidy code.\nContext: a feature was written.\nuser: \"Add it\"\n<function call omitted>\nmodel: opus\n",
			agent{"tidy", "Use this agent to tidy code.\nContext: a feature was written.\nuser: \"Add it\"\n<function call omitted>", "opus", nil}},
		{"name: api\ndescription: Designs APIs.\n\n  <example>\n  <commentary>It asks: which style?</commentary>\n  </example>\nmodel: sonnet\npermissionMode: acceptEdits\n",
			agent{"api", "Designs APIs.\n\n  <example>\n  <commentary>It asks: which style?</commentary>\n  </example>", "sonnet", nil}},
	} {
		var a agent
		if _, err := Parse([]byte("---\n"+tc.src+"---\nbody\n"), &a); err != nil {
			t.Errorf("%v for\n%s", err, tc.src)
			continue
		}
		if !reflect.DeepEqual(a, tc.want) {
			t.Errorf("decoded %#v\nwant    %#v", a, tc.want)
		}
	}
}

// Where no key of the reader's ends the value (a map takes any key), or a
// line is indented with a tab, the error says how to write the value.
func TestParseSaysHowToWriteAValueOverSeveralLines(t *testing.T) {
	src := "---\nname: x\ndescription: Use this agent when asked. Examples:\n\n<example>\nuser: \"Go\"\n</example>\n---\nbody\n"
	var m map[string]any
	_, err := Parse([]byte(src), &m)
	if err == nil || !strings.Contains(err.Error(), "written as a block (description: |") {
		t.Errorf("want an error saying to write the value as a block, got %v", err)
	}
	var c command
	if _, err := Parse([]byte("---\ndescription: Use it. Examples:\n\t<example>\n---\nbody\n"), &c); err == nil {
		t.Errorf("a tab-indented line was guessed at: %+v", c)
	}
}

func TestParseReportsTypeErrorsAtTheirLine(t *testing.T) {
	src := "---\ndescription: fine\nuser-invocable: [1, 2]\n---\n"
	var c command
	_, err := Parse([]byte(src), &c)
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 3 {
		t.Fatalf("err = %v, want a type error at line 3", err)
	}
}

func TestParseUnclosedFrontMatter(t *testing.T) {
	var c command
	_, err := Parse([]byte("---\ndescription: x\nno fence\n"), &c)
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 1 {
		t.Fatalf("err = %v, want an unclosed-front-matter error at line 1", err)
	}
}

func TestParseReadsUnquotedColonValuesAsPlainStrings(t *testing.T) {
	src := "---\nname: pdf\ndescription: Use when: the user asks for PDFs\nuser-invocable: false\n---\nbody"
	var c struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		Invocable   bool   `yaml:"user-invocable"`
	}
	c.Invocable = true
	if _, err := Parse([]byte(src), &c); err != nil {
		t.Fatal(err)
	}
	if c.Description != "Use when: the user asks for PDFs" || c.Name != "pdf" || c.Invocable {
		t.Errorf("decoded %+v", c)
	}
}

// Values that begin as YAML's aliases and flow mappings do, "tools: *" in
// davila7/claude-code-templates' agents (data-ai/monday-bug-fixer.md) and
// the "{{SKILL_NAME}}" placeholders of qdhenry/Claude-Command-Suite's
// .claude/commands/skills/templates, are not YAML; Claude Code quotes them
// and reads them as the strings written.
func TestParseReadsValuesStartingWithYAMLIndicatorsAsStrings(t *testing.T) {
	src := "---\ndescription: {{SKILL_DESCRIPTION}}\nallowed-tools: *\nmodel: @fast\n---\nbody\n"
	var c command
	if _, err := Parse([]byte(src), &c); err != nil {
		t.Fatal(err)
	}
	if c.Description != "{{SKILL_DESCRIPTION}}" || !reflect.DeepEqual(c.AllowedTools, List{"*"}) || c.Model != "@fast" {
		t.Errorf("decoded %+v", c)
	}
}

func TestListAcceptsSequencesAndCommaStrings(t *testing.T) {
	for _, src := range []string{
		"---\nallowed-tools: [Read, \"Bash(git add:*)\"]\n---\n",
		"---\nallowed-tools:\n  - Read\n  - Bash(git add:*)\n---\n",
		"---\nallowed-tools: Read, Bash(git add:*)\n---\n",
	} {
		var c command
		if _, err := Parse([]byte(src), &c); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if !reflect.DeepEqual(c.AllowedTools, List{"Read", "Bash(git add:*)"}) {
			t.Errorf("%q: allowed-tools = %q", src, c.AllowedTools)
		}
	}
}

func TestSplitListKeepsCommasInsideParenthesesAndBraces(t *testing.T) {
	got := splitList("Bash(a, b), Read,, Write ")
	if !reflect.DeepEqual(got, List{"Bash(a, b)", "Read", "Write"}) {
		t.Errorf("got %q", got)
	}
	// A Claude Code rule's paths: one glob with braces, then another.
	got = splitList("src/**/*.{ts,tsx}, lib/{a,b}/*.go")
	if !reflect.DeepEqual(got, List{"src/**/*.{ts,tsx}", "lib/{a,b}/*.go"}) {
		t.Errorf("got %q", got)
	}
}

func TestParseReadsClaudeStyleArgumentHints(t *testing.T) {
	src := "---\nargument-hint: [pr-number] [priority] [assignee]\ndescription: Review a PR\n---\nbody"
	var c command
	if _, err := Parse([]byte(src), &c); err != nil {
		t.Fatal(err)
	}
	if c.ArgumentHint != "[pr-number] [priority] [assignee]" || c.Description != "Review a PR" {
		t.Errorf("decoded %+v", c)
	}
}

// Claude Code's files name its own models, which no provider tack talks
// to serves: they mean the session's model. Other names stay.
func TestModelReadsClaudeCodesNamesAsTheSessionsModel(t *testing.T) {
	for value, want := range map[string]Model{
		"inherit": "", "default": "", "sonnet": "", "Opus": "", "haiku": "", "opusplan": "", "sonnet[1m]": "",
		"claude-3-5-haiku-20241022": "", "claude-sonnet-4-5": "", `""`: "", "Claude Sonnet 4.5": "", "Claude Sonnet 4.5 (copilot)": "",
		"deepseek-pro": "deepseek-pro", " qwen2.5-coder:32b ": "qwen2.5-coder:32b", "gpt-4o-mini": "gpt-4o-mini",
	} {
		var f struct {
			Model Model `yaml:"model"`
		}
		if _, err := Parse([]byte("---\nmodel: "+value+"\n---\nbody"), &f); err != nil {
			t.Fatalf("model: %s: %v", value, err)
		}
		if f.Model != want {
			t.Errorf("model: %s: want %q, got %q", value, want, f.Model)
		}
	}
	var f struct {
		Model Model `yaml:"model"`
	}
	if _, err := Parse([]byte("---\nmodel: [a, b]\n---\nbody"), &f); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a list for a model: want an error at line 2, got %v", err)
	}
}

func TestReadFileNamesTheFileInItsErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var c command
	ok := write("ok.md", "---\ndescription: Review\n---\nBody\n")
	if doc, err := ReadFile(ok, 1<<10, &c); err != nil || doc.Body != "Body\n" || c.Description != "Review" {
		t.Errorf("want the file read and parsed, got %+v %+v %v", doc, c, err)
	}
	for _, tc := range []struct{ path, want string }{
		{write("big.md", strings.Repeat("x", 2048)), "big.md: larger than 1 KB"},
		{write("bad.md", "---\ndescription: x\nno fence\n"), "bad.md line 1: "},
		{filepath.Join(dir, "missing.md"), "missing.md: no such file"},
	} {
		if _, err := ReadFile(tc.path, 1<<10, &c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error holding %q, got %v", tc.want, err)
		}
	}
}

func TestTextAndListRefuseMappingsAtTheirLine(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		want string
	}{
		{"---\ndescription: x\nargument-hint:\n  a: b\n---\n", 4, "expected text"},
		{"---\nallowed-tools:\n  read: yes\n---\n", 3, "expected a list or a comma-separated string"},
		{"---\nallowed-tools: [Read, [Write]]\n---\n", 2, "cannot unmarshal"},
	} {
		var c command
		_, err := Parse([]byte(tc.src), &c)
		var fe *Error
		if !errors.As(err, &fe) || fe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error at line %d with %q", tc.src, err, tc.line, tc.want)
		}
	}
}
