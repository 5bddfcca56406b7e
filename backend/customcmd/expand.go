package customcmd

import (
	"context"
	"strings"

	"github.com/tack-agent/tack/backend/promptargs"
)

// Expand is the command's prompt for the text typed after its name, its
// placeholders filled as the tool its file was written for fills them
// (see promptargs.Dialect). A prompt that takes no argument gets the typed text
// appended, so nothing the user typed is lost. Embedded shell commands
// (!`git status`) stay as they are written.
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
	f := promptargs.NewFiller(c.Dialect, input, c.ArgumentNames)
	var b strings.Builder
	rest := c.Body
	for shell != nil {
		start, end, ok := embedded(rest)
		if !ok {
			break
		}
		f.Fill(&b, rest[:start])
		var command strings.Builder
		f.Fill(&command, rest[start+2:end-1])
		out, err := shell(command.String())
		if err != nil {
			return "", err
		}
		b.WriteString(strings.TrimRight(out, "\n"))
		rest = rest[end:]
	}
	f.Fill(&b, rest)
	return f.Unused(b.String()), nil
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
