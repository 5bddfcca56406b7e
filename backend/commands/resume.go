package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/session"
)

func resumeCommand(sessions Sessions) Command {
	return Command{
		Name: "resume", Description: "List sessions, or switch to one",
		Input: Input{Hint: "[id]"},
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			if len(args) > 1 {
				return Fail("Usage: /resume [id]")
			}
			current := inv.Agent.SessionID()
			if len(args) == 0 {
				return resumeList(sessions, current)
			}
			return resumeOne(sessions, current, args[0])
		},
	}
}

// resumeList opens the picker, with a text listing for front doors
// without one.
func resumeList(sessions Sessions, current string) Result {
	res := Result{Kind: Success, Action: ActionOpenResumePicker{}}
	if sessions == nil {
		res.Text = "Resume a session with /resume <id>."
		return res
	}
	list, err := sessions.Sessions()
	if err != nil {
		return Failf("Could not list sessions: %v", err)
	}
	if len(list) == 0 {
		res.Text = "No sessions in this workspace yet."
		return res
	}
	var b strings.Builder
	b.WriteString("Sessions in this workspace, most recent first:\n")
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
