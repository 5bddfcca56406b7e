package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxNameRunes bounds a session's name: /resume shows it on one row.
const maxNameRunes = 100

// renameCommand is /rename NAME, Claude Code's command: it names the
// session, which /resume lists by the name and tack --resume finds by its
// words. Titles tack makes later do not replace it.
func renameCommand() Command {
	return Command{
		Name: "rename", Description: "Name the session; /resume lists it by the name",
		Input: Input{Hint: "<name>"}, WhileRunning: true,
		Handler: withSession(func(_ context.Context, inv Invocation, sa SessionAgent) Result {
			name := strings.Join(strings.Fields(inv.RawInput), " ")
			switch {
			case name == "":
				current := "The session has no name yet"
				if n := sa.Projection().Name(); n != "" {
					current = fmt.Sprintf("The session is named %q", n)
				}
				return Failf("%s. Give one: /rename NAME", current)
			case utf8.RuneCountInString(name) > maxNameRunes:
				return Failf("That name is %d characters long; give one of at most %d.", utf8.RuneCountInString(name), maxNameRunes)
			}
			if err := sa.Rename(name); err != nil {
				return Failf("Could not name the session: %v", err)
			}
			return Succeed(fmt.Sprintf("Session named %q. Resume it later with: tack --resume %q", name, name))
		}),
	}
}
