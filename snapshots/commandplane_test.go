package snapshots

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/details"
	"github.com/tack-agent/tack/overlays/help"
	"github.com/tack-agent/tack/overlays/modelpicker"
	"github.com/tack-agent/tack/overlays/sessionpicker"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// commandRuns are the command/run events the session logged, in order,
// and the command/done of each by id.
func (l *live) commandRuns() ([]session.CommandRun, map[string]session.CommandDone) {
	var runs []session.CommandRun
	done := map[string]session.CommandDone{}
	for _, e := range l.s.Agent.Events() {
		switch d := e.Data.(type) {
		case session.CommandRun:
			runs = append(runs, d)
		case session.CommandDone:
			done[d.ID] = d
		}
	}
	return runs, done
}

// waitRuns waits until the session logged n settled command runs.
func (l *live) waitRuns(t *testing.T, n int) ([]session.CommandRun, map[string]session.CommandDone) {
	t.Helper()
	var runs []session.CommandRun
	var done map[string]session.CommandDone
	testkit.Eventually(t, "settled command runs in the log", func() bool {
		runs, done = l.commandRuns()
		return len(runs) >= n && len(done) >= n
	}, l.tt.E.String)
	return runs, done
}

// TestEveryCommandRunIsLoggedBareFormsIncluded runs the bare commands the
// full screen answers with an overlay or the clipboard, and checks that
// each left a command/run and command/done pair in the session log.
func TestEveryCommandRunIsLoggedBareFormsIncluded(t *testing.T) {
	l := launchLive(t, "ask", llmtest.ReplyText("An answer to copy."))
	l.prompt("hello")
	l.waitIdle(t, "An answer to copy.")
	for _, c := range []struct{ line, shows string }{
		{"/help", help.Title}, {"/details", details.Title}, {"/model", modelpicker.Title}, {"/resume", sessionpicker.Title}, {"/copy", "OSC 52"},
	} {
		l.prompt(c.line)
		l.tt.WaitText(t, c.shows)
		if c.line != "/copy" {
			l.tt.Key(vt.KeyEscape)
			l.tt.WaitGone(t, c.shows)
		}
	}
	runs, done := l.waitRuns(t, 5)
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
		if d, ok := done[r.ID]; !ok || d.Outcome != "success" {
			t.Errorf("want /%s settled as success in the log, got %+v (found %v)", r.Name, d, ok)
		}
	}
	if got := strings.Join(names, " "); got != "help details model resume copy" {
		t.Fatalf("want a logged run of each bare command, got %q", got)
	}
}

// TestEnterRunsWhatIsTypedAndAFailedCommandKeepsTheDraft: completion only
// completes, so /Help and /stat are refused instead of corrected, and a
// refused or failed line stays in the editor to be fixed.
func TestEnterRunsWhatIsTypedAndAFailedCommandKeepsTheDraft(t *testing.T) {
	l := launchLive(t, "ask")
	for _, c := range []struct{ line, notice string }{
		{"/Help", "Unknown command: /Help"},
		{"/stat", "Unknown command: /stat; did you mean /status?"},
		{"/nosuch x", "Unknown command: /nosuch"},
		{"/exit now", "Usage: /exit (no arguments)"},
	} {
		l.prompt(c.line)
		l.tt.WaitText(t, c.notice)
		l.tt.WaitFor(t, "the draft "+c.line+" kept in the editor", func(s string) bool { return editorHolds(s, c.line) })
		l.tt.Ctrl('u') // clear the draft for the next line
		l.tt.WaitFor(t, "an empty editor", func(s string) bool { return !editorHolds(s, c.line) })
	}
	runs, done := l.commandRuns()
	if len(runs) != 1 || runs[0].Name != "exit" || done[runs[0].ID].Outcome != "error" {
		t.Fatalf("want only /exit run (and failed); unknown lines log nothing, got %+v %+v", runs, done)
	}
	if strings.Contains(l.tt.Text(), "Summarise") || strings.Contains(l.tt.Text(), "Session ") {
		t.Errorf("want /stat not corrected into /status, got:\n%s", l.tt.Text())
	}
}

// editorHolds reports whether the editor's row (the last one that starts
// with the prompt mark) shows draft.
func editorHolds(screen, draft string) bool {
	rows := strings.Split(screen, "\n")
	for i := len(rows) - 1; i >= 0; i-- {
		if row := strings.TrimSpace(rows[i]); strings.HasPrefix(row, ">") {
			return strings.Contains(row, draft)
		}
	}
	return false
}

// TestPlanRecordsItsMessageOnce: /plan <msg> sends msg as the user's
// message; the command/run event does not repeat it.
func TestPlanRecordsItsMessageOnce(t *testing.T) {
	l := launchLive(t, "ask", llmtest.ReplyText("Here is a plan."))
	l.prompt("/plan sketch the migration")
	l.waitIdle(t, "Here is a plan.")
	count := 0
	for _, e := range l.s.Agent.Events() {
		switch d := e.Data.(type) {
		case session.CommandRun:
			if strings.Contains(d.Input, "sketch the migration") {
				count++
			}
		case session.UserMessage:
			if strings.Contains(d.Text, "sketch the migration") {
				count++
			}
		}
	}
	if count != 1 {
		t.Fatalf("want the plan message recorded once in the log, got %d times", count)
	}
}
