package customcmd

import (
	"context"
	"strings"
)

// Expand is the command's prompt for the text typed after its name:
// $ARGUMENTS becomes all of it, $1…$9 its words (quotes group words, as
// in a shell), and $$ a dollar sign. A prompt that names no argument gets
// the typed text appended, so nothing the user typed is lost. Embedded
// shell commands (!`git status`) stay as they are written.
func (c Command) Expand(input string) string {
	out, _ := c.expand(input, nil)
	return out
}

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
	args := SplitArgs(input)
	used := false
	// substitute writes text with its placeholders filled.
	substitute := func(b *strings.Builder, text string) {
		for i := 0; i < len(text); i++ {
			if text[i] != '$' || i+1 == len(text) {
				b.WriteByte(text[i])
				continue
			}
			next := text[i+1]
			switch {
			case strings.HasPrefix(text[i+1:], "ARGUMENTS"):
				b.WriteString(input)
				i += len("ARGUMENTS")
				used = true
			case next >= '1' && next <= '9':
				if n := int(next - '0'); n <= len(args) {
					b.WriteString(args[n-1])
				}
				i++
				used = true
			case next == '$':
				b.WriteByte('$')
				i++
			default:
				b.WriteByte('$')
			}
		}
	}
	var b strings.Builder
	rest := c.Body
	for shell != nil {
		start, end, ok := embedded(rest)
		if !ok {
			break
		}
		substitute(&b, rest[:start])
		var command strings.Builder
		substitute(&command, rest[start+2:end-1])
		out, err := shell(command.String())
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimRight(out, "\n"))
		rest = rest[end:]
	}
	substitute(&b, rest)
	out := b.String()
	if !used && input != "" {
		out += "\n\n" + input
	}
	return out, nil
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
