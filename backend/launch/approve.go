package launch

import (
	"context"
	"errors"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/trust"
)

// approvalText is what the user is asked about a project file that runs
// programs: details are what it would run or allow, a line each.
type approvalText struct {
	header, question string
	details          []string
	// denied is the notice when the file's programs do not run.
	denied string
}

// Answers to a project approval question.
const (
	approveRemember = "Yes, and remember for this project"
	approveSession  = "Yes, for this session"
	approveNo       = "No"
)

// approveProject asks whether a project file that starts programs (its
// .mcp.json, its hooks) may do so, unless the user approved this content
// before. "Remember" keeps the approval under $TACK_HOME, so an unchanged
// file is not asked about again. With nobody to answer (print mode) the
// answer is no, and the user is told how to approve.
func (s *Session) approveProject(ctx context.Context, store *trust.Store, content []byte, file string, t approvalText) (bool, error) {
	digest := trust.Digest(content)
	if store.Trusted(s.Cwd, file, digest) {
		return true, nil
	}
	answers, err := s.Broker.Ask(ctx, []interact.Question{{
		ID: "approve-" + file, Header: t.header, Question: t.question, Detail: verbatim(t.details),
		Options: []interact.Option{
			{Label: approveRemember},
			{Label: approveSession},
			{Label: approveNo},
		},
	}})
	if err != nil {
		if ctx.Err() == nil {
			msg := t.denied
			if errors.Is(err, interact.ErrNoAnswerer) || errors.Is(err, interact.ErrStdinClosed) {
				msg += " Nobody could approve them here; run tack in a terminal in this project once to approve them."
			}
			s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: msg})
		}
		return false, err
	}
	choice := ""
	if len(answers) > 0 && len(answers[0].Selected) > 0 {
		choice = answers[0].Selected[0]
	}
	switch choice {
	case approveRemember:
		if err := store.Trust(s.Cwd, file, digest); err != nil {
			s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: "Approved for this session only: " + err.Error()})
		}
		return true, nil
	case approveSession:
		return true, nil
	}
	s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: t.denied})
	return false, nil
}

// verbatim is lines as a Markdown code block, which the question shows
// line for line and as written; the fence outgrows any run of backquotes
// in them.
func verbatim(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	text := strings.Join(lines, "\n")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + "\n" + text + "\n" + fence
}
