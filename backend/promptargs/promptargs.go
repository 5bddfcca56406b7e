// Package promptargs fills the placeholders of a prompt that a user
// invokes with arguments (a custom command, a skill) the way the tool its
// file was written for fills them.
package promptargs

import (
	"strconv"
	"strings"
)

// Dialect is whose placeholders a command's prompt is written in.
type Dialect int

const (
	// ClaudeDialect is Claude Code's (recorded from Claude Code 2.1.332
	// in testdata/claudecode): $ARGUMENTS is all of the input, $0, $1…
	// and $ARGUMENTS[0]… its words from the first (quotes group words,
	// as in a shell), and $NAME the word at NAME's place in the front
	// matter's arguments. A number with no word there stays as written, a
	// name gets nothing, and \$ is a dollar sign. A prompt that takes
	// none of them gets "ARGUMENTS: " and the input appended.
	ClaudeDialect Dialect = iota
	// CodexDialect is codex's prompts': $ARGUMENTS, $1…$9 from the first
	// word, and $$ for a dollar sign; a prompt without them gets the
	// input appended.
	CodexDialect
)

// Names are the names of Claude Code's arguments front matter, written as
// a list or as one string apart by spaces or commas.
func Names(items []string) []string {
	var out []string
	for _, item := range items {
		out = append(out, strings.Fields(item)...)
	}
	return out
}

// Filler fills the placeholders of a prompt for one input.
type Filler struct {
	dialect Dialect
	input   string
	args    []string
	names   []string
	used    bool // a placeholder took some of the input
}

// NewFiller fills placeholders of dialect for input (trimmed), its words
// named by names.
func NewFiller(dialect Dialect, input string, names []string) *Filler {
	input = strings.TrimSpace(input)
	return &Filler{dialect: dialect, input: input, args: SplitArgs(input), names: names}
}

// Fill writes text to b with its placeholders filled.
func (f *Filler) Fill(b *strings.Builder, text string) {
	if f.dialect == CodexDialect {
		f.codex(b, text)
		return
	}
	f.claude(b, text)
}

// Unused is the prompt filled, with the input appended where no
// placeholder took it, so nothing the user typed is lost.
func (f *Filler) Unused(prompt string) string {
	switch {
	case f.used || f.input == "":
		return prompt
	case f.dialect == CodexDialect:
		return prompt + "\n\n" + f.input
	}
	return prompt + "\n\nARGUMENTS: " + f.input
}

// Expand is text with its placeholders filled for input, and the input
// appended where none took it.
func Expand(dialect Dialect, text, input string, names []string) string {
	f := NewFiller(dialect, input, names)
	var b strings.Builder
	f.Fill(&b, text)
	return f.Unused(b.String())
}

// claude writes text to b with Claude Code's placeholders filled.
func (f *Filler) claude(b *strings.Builder, text string) {
	for i := 0; i < len(text); i++ {
		if text[i] == '\\' && strings.HasPrefix(text[i+1:], "$") {
			b.WriteByte('$')
			i++
			continue
		}
		if text[i] != '$' {
			b.WriteByte(text[i])
			continue
		}
		value, n, ok := f.claudePlaceholder(text[i+1:])
		if !ok {
			b.WriteByte('$')
			continue
		}
		b.WriteString(value)
		f.used = true
		i += n
	}
}

// claudePlaceholder reads the placeholder after a "$" at the start of s:
// its value and length, or false where s starts with none that has one.
func (f *Filler) claudePlaceholder(s string) (value string, n int, ok bool) {
	if rest, found := strings.CutPrefix(s, "ARGUMENTS"); found {
		if inner, indexed := strings.CutPrefix(rest, "["); indexed {
			if digits := leadingDigits(inner); digits != "" && strings.HasPrefix(inner[len(digits):], "]") {
				value, ok := f.word(digits)
				return value, len("ARGUMENTS[]") + len(digits), ok
			}
		}
		return f.input, len("ARGUMENTS"), true
	}
	if digits := leadingDigits(s); digits != "" {
		if len(s) > len(digits) && isWordByte(s[len(digits)]) {
			return "", 0, false
		}
		value, ok := f.word(digits)
		return value, len(digits), ok
	}
	for i, name := range f.names {
		if strings.HasPrefix(s, name) && (len(s) == len(name) || !isWordByte(s[len(name)]) && s[len(name)] != '-') {
			if i < len(f.args) {
				return f.args[i], len(name), true
			}
			return "", len(name), true
		}
	}
	return "", 0, false
}

// word is the argument at the 0-based index digits, if there is one.
func (f *Filler) word(digits string) (string, bool) {
	i, err := strconv.Atoi(digits)
	if err != nil || i >= len(f.args) {
		return "", false
	}
	return f.args[i], true
}

// codex writes text to b with codex's placeholders filled.
func (f *Filler) codex(b *strings.Builder, text string) {
	for i := 0; i < len(text); i++ {
		if text[i] != '$' || i+1 == len(text) {
			b.WriteByte(text[i])
			continue
		}
		next := text[i+1]
		switch {
		case strings.HasPrefix(text[i+1:], "ARGUMENTS"):
			b.WriteString(f.input)
			i += len("ARGUMENTS")
			f.used = true
		case next >= '1' && next <= '9':
			if n := int(next - '0'); n <= len(f.args) {
				b.WriteString(f.args[n-1])
			}
			i++
			f.used = true
		case next == '$':
			b.WriteByte('$')
			i++
		default:
			b.WriteByte('$')
		}
	}
}

func leadingDigits(s string) string {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n]
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// SplitArgs splits typed arguments as a shell splits simple words: at
// blanks outside quotes; quotes are removed, and a backslash keeps the
// next character as it is. Commands that take their arguments by
// position ($1, an MCP prompt's) split them with it.
func SplitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	quote, have := rune(0), false
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, have = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, have = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
