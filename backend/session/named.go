package session

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A session's names: the title made of its first prompt, the model's
// title, the name the user gives it (/rename), which the others never
// replace, and the sessions found by a name.

// maxPromptTitle is the length, in runes, of a title made from a prompt.
const maxPromptTitle = 50

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

// applyTitle folds a title in: the latest replaces the one before, but
// for the user's name (/rename), which only another of the user's does.
func (p *Projection) applyTitle(d Title) {
	if p.userNamed && d.Source != TitleUser {
		return
	}
	p.title = strings.Clone(d.Title)
	p.named = p.named || d.Source == TitleModel || d.Source == TitleUser
	p.userNamed = p.userNamed || d.Source == TitleUser
}

// Title is the latest session/title, else the first prompt cut to one line
// of about 50 characters, else "".
func (p *Projection) Title() string {
	if p.title != "" {
		return p.title
	}
	if p.olderPrompts != nil {
		return promptTitle(p.olderPrompts.first)
	}
	if len(p.prompts) > 0 {
		return promptTitle(p.prompts[0])
	}
	return ""
}

// Name is the name the user gave the session (/rename) or else the title
// the model gave it, "" before either: not the title made from the first
// prompt.
func (p *Projection) Name() string {
	if !p.named {
		return ""
	}
	return p.title
}

// Named reports whether the session has a name: the user's or the
// model's title.
func (p *Projection) Named() bool { return p.named }

// UserNamed reports whether the user named the session (/rename).
func (p *Projection) UserNamed() bool { return p.userNamed }

// promptTitle cuts a prompt to its first non-blank line, spaces collapsed,
// at most maxPromptTitle runes with an ellipsis when cut.
func promptTitle(text string) string {
	var line string
	for l := range strings.Lines(text) {
		if line = strings.Join(strings.Fields(l), " "); line != "" {
			break
		}
	}
	if utf8.RuneCountInString(line) <= maxPromptTitle {
		return line
	}
	runes := []rune(line)
	return strings.TrimRight(string(runes[:maxPromptTitle-1]), " ") + "…"
}
