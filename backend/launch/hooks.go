package launch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/plugin"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/trust"
)

// ProjectSettingsFile is a project's own settings, whose hooks run once
// the user approves them.
var ProjectSettingsFile = filepath.Join(".tack", "settings.toml")

// newHooks makes the session's hook runner, or nil when there are none,
// and returns the tables and files it skipped. The user's hooks come from
// the config file, ~/.claude/settings.json and the plugins it turns on;
// the project's, which run once the user approves them, from
// .tack/settings.toml, Claude Code's .claude/settings.json and
// .claude/settings.local.json and the plugins they turn on.
func (s *Session) newHooks(o Options, cfg config.File, claude []claudeFile) (*hooks.Runner, []string) {
	list, problems := hooks.FromConfig(cfg.Hooks, config.Path(o.Home), false)
	projPath := filepath.Join(s.Cwd, ProjectSettingsFile)
	proj, err := config.LoadProjectSettings(projPath)
	if err != nil {
		problems = append(problems, err.Error()+"; its hooks are skipped")
	}
	problems = append(problems, proj.Problems...)
	projHooks, projProblems := hooks.FromConfig(proj.Hooks, projPath, true)
	problems = append(problems, projProblems...)
	var files []string // the project's files that hold hooks, or turn on plugins that do
	if len(projHooks) > 0 {
		files = append(files, projPath)
	}
	c := s.claudeHooks(claude)
	list, projHooks = append(list, c.user...), append(projHooks, c.project...)
	files, problems = append(files, c.files...), append(problems, c.problems...)
	list = append(list, projHooks...)
	if len(list) == 0 && !o.sdkDriven() {
		return nil, problems
	}
	content, names := projectContent(s.Cwd, files)
	store := trust.Open(o.Home)
	environ := append(bash.WithoutProviderSecrets(o.Environ),
		"TACK_PROJECT_DIR="+s.Cwd, "CLAUDE_PROJECT_DIR="+s.Cwd, "TACK_SESSION_ID="+s.Log.Header().ID)
	r := hooks.NewRunner(hooks.Options{
		Hooks: list, SessionID: s.Log.Header().ID, Transcript: s.transcript.path, Cwd: s.Cwd, Environ: environ, Source: startSource(s.Resumed),
		PromptID: s.transcript.promptID, TurnPromptID: s.transcript.t.TurnPromptID,
		IdleAfter: idleAfter(o),
		Mode:      func() string { return s.Policy.ClaudeName() },
		// The agent is made after its hooks.
		Model:     func() (string, llm.Effort) { return s.Agent.Model() },
		AgentType: o.Agent,
		Record: func(d session.Data) error {
			_, err := s.Agent.Record(d)
			return err
		},
		Approve: func(ctx context.Context) (bool, error) {
			return s.approveProject(ctx, store, content, ProjectSettingsFile, hooksApprovalText(names, projHooks))
		},
		Judge:  s.judge,
		Verify: s.children.verify,
		Inject: func(text string) { s.Agent.Inject(agent.HookOrigin, text) },
		Wake:   s.wake(o.Unattended),
	})
	// Claude Code tells of its questions as of its approvals, as a
	// permission prompt, and of an MCP server's form as a dialog of its own.
	s.Broker.Observe(func(req *interact.Request) { r.Notify(requestMessage(req)) })
	s.Policy.SetDecider(func(ctx context.Context, a interact.Approval) (bool, string, bool) {
		return r.DecidePermission(ctx, agent.ToolUse{ID: a.CallID, Name: a.Tool, Args: a.Input})
	})
	return r, problems
}

// claudeSet is the hooks of Claude Code's files: the user's, the
// project's, the project's files that hold or bring some, and the
// problems met.
type claudeSet struct {
	user, project   []hooks.Hook
	files, problems []string
}

// claudeHooks are the hooks of Claude Code's settings files and of the
// plugins they turn on, less those disableAllHooks turns off.
func (s *Session) claudeHooks(claude []claudeFile) claudeSet {
	var c claudeSet
	all, project := hooksDisabled(claude)
	for _, f := range claude {
		if all || f.project && project {
			continue
		}
		hs, probs := hooks.FromConfig(f.settings.Hooks, f.path, f.project)
		c.problems = append(c.problems, probs...)
		if !f.project {
			c.user = append(c.user, hs...)
			continue
		}
		c.project = append(c.project, hs...)
		if len(hs) > 0 || slices.ContainsFunc(s.plugins, func(p plugin.Plugin) bool { return p.EnabledBy == f.path && len(p.Hooks) > 0 }) {
			c.files = append(c.files, f.path)
		}
	}
	fromPlugins, pluginProblems := pluginHooks(s.plugins)
	c.problems = append(c.problems, pluginProblems...)
	for _, h := range fromPlugins {
		switch {
		case all || h.Project && project:
		case h.Project:
			c.project = append(c.project, h)
		default:
			c.user = append(c.user, h)
		}
	}
	return c
}

// hooksDisabled reads the settings' disableAllHooks, by Claude Code's
// order of the files: all says the user's own files (or --settings) turn
// off every hook of Claude Code's files and plugins, and the status
// line; project says a project's turns off the project's. A project may
// not turn off the user's hooks, which may be guarding it.
func hooksDisabled(files []claudeFile) (all, project bool) {
	var user, proj *bool
	for _, f := range byPrecedence(files) {
		switch v := f.settings.DisableAllHooks; {
		case v == nil:
		case f.project && proj == nil:
			proj = v
		case !f.project && user == nil:
			user = v
		}
	}
	all = user != nil && *user
	return all, all || proj != nil && *proj
}

// judgeMaxTokens bounds a prompt hook's answer, a short JSON object.
const judgeMaxTokens = 1024

// judge asks a prompt hook's question of model, or of the session's
// model when it is "", without thinking: the answer is a verdict, and
// Claude Code asks its fastest model.
func (s *Session) judge(ctx context.Context, model, system, user string) (string, error) {
	if model == "" {
		model, _ = s.Agent.Model()
	}
	answer, err := s.Agent.Aside(ctx, llm.Request{
		Model: model, Effort: llm.EffortOff, MaxTokens: judgeMaxTokens, Purpose: llm.PurposeHook, SessionID: s.Agent.SessionID(),
		Messages: []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user}},
	})
	return answer.Content, err
}

// wake is how an asyncRewake hook's message wakes the model: it joins
// the running turn as steering does, or starts a turn. Print mode
// (unattended) ends with its turn, and ends the hooks still running
// then, as claude -p does; a message that comes once the turn can no
// longer take it is kept as context (a later prompt of an Agent SDK's,
// or the session resumed, reads it) rather than start a turn that
// nobody follows.
func (s *Session) wake(unattended bool) func(string) {
	return func(text string) {
		if !unattended {
			s.Agent.Steer(text)
			return
		}
		if !s.Agent.SteerTurn(text) {
			s.Agent.Inject(agent.HookOrigin, text)
		}
	}
}

// startSource is why the session started, as session_start hooks are
// told.
func startSource(resumed bool) string {
	if resumed {
		return "resume"
	}
	return "startup"
}

// projectContent is what an approval of the project's hooks is of: each
// of files, named and followed by its bytes, so a change to any asks
// again; names are those files relative to dir.
func projectContent(dir string, files []string) ([]byte, []string) {
	var content []byte
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(dir, f)
		names = append(names, rel)
		content = append(append(append(content, rel...), 0), b...)
	}
	return content, names
}

// requestMessage is what notification hooks are told a request is about.
// requestMessage is what notification hooks are told of a request for
// the user, and its notification_type.
func requestMessage(req *interact.Request) (string, string) {
	switch {
	case req.Approval != nil:
		return "tack needs your permission to use " + req.Approval.Tool, hooks.NotifyPermission
	case len(req.Questions) > 0 && req.Questions[0].Server != "":
		return "MCP server " + req.Questions[0].Server + " asks for your input: " + req.Questions[0].Question, hooks.NotifyElicitation
	case len(req.Questions) > 0:
		return "tack has a question for you: " + req.Questions[0].Question, hooks.NotifyPermission
	}
	return "tack needs your attention", hooks.NotifyPermission
}

func hooksApprovalText(files []string, hs []hooks.Hook) approvalText {
	var detail []string
	for _, h := range hs {
		detail = append(detail, string(h.Event)+": "+h.Command)
	}
	where := strings.Join(files, " and ")
	return approvalText{
		header:   "Project hooks",
		question: fmt.Sprintf("This project's %s runs %d hook command(s). Allow them?", where, len(hs)),
		details:  detail,
		denied:   fmt.Sprintf("The project's hooks in %s do not run in this session.", where),
	}
}

// idleNotice is how long, as in Claude Code, a session waits for the
// next prompt before its notification hooks hear of it (idle_prompt).
const idleNotice = 60 * time.Second

// idleAfter is idleNotice where someone types the next prompt, and never
// in print mode, which ends with the turn.
func idleAfter(o Options) time.Duration {
	if o.Unattended {
		return 0
	}
	return idleNotice
}

// agentHooks is r as the agent's hooks; a nil runner is no hooks (not a
// non-nil interface holding nil).
func agentHooks(r *hooks.Runner) agent.Hooks {
	if r == nil {
		return nil
	}
	return r
}

// subagentHooks are the hooks of the subagent whose child session is
// log (nil without a runner), recording with record; their
// agent_transcript_path is transcript's, their effort.level effort's.
func subagentHooks(r *hooks.Runner, log *session.Log, transcript func() string, agentType string, effort func() llm.Effort, record func(session.Data) error) agent.Hooks {
	if r == nil {
		return nil
	}
	return r.ForSubagent(log.Header().ID, transcript, agentType, effort, record)
}
