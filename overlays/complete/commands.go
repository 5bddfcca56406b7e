package complete

import (
	"slices"
	"strings"

	"github.com/sahilm/fuzzy"
)

// Command is a slash command as the menu and help list it.
type Command struct {
	Name        string // without the slash
	Hint        string // argument hint, e.g. "[provider/]model"
	Description string
}

// MatchCommands filters cmds by query (the text after "/"): names that
// start with it first, then fuzzy matches in fuzzy order; within the
// prefix matches, and for an empty query, the most used first (uses may be
// nil), then by name.
func MatchCommands(cmds []Command, query string, uses map[string]int) []Command {
	q := strings.ToLower(query)
	var prefix, rest []Command
	for _, c := range cmds {
		if strings.HasPrefix(strings.ToLower(c.Name), q) {
			prefix = append(prefix, c)
		} else {
			rest = append(rest, c)
		}
	}
	slices.SortStableFunc(prefix, func(a, b Command) int {
		if ua, ub := uses[a.Name], uses[b.Name]; ua != ub {
			return ub - ua
		}
		return strings.Compare(a.Name, b.Name)
	})
	if q == "" || len(rest) == 0 {
		return prefix
	}
	names := make([]string, len(rest))
	for i, c := range rest {
		names[i] = strings.ToLower(c.Name)
	}
	for _, m := range fuzzy.Find(q, names) {
		prefix = append(prefix, rest[m.Index])
	}
	return prefix
}
