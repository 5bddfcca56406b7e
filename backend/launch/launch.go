// Package launch assembles a working session from settings: the config
// file, credentials, the model provider, the session log (new, resumed or
// continued), the tools, the permission policy and the agent. Every front
// door starts through it.
package launch

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/outputstyle"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/plugin"
	"github.com/tack-agent/tack/backend/prompt"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/structured"
	"github.com/tack-agent/tack/backend/tools/task"
	"github.com/tack-agent/tack/backend/tools/web"
	"github.com/tack-agent/tack/backend/workspace"
)

// Options are the settings a front door launches with. Flags override the
// config file; the config file overrides built-in defaults.
type Options struct {
	Home string
	Cwd  string
	// Getenv reads the environment (API keys, HOME, XDG_CONFIG_HOME);
	// launch reads it through nothing else. Environ is the environment
	// the session's commands start from (os.Environ() in cmd/tack); nil
	// starts them with only what the bash tool sets itself.
	Getenv  func(string) string
	Environ []string
	Now     func() time.Time
	Rand    io.Reader

	Provider       string
	Model          string
	Effort         string
	PermissionMode string
	// SystemPrompt takes the place of tack's brief at the head of the
	// system prompt, and AppendSystemPrompt ends it (claude -p's
	// --system-prompt and --append-system-prompt); "" for neither.
	SystemPrompt, AppendSystemPrompt string
	// MCPConfigs are claude -p's --mcp-config values: files in .mcp.json's
	// shape, or that JSON. StrictMCPConfig leaves out every other server.
	MCPConfigs      []string
	StrictMCPConfig bool
	// Unattended says nobody answers the session's questions (print
	// mode): the model is not offered ask_user_question.
	Unattended bool
	// OutputSchema, when set, is claude -p's --json-schema: the model is
	// offered structured_output, which holds its answer to the schema.
	OutputSchema json.RawMessage
	// Tools, when not nil, are the built-in tools the model is offered
	// (claude's --tools, in its names or tack's); empty offers none. MCP
	// tools and print mode's structured_output are not built in.
	Tools []string
	// Agents are subagents defined on the command line (claude's --agents
	// JSON); they win over files of the same name.
	Agents []subagent.Definition
	// SettingSources, when not nil, are the Claude Code settings files
	// read: "user" (~/.claude/settings.json), "project"
	// (.claude/settings.json), "local" (.claude/settings.local.json).
	SettingSources []string
	// Settings are claude -p's --settings values: files in the shape of
	// Claude Code's settings.json, or that JSON, whose hooks and
	// permission rules count as the user's own.
	Settings []string
	// AddDirs are more directories, absolute, the session works in beside
	// its own (claude -p's --add-dir): their edits count as the
	// workspace's and sandboxed commands may write in them.
	AddDirs []string
	// Resume names a session to continue; Continue picks this workspace's
	// latest. SessionID, when set, is the id of the new session instead of
	// a fresh one (claude -p's --session-id).
	Resume    string
	Continue  bool
	SessionID string
	// ForkSession continues the resumed session in a copy with a new id
	// (SessionID, when set), leaving it as it was (--fork-session).
	ForkSession bool
	// Elicit answers MCP servers' forms in print mode (the Agent SDK's
	// onElicitation); nil cancels them there.
	Elicit func(context.Context, elicit.Request) elicit.Result
	// MCPRelay reaches the MCP servers of type "sdk" that the Agent SDK
	// driving print mode hosts; nil where there is none.
	MCPRelay mcp.Relay
	// PluginDirs are Claude Code plugins to load beside those the user
	// installed (--plugin-dir, --plugin-dir-no-mcp).
	PluginDirs []PluginDir
	// Agent names the agent definition the session runs as (claude's
	// --agent): its prompt opens the system prompt and its model runs,
	// unless flags say otherwise, and only the tools it offers, built in
	// or MCP, are the session's.
	Agent string
	// runAs is the definition Agent names; none when it names none.
	runAs subagent.Definition
	// NoPersistence keeps nothing of the session once it closes
	// (--no-session-persistence): its log, images and spilled output are
	// removed, and a session resumed goes on in a copy, removed too.
	NoPersistence bool

	HTTPClient *http.Client
	Version    string
	// HelpKeys is the front door's key list for /help.
	HelpKeys string
	// Background, when set, is closed by the front door once the
	// session's background start (the sandbox's helper and the tidying
	// of its caches, the checkpoint store's priming, the MCP servers) no
	// longer competes with its user: the full screen closes it once the
	// keys typed as it appeared pause. Nil: that work starts
	// firstFrameRoom after Open.
	Background <-chan struct{}
}

// PluginDir is a plugin's folder given on the command line; NoMCP leaves
// its MCP servers out.
type PluginDir struct {
	Path  string
	NoMCP bool
}

// Session is an open, running session and everything it owns.
type Session struct {
	Agent    *agent.Agent
	Log      *session.Log
	Broker   *interact.Broker
	Policy   *permission.Policy
	Sandbox  *sandbox.Sandbox
	Commands *commands.Registry
	Config   config.File
	Catalog  *llm.Catalog
	// Router reaches the configured providers; Endpoint gives one's base
	// URL, key and profile.
	Router *llm.Router
	// MCP runs the session's MCP servers; nil when none are configured.
	MCP *mcp.Manager
	// Skills are the skills found for the session.
	Skills *skills.Catalog
	// OutputStyle is the name of the output style the settings chose,
	// outputstyle.Default for none.
	OutputStyle string
	// Workspace lists the files of Cwd for the search tools and for
	// Files.
	Workspace *workspace.Walker
	// Checkpoints keeps the workspace states /rewind restores; nil when
	// there are none.
	Checkpoints *checkpoint.Store
	Home        string
	Cwd         string
	// Resumed is set when the session existed before this process.
	Resumed bool
	// getenv is the environment layered over the credentials file.
	getenv func(string) string
	// plugins are the Claude Code plugins the session loaded.
	plugins []plugin.Plugin
	// tasks is the task tool, which offers the agent definitions;
	// children runs its subagents, and the agent hooks'.
	tasks    *task.Tool
	children *taskRunner
	// hooks runs the session's hooks; nil when it has none and no Agent
	// SDK drives it.
	hooks *hooks.Runner
	// system builds the system prompt with own in the place of tack's
	// brief and end after it, each "" for the session's own.
	system func(own, end string) string
	// statusLine runs the user's statusLine command; nil without one.
	statusLine *statusLine
	// background is the session's shell, whose background tasks /bashes
	// lists.
	background *bash.Tools
	// transcript is the session's Claude Code transcript, for hooks and
	// the status line.
	transcript *claudeTranscript

	closers []func()
}

// Settings resolves the config file and credentials without opening a
// session: the first-run screen uses it to learn whether a key is missing.
func Settings(o Options) (config.File, func(string) string, error) {
	cfg, err := config.Load(o.Home)
	if err != nil {
		return cfg, nil, err
	}
	creds, err := config.Credentials(o.Home)
	if err != nil {
		return cfg, nil, err
	}
	return cfg, config.Env(o.Getenv, creds), nil
}

// firstFrameRoom is how long the session's background start-up work (MCP
// servers, the sandbox helper, priming the checkpoint store) waits, so the
// front door draws its first frame before other processes compete with it
// for the CPU: on a loaded 2-core machine, five MCP servers started at once
// cost the first frame 80–100 ms, and the helper (a second tack process
// initialising its packages) and the store's git processes 30–45% of it
// (docs/perf.md).
const firstFrameRoom = 150 * time.Millisecond

// Open launches a session. A missing API key is an *llm.Error of kind
// ErrNoCredentials, returned before anything is written.
func Open(o Options) (*Session, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	cfg, env, err := Settings(o)
	if err != nil {
		return nil, err
	}
	name := providerName(o, cfg)
	providers := cfg.ProviderList(name)
	provider, err := providers.Find(name)
	if err != nil {
		return nil, err
	}
	if _, err := provider.Resolve(env); err != nil {
		return nil, err
	}
	webCfg, err := webConfig(cfg.Web, provider.Name, providers, env, o.HTTPClient, o.Version)
	if err != nil {
		return nil, err
	}
	catalog := llm.NewCatalog()
	cfg.Apply(catalog)
	// Claude Code's --permission-mode plan starts in plan mode, over the
	// configured mode.
	flagMode := o.PermissionMode
	if flagMode == permission.PlanLabel {
		flagMode = ""
	}
	mode, err := permission.ParseMode(first(flagMode, cfg.PermissionMode, string(permission.DefaultMode)))
	if err != nil {
		return nil, err
	}
	// A model flag, or a provider flag alone, names the model even of a
	// resumed session; a new session falls back to the config's model, then
	// the provider's default.
	if o.Model != "" || o.Provider != "" {
		o.Model = qualify(provider, first(o.Model, provider.Model))
	}
	model := first(o.Model, qualify(provider, first(cfg.Model, provider.Model)))
	if model == "" {
		return nil, fmt.Errorf("provider %s has no default model: pass --model, or set model in its [[providers]] entry of config.toml", provider.Name)
	}
	log, resumed, err := openLog(o, model)
	if err != nil {
		return nil, err
	}
	router := llm.NewRouter(llm.RouterConfig{
		Providers: providers, Default: provider.Name, Env: env, Catalog: catalog,
		HTTPClient: o.HTTPClient, Version: o.Version,
	})
	s := &Session{Log: log, Config: cfg, Catalog: catalog, Home: o.Home, Cwd: log.Header().Cwd, Resumed: resumed}
	if o.NoPersistence {
		// Closers run last first: this one after the log is closed.
		s.closers = append(s.closers, func() {
			session.Remove(log.Path())
			os.RemoveAll(filepath.Join(o.Home, "spill", log.Header().ID))
		})
	}
	s.closers = append(s.closers, func() { closeLog(log, resumed) })
	s.getenv = env
	if err := s.start(o, cfg, router, mode, webCfg); err != nil {
		s.Close()
		return nil, err
	}
	s.addUserCommands(o)
	s.addPromptCommands()
	return s, nil
}

func (s *Session) start(o Options, cfg config.File, router *llm.Router, mode permission.Mode, webCfg web.Config) error {
	// The tools create the spill directory when they first spill, so a
	// session that never spills leaves none behind.
	spill := filepath.Join(o.Home, "spill", s.Log.Header().ID)
	claude, claudeProblems := readClaudeFiles(o, s.Cwd)
	var pluginProblems []string
	s.plugins, pluginProblems = loadPlugins(o, claude, s.Cwd)
	plan := o.PermissionMode == permission.PlanLabel
	if o.PermissionMode == "" && cfg.PermissionMode == "" {
		chosen, chosenPlan, problems := settingsMode(claude)
		mode, plan = cmp.Or(chosen, mode), chosenPlan
		claudeProblems = append(claudeProblems, problems...)
	}
	s.Broker = interact.NewBroker()
	s.Policy = permission.NewPolicy(mode, s.Broker)
	var dirProblems []string
	o.AddDirs, dirProblems = workDirs(claude, o.AddDirs, o.getenv("HOME"), s.Cwd)
	vars, envProblems := settingsEnv(claude)
	o.Environ, s.getenv = withVars(o.Environ, vars), withVarsGetenv(s.getenv, vars)
	var statusProblems []string
	s.transcript = s.transcriptOf(s.Log, o.Version)
	s.statusLine, statusProblems = s.newStatusLine(o, claude)
	if o.Unattended {
		statusProblems = nil // print mode shows no status line
	}
	style, styled, styleProblems := settingsOutputStyle(claude, s.Cwd, o.getenv("HOME"))
	s.OutputStyle = outputstyle.Default
	if styled {
		s.OutputStyle = style.Name
	}
	claudeProblems = slices.Concat(claudeProblems, pluginProblems, dirProblems, envProblems, statusProblems, styleProblems)
	rules := permissionRules(claude, cfg.Sandbox.DenyRead, s.Cwd, o.getenv("HOME"))
	s.Workspace = workspace.New(workspace.Options{Home: o.getenv("HOME"), XDGConfigHome: o.getenv("XDG_CONFIG_HOME"),
		Hidden: permission.ReadDenied(rules.Deny, s.Cwd, o.getenv("HOME"))})
	s.Sandbox = newSandbox(o, cfg.Sandbox, s.Cwd, spill, rules.Deny, s.notify)
	s.closers = append(s.closers, s.Sandbox.Close)
	s.Policy.SetSandbox(s.Sandbox, cfg.Sandbox.Network)
	s.Policy.SetHomes(o.Home, o.getenv("HOME"))
	s.Policy.SetDirs(o.AddDirs)
	s.Policy.SetRules(rules, s.approveProjectRules(o, rules))
	registry, shell := Tools(s.Policy, s.Workspace, o.Environ, s.Sandbox, o.Home, !o.Unattended)
	s.background = shell
	s.closers = append(s.closers, shell.Close)
	for _, t := range web.New(webCfg) {
		registry.Add(t)
	}
	if len(o.OutputSchema) > 0 {
		t, err := structured.New(o.OutputSchema)
		if err != nil {
			return err
		}
		registry.Add(t)
	}
	instructions, err := prompt.FindInstructions(prompt.Homes{Tack: o.Home, Codex: config.CodexHome(o.getenv), User: o.getenv("HOME")}, s.Cwd)
	if err != nil {
		return err
	}
	memory, memoryProblems := autoMemory(claude, s.getenv, s.Cwd)
	instructions, claudeProblems = append(instructions, memory...), append(claudeProblems, memoryProblems...)
	skillProblems := s.loadSkills(o, registry)
	agents, agentProblems := subagent.Load(subagent.Dirs(s.Cwd, o.Home, o.getenv("HOME")))
	fromPlugins, pluginAgentProblems := pluginAgents(s.plugins)
	agents, agentProblems = subagent.With(subagent.With(agents, fromPlugins), o.Agents), append(agentProblems, pluginAgentProblems...)
	if o.Agent == "" {
		var problems []string
		o.Agent, problems = settingsAgent(claude, agents)
		claudeProblems = append(claudeProblems, problems...)
	}
	var def subagent.Definition
	if o, def, err = o.asAgent(agents); err != nil {
		return err
	}
	s.statusLine.runAs(o.Agent)
	if note := sessionAgentNote(def, o.Model, s.Skills, agents); note != "" {
		claudeProblems = append(claudeProblems, note)
	}
	s.children = &taskRunner{s: s, o: o, provider: router, instructions: instructions, compactAt: cfg.CompactAt}
	s.tasks = task.New(s.children, o.spawnable(agents))
	registry.Add(s.tasks)
	registry = o.builtins(registry)
	hookRunner, hookProblems := s.newHooks(o, cfg, claude)
	s.Router = router
	// The skills the session's agent preloads are read once: an edit to
	// one must not change the system prompt under the provider's cache.
	agentSkills := preloaded(s.Skills, def)
	s.system = func(own, end string) string {
		own, end = cmp.Or(own, o.SystemPrompt), cmp.Or(end, o.AppendSystemPrompt)
		styleText := ""
		if styled {
			// As Claude Code's: a style asks for its own length of answers,
			// and a custom one drops the coding work's instructions unless
			// it keeps them; its text ends the prompt, before the caller's.
			own, styleText = cmp.Or(own, prompt.Brief(s.Cwd, false, style.KeepCoding)), style.Prompt()
		}
		return prompt.Build(own, s.Cwd, registry.Tools(), instructions) + s.Skills.Prompt() + agentSkills + addedDirs(o.AddDirs) +
			styleText + appended(end)
	}
	store, ckptNotices := s.openCheckpoints(o, cfg.Checkpoints)
	var ckpts agent.Checkpoints
	if store != nil {
		s.Checkpoints, ckpts = store, store
	}
	s.Agent = agent.New(agent.Config{
		// The model of a resumed session stays unless a flag names one; the
		// effort follows the flag, then the config, then the session.
		Log: s.Log, Provider: router, Catalog: s.Catalog, Model: o.Model, Effort: llm.Effort(first(o.Effort, cfg.Effort)),
		System: s.system(o.SystemPrompt, o.AppendSystemPrompt),
		Tools:  registry, Gate: s.Policy, Broker: s.Broker, Hooks: agentHooks(hookRunner),
		Retry: llm.DefaultRetryPolicy(rand.Float64),
		Cwd:   s.Cwd, SpillDir: spill, Now: o.Now,
		Images:      images.NewStore(session.ImageDir(s.Log.Path())),
		RefineTitle: true, CompactAt: cfg.CompactAt,
		Checkpoints: ckpts, PrimeAfter: firstFrameRoom, PrimeWhen: o.Background, Retention: agent.Retention{Turns: cfg.Checkpoints.Turns(), Days: cfg.Checkpoints.Days()},
	})
	s.closers = append(s.closers, s.Agent.Close)
	s.hooks = hookRunner
	if hookRunner != nil {
		hookRunner.StartSession(firstFrameRoom, o.Background)
		s.closers = append(s.closers, func() {
			hookRunner.EndSession("other")
			hookRunner.Close()
		})
	}
	s.Policy.SetPlan(s.Agent.PlanMode())
	if plan {
		if err := s.setPlan(true); err != nil {
			return err
		}
	}
	s.announceSandbox(mode, o.Now, o.Background)
	s.forgetAddedDirs()
	for _, p := range slices.Concat(cfg.Problems, claudeProblems, skillProblems, hookProblems) {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: p})
	}
	for _, p := range agentProblems {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: "agent definition skipped: " + p.Error()})
	}
	for _, n := range ckptNotices {
		s.Agent.Notify(n)
	}
	s.startMCP(o, cfg, registry, mcpjsonChoices(claude))
	return s.registerCommands(o)
}

// Close stops the agent, the tools' background work and the log, in that
// order.
func (s *Session) Close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// Resumable reports whether the session holds anything to resume: it
// existed before this process, or got an event in it. An empty new session
// is removed when it closes.
func (s *Session) Resumable() bool { return s.Resumed || s.Log.NextSeq() > 0 }

// closeLog closes the log. A session this process created that never got
// an event holds nothing of the user's; its file is removed so it does not
// crowd the session list.
func closeLog(l *session.Log, resumed bool) {
	empty := !resumed && l.NextSeq() == 0
	l.Close()
	if empty {
		session.Remove(l.Path())
	}
}

// openLog creates a new session log, or opens the one to resume.
func openLog(o Options, model string) (*session.Log, bool, error) {
	var path string
	var err error
	switch {
	case o.Resume != "":
		path, err = session.Resolve(o.Home, o.Cwd, o.Resume)
	case o.Continue:
		path, err = session.Latest(o.Home, o.Cwd)
	}
	if err != nil {
		return nil, false, err
	}
	r := o.Rand
	if r == nil {
		r = crand.Reader
	}
	id := session.NewID(o.Now(), r)
	if o.SessionID != "" {
		_, err := session.Find(o.Home, o.SessionID)
		switch {
		case err == nil:
			return nil, false, fmt.Errorf("session %s already exists: continue it with --resume %s, or pick another id", o.SessionID, o.SessionID)
		case !errors.Is(err, session.ErrNotFound):
			return nil, false, err
		}
		id = o.SessionID
	}
	if path != "" && (o.ForkSession || o.NoPersistence) {
		if path, err = session.Fork(path, id, o.Now()); err != nil {
			return nil, false, err
		}
	}
	if path != "" {
		l, err := session.Open(path)
		return l, true, err
	}
	h := session.Header{Version: 1, ID: id, Created: o.Now().UTC(), Cwd: o.Cwd, Model: model, Branch: workspace.Branch(o.Cwd)}
	l, err := session.Create(session.PathFor(o.Home, o.Cwd, id), h)
	return l, false, err
}

// providerName is the provider a session starts on: the flag's, the one
// the model flag's ref names (--model local/qwen3), the config's, the one
// the config's model names, then DeepSeek. Only that provider's key is
// required up front.
func providerName(o Options, cfg config.File) string {
	names := cfg.ProviderList("").Names()
	refers := func(model string) string {
		if p, _, ok := strings.Cut(model, "/"); ok && slices.Contains(names, p) {
			return p
		}
		return ""
	}
	return first(o.Provider, refers(o.Model), cfg.Provider, refers(cfg.Model), llm.ProviderDeepSeek)
}

// qualify makes model a ref to provider: a model of any provider but the
// default DeepSeek gets the provider's prefix, so the session log records
// where it ran and a resume goes back there.
func qualify(provider llm.ProviderConfig, model string) string {
	if model == "" || provider.Name == llm.ProviderDeepSeek || strings.HasPrefix(model, provider.Name+"/") {
		return model
	}
	return provider.Name + "/" + model
}

// getenv reads the environment the front door passed in; none when it
// passed no Getenv.
func (o Options) getenv(key string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(key)
}

// ErrNoCredentials reports whether err is the missing-API-key error.
func ErrNoCredentials(err error) bool {
	var le *llm.Error
	return errors.As(err, &le) && le.Kind == llm.ErrNoCredentials
}

func first[T ~string](vs ...T) T {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// addedDirs tells the model of the directories it may work in beside the
// workspace; "" for none.
func addedDirs(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return "\n\n# More directories\n\nBesides the workspace, the user gave you these directories to work in: " +
		strings.Join(dirs, ", ") + "."
}

// appended is text to end the system prompt with, after a blank line; ""
// for none.
func appended(text string) string {
	if text = strings.TrimSpace(text); text == "" {
		return ""
	}
	return "\n\n" + text
}
