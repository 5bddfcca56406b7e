package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/session"
)

func resumeCommand(sessions Sessions) Command {
	return Command{
		Name: "resume", Description: "List sessions, or switch to one",
		Input: Input{Hint: "[id, name or words of its title]"},
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			current := inv.Agent.SessionID()
			switch {
			case len(args) == 0:
				return resumeList(sessions, current, "")
			case sessions != nil && !isSession(sessions, args):
				// As claude --resume TERM: words that are no session's
				// id resume the session of that name, or search them.
				if id, ok := namedSession(sessions, strings.Join(args, " ")); ok {
					return resumeOne(sessions, current, id)
				}
				return resumeList(sessions, current, strings.Join(args, " "))
			case len(args) > 1:
				return Fail("Usage: /resume [id]")
			}
			return resumeOne(sessions, current, args[0])
		},
	}
}

// isSession reports whether args are one word, the id of a session of
// the listing (one it cannot read counts too, so resumeOne says why).
func isSession(sessions Sessions, args []string) bool {
	list, err := sessions.Sessions()
	return len(args) == 1 && (err != nil || slices.ContainsFunc(list, func(s session.Summary) bool { return s.ID == args[0] }))
}

// namedSession is the id of the one session of the listing named name.
func namedSession(sessions Sessions, name string) (string, bool) {
	list, err := sessions.Sessions()
	if err != nil {
		return "", false
	}
	if named := session.Named(list, name); len(named) == 1 {
		return named[0].ID, true
	}
	return "", false
}

// resumeList opens the picker searching for search ("" for all), with a
// text listing of the sessions it finds for front doors without one.
func resumeList(sessions Sessions, current, search string) Result {
	res := Result{Kind: Success, Action: ActionOpenResumePicker{Search: search}}
	if sessions == nil {
		res.Text = "Resume a session with /resume <id>."
		return res
	}
	list, err := sessions.Sessions()
	if err != nil {
		return Failf("Could not list sessions: %v", err)
	}
	q := strings.ToLower(search)
	var found []session.Summary // not in list's array, which is the listing's
	for _, s := range list {
		if strings.Contains(strings.ToLower(s.Title+"\n"+s.ID), q) {
			found = append(found, s)
		}
	}
	list = found
	switch {
	case len(list) == 0 && search != "":
		res.Text = fmt.Sprintf("No session of this workspace has %q in its title or id; /resume lists them all.", search)
		return res
	case len(list) == 0:
		res.Text = "No sessions in this workspace yet."
		return res
	}
	var b strings.Builder
	if search != "" {
		fmt.Fprintf(&b, "Sessions in this workspace with %q in their title or id, most recent first:\n", search)
	} else {
		b.WriteString("Sessions in this workspace, most recent first:\n")
	}
	for _, s := range list {
		title := s.Title
		if title == "" {
			title = "Untitled session"
		}
		fmt.Fprintf(&b, "  %s  %s  %s%s\n", s.ID, clock(s.LastActive), title, sessionNote(s, current))
	}
	b.WriteString("Resume one with /resume <id>.")
	res.Text = b.String()
	return res
}

func sessionNote(s session.Summary, current string) string {
	switch {
	case s.ID == current:
		return " (current)"
	case s.Err != nil:
		return " (unreadable)"
	case s.OpenPID != 0:
		return " (open in another process)"
	}
	return ""
}

// resumeOne checks id against the listing, when there is one, and asks the
// front door to switch.
func resumeOne(sessions Sessions, current, id string) Result {
	if id == current {
		return Failf("Session %s is already open.", id)
	}
	if sessions != nil {
		list, err := sessions.Sessions()
		if err != nil {
			return Failf("Could not list sessions: %v", err)
		}
		found := false
		for _, s := range list {
			if s.ID != id {
				continue
			}
			found = true
			if s.Err != nil {
				return Failf("Session %s cannot be resumed: %v", id, s.Err)
			}
		}
		if !found {
			return Failf("Unknown session: %s. Run /resume to list sessions.", id)
		}
	}
	return Result{Kind: Success, Text: fmt.Sprintf("Resuming session %s.", id), Action: ActionResume{ID: id}}
}
