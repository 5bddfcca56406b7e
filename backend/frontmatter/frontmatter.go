// Package frontmatter splits a Markdown file into its YAML front matter and
// its body, the shape of Claude Code's custom commands, agent definitions
// and Agent Skills' SKILL.md files:
//
//	---
//	description: Review the staged changes
//	allowed-tools: Bash(git diff:*), Read
//	---
//	Review the diff below …
//
// Front matter is optional. Errors carry the line of the file they are
// about, so callers can report "file:line: problem" and skip the file.
package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Document is a Markdown file split at its front matter.
type Document struct {
	// Body is the text after the closing fence (the whole file when it has
	// no front matter), with a byte-order mark and CRLF line ends removed.
	Body string
	// BodyLine is the 1-based line of the file where Body starts.
	BodyLine int
	// Present says the file has front matter.
	Present bool
}

// Error is a problem with the front matter at Line of the file (1-based;
// 0 when the line cannot be told).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Parse splits src and decodes its front matter into v, a pointer to a
// struct with yaml tags (or a map). Fields the front matter does not name
// keep their values; a file without front matter leaves v alone. Unknown
// keys are not an error: the same files carry keys for other programs.
//
// Values that strict YAML refuses only because an unquoted value holds
// ": " (description: Use when: the tests fail) are read as the plain
// strings their authors meant, as other programs reading these files do;
// so is a value of v's that goes on over unindented lines (salvage).
func Parse(src []byte, v any) (Document, error) {
	doc, yml, ymlLine, err := split(src)
	if err != nil || !doc.Present || len(bytes.TrimSpace(yml)) == 0 {
		return doc, err
	}
	err = yaml.Unmarshal(yml, v)
	if err != nil {
		if fixed, ok := quoteColonValues(yml); ok && yaml.Unmarshal(fixed, v) == nil {
			return doc, nil
		}
		if salvage(yml, v) {
			return doc, nil
		}
		return doc, yamlError(err, ymlLine)
	}
	return doc, nil
}

// ReadFile reads the file at path, refusing one larger than maxSize
// bytes, and parses it as Parse does. Its errors name the file: "path:
// larger than 256 KB", "path line 3: problem", or the error reading it.
func ReadFile(path string, maxSize int64, v any) (Document, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Document{}, err
	}
	if info.Size() > maxSize {
		return Document{}, fmt.Errorf("%s: larger than %d KB", path, maxSize>>10)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return Document{}, err
	}
	doc, err := Parse(src, v)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) && fe.Line > 0 {
			return doc, fmt.Errorf("%s line %d: %s", path, fe.Line, fe.Msg)
		}
		return doc, fmt.Errorf("%s: %v", path, err)
	}
	return doc, nil
}

// split finds the front matter: a first line "---", then YAML up to a line
// "---" or "...". It returns the YAML and the file line it starts on.
func split(src []byte) (Document, []byte, int, error) {
	text := strings.TrimPrefix(string(src), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	if strings.TrimRight(lines[0], " \t\n") != "---" {
		return Document{Body: text, BodyLine: 1}, nil, 0, nil
	}
	for i := 1; i < len(lines); i++ {
		if fence := strings.TrimRight(lines[i], " \t\n"); fence == "---" || fence == "..." {
			yml := strings.Join(lines[1:i], "")
			body := strings.Join(lines[i+1:], "")
			return Document{Body: body, BodyLine: i + 2, Present: true}, []byte(yml), 2, nil
		}
	}
	return Document{}, nil, 0, &Error{Line: 1, Msg: "front matter opened with --- is never closed; end it with a line ---"}
}

// The patterns are compiled on first use, not at start-up.
var (
	yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
	// plainKey is a top-level "key: value" line whose value is unquoted.
	plainKey = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z0-9_-]+):[ \t]+([^"'\s].*)$`)
	})
)

// yamlError rewrites a YAML decoder error with file lines: the decoder
// counts from the first YAML line, which is line first of the file.
func yamlError(err error, first int) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	line := 0
	if m := yamlLine().FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = n + first - 1
		msg = strings.TrimLeft(msg[:m[0]]+msg[m[1]:], ": ")
	}
	if strings.Contains(msg, "mapping values are not allowed") || strings.Contains(msg, "could not find expected ':'") {
		msg += "; a value that goes on over several lines needs them indented under its key, " +
			"or written as a block (description: | and the text indented below)"
	}
	return &Error{Line: line, Msg: "front matter: " + msg}
}

// quoteColonValues quotes the unquoted top-level values that strict YAML
// refuses or misreads as a mapping (they hold ": ", or are not YAML on
// their own, like "[pr-number] [priority]", "*" or "{{NAME}}", which
// start as YAML's flow collections and aliases do), as Claude Code quotes
// them before it reads the front matter again, and reports whether it
// changed anything.
func quoteColonValues(yml []byte) ([]byte, bool) {
	lines := strings.Split(string(yml), "\n")
	changed := false
	for i, l := range lines {
		m := plainKey().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := strings.TrimRight(m[2], " \t")
		var probe any
		if !strings.Contains(v, ": ") && yaml.Unmarshal([]byte("k: "+v), &probe) == nil {
			continue
		}
		lines[i] = m[1] + ": " + strconv.Quote(v)
		changed = true
	}
	return []byte(strings.Join(lines, "\n")), changed
}

// Text is a front-matter string that may also be written as a YAML flow
// sequence, as Claude Code's argument-hint is: "argument-hint: [message]"
// reads "[message]".
type Text string

// UnmarshalYAML accepts a scalar, or a sequence shown in brackets.
func (t *Text) UnmarshalYAML(n *yaml.Node) error {
	scalar, items, err := scalarOrStrings(n, "text")
	if err != nil {
		return err
	}
	if items != nil {
		scalar = "[" + strings.Join(items, ", ") + "]"
	}
	*t = Text(scalar)
	return nil
}

// scalarOrStrings reads a node that is either a scalar or a sequence of
// strings: the scalar's value, or the items (never nil for a sequence).
func scalarOrStrings(n *yaml.Node, want string) (string, []string, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, nil, nil
	case yaml.SequenceNode:
		items := []string{}
		if err := n.Decode(&items); err != nil {
			return "", nil, err
		}
		return "", items, nil
	}
	return "", nil, fmt.Errorf("line %d: expected %s", n.Line, want)
}

// Model is a model key, as Claude Code's agent and command files write
// it: "" when the file names Claude Code's own choice, which here means
// the session's model. That is "inherit" or "default", an alias (sonnet,
// opus, haiku, opusplan, with or without a context suffix such as
// "sonnet[1m]"), or a Claude model id ("claude-3-5-haiku-20241022"): a
// provider tack talks to serves none of them, so a command written for
// Claude Code would otherwise fail its turn on the model's name. Any
// other name is kept as written.
type Model string

// UnmarshalYAML reads a scalar.
func (m *Model) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: expected a model name", n.Line)
	}
	*m = modelOf(n.Value)
	return nil
}

// UnmarshalJSON reads a string, as claude's --agents gives one.
func (m *Model) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return fmt.Errorf("expected a model name: %v", err)
	}
	*m = modelOf(name)
	return nil
}

func modelOf(name string) Model {
	name = strings.TrimSpace(name)
	if ClaudeModel(name) {
		return ""
	}
	return Model(name)
}

// ClaudeModel reports whether name is Claude Code's choice of model rather
// than a model tack's providers serve: "inherit" or "default", an alias
// (sonnet, opus, haiku, opusplan, with or without a context suffix such as
// "sonnet[1m]"), a Claude model id, or a Claude model's display name
// ("Claude Sonnet 4.5", as agent files copied from other tools write it).
func ClaudeModel(name string) bool {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(name)), "[")
	switch base {
	case "inherit", "default", "sonnet", "opus", "haiku", "opusplan":
		return true
	}
	return strings.HasPrefix(base, "claude-") || strings.HasPrefix(base, "claude ")
}

// List is a front-matter value that may be written as a YAML sequence or as
// one comma-separated string, as allowed-tools is in Claude Code's files:
// "Bash(git add:*), Read" and [Bash(git add:*), Read] are the same list.
type List []string

// UnmarshalYAML accepts a string or a sequence of strings.
func (l *List) UnmarshalYAML(n *yaml.Node) error {
	scalar, items, err := scalarOrStrings(n, "a list or a comma-separated string")
	if err != nil {
		return err
	}
	if items == nil {
		*l = splitList(scalar)
		return nil
	}
	out := List{}
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	*l = out
	return nil
}

// splitList splits at commas outside parentheses and braces, so Bash(a,
// b) and the glob src/**/*.{ts,tsx} stay one item.
func splitList(s string) List {
	out := List{}
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '{':
			depth++
		case ')', '}':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				if it := strings.TrimSpace(s[start:i]); it != "" {
					out = append(out, it)
				}
				start = i + 1
			}
		}
	}
	if it := strings.TrimSpace(s[start:]); it != "" {
		out = append(out, it)
	}
	return out
}
