package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tack-agent/tack/backend/tools"
)

// byDisallowedTools names, in approval/decided, a call that print mode's
// --disallowed-tools refused.
const byDisallowedTools = "disallowed-tools"

// turnDenies returns the entry of the turn's disallowed tools that refuses
// this call, or "": an entry naming its tool (Claude Code's names map to
// tack's), or, for a command, a Bash(prefix:*) or Bash(command) entry that
// matches one of the simple commands in it, those in substitutions
// included. A line whose programs the parser cannot all name (one that
// does not parse, or runs "$cmd") is refused by any Bash entry, since it
// could run the refused one. Refusing is a convenience for scripts, not a
// boundary: the sandbox is that.
func turnDenies(disallowed []string, tool, command string) string {
	for _, entry := range disallowed {
		name, arg, hasArg := toolEntry(entry)
		if name != tool {
			continue
		}
		if !hasArg {
			return entry
		}
		if arg == "" || runsPrefix(command, strings.Fields(arg)) {
			return entry
		}
	}
	return ""
}

// runsPrefix reports whether some simple command of line may start with
// prefix: it does, or its program is not a literal word.
func runsPrefix(line string, prefix []string) bool {
	f, ok := parse(line)
	if !ok {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || found || len(call.Args) == 0 {
			return !found
		}
		var words []string
		for _, w := range call.Args {
			lit := w.Lit()
			if lit == "" {
				break
			}
			words = append(words, lit)
		}
		switch {
		case len(words) == 0:
			found = true // the program is computed: it could be the refused one
		case len(words) >= len(prefix):
			words[0] = path.Base(words[0]) // /bin/rm is rm
			found = equal(prefix, words[:len(prefix)])
		}
		return !found
	})
	return found
}

// disallowedFor is the call's disallowed tools, from its environment.
func disallowedFor(call tools.Call) []string {
	if call.Env == nil {
		return nil
	}
	return call.Env.Disallowed
}
