package customcmd

import (
	"strconv"
	"strings"
)

// Expand is the command's prompt for the text typed after its name:
// $ARGUMENTS becomes all of it, $1…$9 its words (quotes group words, as
// in a shell), and $$ a dollar sign. A prompt that names no argument gets
// the typed text appended, so nothing the user typed is lost.
func (c Command) Expand(input string) string {
	input = strings.TrimSpace(input)
	args := splitArgs(input)
	used := false
	var b strings.Builder
	body := c.Body
	for i := 0; i < len(body); i++ {
		if body[i] != '$' || i+1 == len(body) {
			b.WriteByte(body[i])
			continue
		}
		next := body[i+1]
		switch {
		case strings.HasPrefix(body[i+1:], "ARGUMENTS"):
			b.WriteString(input)
			i += len("ARGUMENTS")
			used = true
		case next >= '1' && next <= '9':
			n, _ := strconv.Atoi(string(next))
			if n <= len(args) {
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
	out := b.String()
	if !used && input != "" {
		out += "\n\n" + input
	}
	return out
}

// splitArgs splits at blanks outside quotes; quotes are removed, and a
// backslash keeps the next character as it is.
func splitArgs(s string) []string {
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
