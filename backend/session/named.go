package session

import (
	"fmt"
	"strings"
)

// Resolve is the log of the session term names: the one with that id,
// or else the one given that name (its title, letter case and spacing
// aside), looked for in workspace cwd and then in every workspace, as
// claude --resume NAME resumes a session /rename named. A name several
// sessions share is an error that lists their ids.
func Resolve(home, cwd, term string) (string, error) {
	path, err := Find(home, term)
	if err == nil {
		return path, nil
	}
	for _, all := range []bool{false, true} {
		list, lerr := listSessions(home, cwd, all, false)
		if lerr != nil {
			return "", lerr
		}
		named := Named(list, term)
		switch len(named) {
		case 0:
			continue
		case 1:
			return named[0].Path, nil
		}
		ids := make([]string, len(named))
		for i, s := range named {
			ids[i] = s.ID
		}
		return "", fmt.Errorf("%d sessions are named %q; resume one by its id: %s", len(named), term, strings.Join(ids, ", "))
	}
	return "", err
}

// Named are the sessions of list whose title is name, letter case and
// spacing aside.
func Named(list []Summary, name string) []Summary {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return nil
	}
	var named []Summary
	for _, s := range list {
		if s.Err == nil && strings.EqualFold(strings.Join(strings.Fields(s.Title), " "), name) {
			named = append(named, s)
		}
	}
	return named
}
