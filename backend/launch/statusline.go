package launch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/workspace"
)

// ErrNoStatusLine says no settings file the session reads sets a
// statusLine: there is nothing to run.
var ErrNoStatusLine = errors.New("no statusLine is set in ~/.claude/settings.json or --settings")

// statusLine runs the session's status line command; nil when there is
// none.
type statusLine struct {
	line    hooks.StatusLine
	environ []string
	// agent names the agent definition the session runs as; "" for none.
	agent string
	// fill completes an input with what the session knows of itself.
	fill func(*hooks.StatusInput)
}

// settingsStatusLine is the status line command of the settings files, by
// Claude Code's order of precedence, and why those passed over were: a
// project's is not run, as its command would run outside the sandbox at
// every turn without the user's approval, and one that is not a command
// cannot be.
func settingsStatusLine(files []claudeFile) (*hooks.StatusLine, []string) {
	var problems []string
	for _, f := range byPrecedence(files) {
		sl := f.settings.StatusLine
		switch {
		case sl == nil:
			continue
		case f.project:
			problems = append(problems, fmt.Sprintf("%s: its statusLine is not run, as a project's command would run outside the sandbox "+
				"at every turn; copy it to ~/.claude/settings.json to run it", f.label))
		case sl.Type != "command" && sl.Type != "":
			problems = append(problems, fmt.Sprintf("%s: statusLine of type %q is not one tack runs; give \"type\": \"command\"", f.label, sl.Type))
		case strings.TrimSpace(sl.Command) == "":
			problems = append(problems, fmt.Sprintf("%s: statusLine has no command; give the script to run as \"command\"", f.label))
		default:
			return &hooks.StatusLine{Command: sl.Command, Padding: sl.Padding, Source: f.label,
				Every: time.Duration(max(sl.RefreshInterval, 0)) * time.Second}, problems
		}
	}
	return nil, problems
}

// newStatusLine is the session's status line over the settings files,
// run with o's environment less the providers' keys, and the problems of
// the files passed over; none when the user's disableAllHooks says so.
func (s *Session) newStatusLine(o Options, files []claudeFile) (*statusLine, []string) {
	if all, _ := hooksDisabled(files); all {
		return nil, nil
	}
	line, problems := settingsStatusLine(files)
	if line == nil {
		return nil, problems
	}
	sl := &statusLine{
		line:    *line,
		environ: append(bash.WithoutProviderSecrets(o.Environ), "TACK_PROJECT_DIR="+s.Cwd, "CLAUDE_PROJECT_DIR="+s.Cwd),
	}
	sl.fill = func(in *hooks.StatusInput) {
		in.SessionID, in.TranscriptPath, in.Cwd, in.Version = s.Log.Header().ID, s.transcript.path(), s.Cwd, o.Version
		in.PromptID, in.OutputStyle.Name = s.transcript.promptID(), s.OutputStyle
		in.Workspace = hooks.StatusDirs{CurrentDir: s.Cwd, ProjectDir: s.Cwd, AddedDirs: s.Policy.Dirs(),
			GitWorktree: workspace.WorktreeName(s.Cwd)}
		if r, ok := workspace.Origin(s.Cwd); ok {
			in.Workspace.Repo = &hooks.StatusRepo{Host: r.Host, Owner: r.Owner, Name: r.Name}
		}
		if sl.agent != "" {
			in.Agent = &hooks.StatusAgent{Name: sl.agent}
		}
	}
	return sl, problems
}

// runAs names agent as the one the session runs as, once the flags and
// settings have chosen it (a session without a status line has none to
// tell).
func (l *statusLine) runAs(agent string) {
	if l != nil {
		l.agent = agent
	}
}

// StatusLine runs the status line command of the user's Claude Code
// settings with in, the figures the front door shows (the session's own
// fields are filled here), and returns the rows it printed and when to
// run it again unasked; ErrNoStatusLine when no settings file sets one.
func (s *Session) StatusLine(ctx context.Context, in hooks.StatusInput) (hooks.StatusRun, error) {
	if s.statusLine == nil {
		return hooks.StatusRun{}, ErrNoStatusLine
	}
	s.statusLine.fill(&in)
	return s.statusLine.line.Run(ctx, s.Cwd, s.statusLine.environ, in)
}
