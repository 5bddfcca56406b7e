package search

import (
	"strings"

	"github.com/tack-agent/tack/backend/workspace"
)

// globList is grep's glob (or include) as Claude Code's Grep hands it to
// ripgrep: globs apart by white space, and by commas outside braces
// ("*.ts,*.tsx" is two globs, "*.{ts,tsx}" one), each a --glob of its own.
// A glob that starts with "!" leaves out the files it matches. As in
// ripgrep, the last glob that matches a file decides, and where any glob
// names files to keep, a file no glob matches is left out.
type globList struct {
	globs []listedGlob
	keeps bool // some glob names files to keep
}

type listedGlob struct {
	m    *pathMatcher
	keep bool
}

func newGlobList(s string) (*globList, error) {
	l := &globList{}
	for _, word := range strings.Fields(s) {
		parts := []string{word}
		if !strings.Contains(word, "{") || !strings.Contains(word, "}") {
			parts = strings.Split(word, ",")
		}
		for _, p := range parts {
			if p == "" {
				continue
			}
			glob, skip := strings.CutPrefix(p, "!")
			m, err := newPathMatcher(glob)
			if err != nil {
				return nil, err
			}
			l.globs = append(l.globs, listedGlob{m: m, keep: !skip})
			l.keeps = l.keeps || !skip
		}
	}
	return l, nil
}

func (l *globList) match(e workspace.Entry) bool {
	for i := len(l.globs) - 1; i >= 0; i-- {
		if l.globs[i].m.match(e) {
			return l.globs[i].keep
		}
	}
	return !l.keeps
}
