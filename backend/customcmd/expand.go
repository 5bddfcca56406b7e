package customcmd

import (
	"context"
	"strconv"
	"strings"
)

// Expand is the command's prompt for the text typed after its name, its
// placeholders filled as the tool its file was written for fills them
// (see Dialect). A prompt that takes no argument gets the typed text
// appended, so nothing the user typed is lost. Embedded shell commands
// (!`git status`) stay as they are written.
func (c Command) Expand(input string) string {
	out, _ := c.expand(input, nil)
	return out
}

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

// Shell runs a command a prompt embeds and returns what it printed; an
// error is a command that was not run, saying why as a predicate ("was
// refused (permission mode ask)"). allowed is the custom command's
// allowed-tools.
type Shell func(ctx context.Context, command string, allowed []string) (string, error)

// expand is Expand, with each !`command` of the prompt, as Claude Code
// writes one, replaced by what shell printed for it when shell is set.
// The arguments fill placeholders inside the command too; what the
// command printed is inserted as it is, never read for placeholders.
func (c Command) expand(input string, shell func(command string) (string, error)) (string, error) {
	input = strings.TrimSpace(input)
	f := filler{input: input, args: SplitArgs(input), names: c.ArgumentNames}
	fill := f.claude
	if c.Dialect == CodexDialect {
		fill = f.codex
	}
	var b strings.Builder
	rest := c.Body
	for shell != nil {
		start, end, ok := embedded(rest)
		if !ok {
			break
		}
		fill(&b, rest[:start])
		var command strings.Builder
		fill(&command, rest[start+2:end-1])
		out, err := shell(command.String())
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimRight(out, "\n"))
		rest = rest[end:]
	}
	fill(&b, rest)
	out := b.String()
	switch {
	case f.used || input == "":
	case c.Dialect == CodexDialect:
		out += "\n\n" + input
	default:
		out += "\n\nARGUMENTS: " + input
	}
	return out, nil
}

// filler fills the placeholders of a prompt for one input; used says a
// placeholder took some of it.
type filler struct {
	input string
	args  []string
	names []string
	used  bool
}

// claude writes text to b with Claude Code's placeholders filled.
func (f *filler) claude(b *strings.Builder, text string) {
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
func (f *filler) claudePlaceholder(s string) (value string, n int, ok bool) {
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
func (f *filler) word(digits string) (string, bool) {
	i, err := strconv.Atoi(digits)
	if err != nil || i >= len(f.args) {
		return "", false
	}
	return f.args[i], true
}

// codex writes text to b with codex's placeholders filled.
func (f *filler) codex(b *strings.Builder, text string) {
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

// embedded finds the first !`command` in text: where its "!" starts and
// where its closing backquote ends. A command is one line and not empty.
func embedded(text string) (start, end int, ok bool) {
	for from := 0; ; {
		i := strings.Index(text[from:], "!`")
		if i < 0 {
			return 0, 0, false
		}
		start = from + i
		j := strings.IndexAny(text[start+2:], "`\n")
		if j > 0 && text[start+2+j] == '`' {
			return start, start + 2 + j + 1, true
		}
		from = start + 2
	}
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
