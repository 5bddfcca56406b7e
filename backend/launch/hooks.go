package launch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/trust"
)

// ProjectSettingsFile is a project's own settings, whose hooks run once
// the user approves them.
var ProjectSettingsFile = filepath.Join(".tack", "settings.toml")

// newHooks makes the session's hook runner from the config file's hooks
// and the project's .tack/settings.toml, or nil when there are none. It
// returns the tables it skipped.
func (s *Session) newHooks(o Options, cfg config.File) (*hooks.Runner, []string) {
	list, problems := hooks.FromConfig(cfg.Hooks, config.Path(o.Home), false)
	projPath := filepath.Join(s.Cwd, ProjectSettingsFile)
	proj, err := config.LoadProjectSettings(projPath)
	if err != nil {
		problems = append(problems, err.Error()+"; its hooks are skipped")
	}
	problems = append(problems, proj.Problems...)
	projHooks, projProblems := hooks.FromConfig(proj.Hooks, projPath, true)
	problems = append(problems, projProblems...)
	list = append(list, projHooks...)
	if len(list) == 0 {
		return nil, problems
	}
	content, _ := os.ReadFile(projPath)
	store := trust.Open(o.Home)
	environ := append(bash.WithoutProviderSecrets(o.Environ),
		"TACK_PROJECT_DIR="+s.Cwd, "CLAUDE_PROJECT_DIR="+s.Cwd, "TACK_SESSION_ID="+s.Log.Header().ID)
	r := hooks.NewRunner(hooks.Options{
		Hooks: list, SessionID: s.Log.Header().ID, LogPath: s.Log.Path(), Cwd: s.Cwd, Environ: environ,
		Mode: func() string { return s.Policy.Label() },
		Record: func(d session.Data) error {
			_, err := s.Agent.Record(d)
			return err
		},
		Approve: func(ctx context.Context) (bool, error) {
			return s.approveProject(ctx, store, content, ProjectSettingsFile, hooksApprovalText(projHooks))
		},
	})
	s.Broker.Observe(func(req *interact.Request) { r.Notify(requestMessage(req)) })
	return r, problems
}

// requestMessage is what notification hooks are told a request is about.
func requestMessage(req *interact.Request) string {
	if req.Approval != nil {
		return "tack needs your permission to use " + req.Approval.Tool
	}
	if len(req.Questions) > 0 {
		return "tack has a question for you: " + req.Questions[0].Question
	}
	return "tack needs your attention"
}

func hooksApprovalText(hs []hooks.Hook) approvalText {
	var detail []string
	for _, h := range hs {
		detail = append(detail, string(h.Event)+": "+h.Command)
	}
	return approvalText{
		header:   "Project hooks",
		question: fmt.Sprintf("This project's %s runs %d hook command(s). Allow them?", ProjectSettingsFile, len(hs)),
		detail:   strings.Join(detail, "\n"),
		denied:   fmt.Sprintf("The project's hooks in %s do not run in this session.", ProjectSettingsFile),
	}
}

// agentHooks is r as the agent's hooks; a nil runner is no hooks (not a
// non-nil interface holding nil).
func agentHooks(r *hooks.Runner) agent.Hooks {
	if r == nil {
		return nil
	}
	return r
}
