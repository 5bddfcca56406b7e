package commands

import (
	"fmt"
	"strings"
	"unicode"
)

// elsewhere says what tack offers in place of the commands of Claude Code
// and codex it has no command for, so their users' habits find their way.
var elsewhere = map[string]string{
	"cost":      "/status shows the session's tokens, cost and context",
	"usage":     "/status shows the session's tokens, cost and context",
	"stats":     "/status shows the session's tokens, cost and context",
	"memory":    "tack reads AGENTS.md and CLAUDE.md (yours in ~/.tack, ~/.claude or ~/.codex, the project's in its folders); edit them, or /init writes one",
	"agents":    "agent definitions are Markdown files in .claude/agents or ~/.claude/agents; the model runs them with its task tool",
	"hooks":     "hooks are read from ~/.tack/config.toml and Claude Code's settings.json files (README: Hooks)",
	"config":    "settings live in ~/.tack/config.toml; /model and /permissions change the session's",
	"settings":  "settings live in ~/.tack/config.toml; /model and /permissions change the session's",
	"approvals": "/permissions shows or sets the permission mode",
	"login":     "tack reads the key from DEEPSEEK_API_KEY, or from ~/.tack/credentials",
	"logout":    "tack reads the key from DEEPSEEK_API_KEY, or from ~/.tack/credentials",
	"todos":     "the plan strip above the editor shows the todo list",
	"rename":    "a session is titled from its first prompt; /resume lists them",
	"fork":      "start tack with --resume ID --fork-session to go on in a copy",
}

// UnknownMessage is what front doors show for a line that starts with a
// slash but names none of known: what tack offers instead of a command
// of Claude Code's or codex's, or the known command it was likely meant
// to be, and where the list is.
func UnknownMessage(line string, known []Command) string {
	word := line
	for i, r := range line {
		if unicode.IsSpace(r) {
			word = line[:i]
			break
		}
	}
	msg := fmt.Sprintf("Unknown command: %s", word)
	name := strings.ToLower(strings.TrimPrefix(word, "/"))
	if instead, ok := elsewhere[name]; ok {
		return msg + "; " + instead
	}
	if near := nearest(name, known); near != "" {
		return msg + "; did you mean /" + near + "? /help lists the commands"
	}
	return msg + "; /help lists the commands"
}

// nearest is the name of the command of known that name likely meant:
// the only one that starts with name, else the closest a typo away (a
// letter added, dropped, changed or two swapped; two such for names of
// five letters or more).
func nearest(name string, known []Command) string {
	var starts []string
	for _, c := range known {
		if len(name) >= 2 && strings.HasPrefix(c.Name, name) {
			starts = append(starts, c.Name)
		}
	}
	if len(starts) == 1 {
		return starts[0]
	}
	limit := 1
	if len([]rune(name)) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, c := range known {
		if d := editDistance(name, c.Name); d < bestDist || d == bestDist && c.Name < best {
			best, bestDist = c.Name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
