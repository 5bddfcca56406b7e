package launch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/trust"
)

// startMCP makes the session's MCP servers from the command line's
// --mcp-config values, the config file's [mcp_servers] tables, codex's
// (~/.codex/config.toml), the plugins', the project's .mcp.json and, read once the servers start, the ones `claude
// mcp add` kept in ~/.claude.json for the user and this project, in that
// order of precedence (a server named again later is left out, with a
// notice); with --strict-mcp-config only from the command line. choice
// is what the Claude Code settings files say of the .mcp.json servers. It
// offers their tools through registry and starts them in the background.
// Problems with any source become notices.
func (s *Session) startMCP(o Options, cfg config.File, registry *tools.Registry, choice mcpjsonChoice) {
	env := s.getenv
	var servers []mcp.Server
	var problems []string
	taken := map[string]string{} // a server's name → the source that defined it
	add := func(source string, list []mcp.Server, probs []string) {
		problems = append(problems, probs...)
		for _, srv := range list {
			if by, ok := taken[srv.Name]; ok {
				problems = append(problems, fmt.Sprintf("%s: server %q is also in %s, which wins", srv.Origin, srv.Name, by))
				continue
			}
			taken[srv.Name] = source
			servers = append(servers, srv)
		}
	}
	for _, v := range o.MCPConfigs {
		f := mcp.LoadFlag(v, env)
		add("--mcp-config", f.Servers, f.Problems)
	}
	store := trust.Open(o.Home)
	var proj mcp.Project
	fromPlugins := false // plugins a project turns on bring servers
	if !o.StrictMCPConfig {
		fromConfig, probs := mcp.FromConfig(cfg.MCPServers, config.Path(o.Home), env)
		add("config.toml", fromConfig, probs)
		if path := config.CodexConfig(o.getenv); path != "" {
			tables, probs := config.LoadCodexServers(path)
			fromCodex, more := mcp.FromConfig(tables, path, env)
			add(path, fromCodex, append(probs, more...))
		}
		proj = mcp.LoadProject(s.Cwd, env)
		byPlugins := s.pluginsEnabledBy()
		fromPlugins = len(byPlugins) > 0
		proj.Content = append(proj.Content, byPlugins...)
		// Approved before: its servers start at once, like the user's own.
		approved := store.Trusted(s.Cwd, mcp.ProjectFile, trust.Digest(proj.Content))
		for _, p := range s.plugins {
			if p.MCP != "" {
				f := mcp.LoadPlugin(p.Name, p.MCP, p.Getenv(env))
				for i := range f.Servers {
					f.Servers[i].Project = p.EnabledBy != "" && !approved
				}
				add("plugin "+p.Name, f.Servers, f.Problems)
			}
		}
		for i := range proj.Servers {
			proj.Servers[i].Project = !approved
		}
		choice, problems = s.claudeApprovals(o, choice, proj.Servers, problems)
		add(mcp.ProjectFile, choice.apply(proj.Servers), proj.Problems)
	}
	for _, p := range problems {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: p})
	}
	later := s.claudeServers(o, taken)
	if len(servers) == 0 && len(problems) == 0 && later == nil && !o.sdkDriven() {
		return
	}
	browser := mcp.OpenBrowser(env)
	s.MCP = mcp.New(mcp.Options{
		Servers: servers, Skipped: problems,
		Approve: func(ctx context.Context, servers []mcp.Server) (bool, error) {
			return s.approveProject(ctx, store, proj.Content, mcp.ProjectFile, mcpApprovalText(servers, fromPlugins))
		},
		Report: func(text string) { s.Agent.Notify(agent.Notice{Tone: agent.NoticeError, Text: text}) },
		Inform: func(text string) { s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: text}) },
		PageDone: func(done elicit.Done, text string) {
			s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: text, PageDone: &done})
		},
		Elicit:    s.elicit(o, browser),
		TokenFile: filepath.Join(o.Home, mcp.TokenFile),
		Browser:   browser,
		Getenv:    s.getenv,
		Cwd:       s.Cwd,
		Roots:     append([]string{s.Cwd}, o.AddDirs...),
		Environ:   bash.WithoutProviderSecrets(o.Environ),
		SpillDir:  filepath.Join(o.Home, "spill", s.Log.Header().ID),
		Version:   o.Version, HTTPClient: o.HTTPClient, Relay: o.MCPRelay,
		StartAfter: firstFrameRoom, StartWhen: o.Background, Later: later,
	})
	registry.AddSource(o.offered(s.MCP))
	s.closers = append(s.closers, s.MCP.Close)
	s.MCP.Start()
}

// claudeServers reads, when the servers start, those `claude mcp add`
// kept in ~/.claude.json for the user and this project, but for names
// taken by another source (which wins), save that a local-scope server
// wins over the project's .mcp.json, as in Claude Code; nil when there is
// no such file or with --strict-mcp-config. The file runs to megabytes, so it is not read
// before the first frame.
func (s *Session) claudeServers(o Options, taken map[string]string) func() ([]mcp.Server, []string) {
	home := o.getenv("HOME")
	if home == "" || o.StrictMCPConfig {
		return nil
	}
	path := mcp.ClaudeUserFile(home)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return func() ([]mcp.Server, []string) {
		p := mcp.LoadClaudeUser(path, s.Cwd, s.getenv)
		var servers []mcp.Server
		for _, srv := range p.Servers {
			by, ok := taken[srv.Name]
			switch {
			case ok && srv.Local && by == mcp.ProjectFile:
				p.Problems = append(p.Problems, fmt.Sprintf("%s: server %q is also in %s (local scope), which wins", by, srv.Name, srv.Origin))
			case ok:
				p.Problems = append(p.Problems, fmt.Sprintf("%s: server %q is also in %s, which wins", srv.Origin, srv.Name, by))
				continue
			}
			servers = append(servers, srv)
		}
		return servers, p.Problems
	}
}

// claudeApprovals adds to choice what Claude Code's approval dialog kept
// for the project in ~/.claude.json, read only when a server of servers
// would otherwise wait for the user (the file runs to megabytes: 7 ms for
// 6.7 MB, which the first frame waits for), and says on problems why it
// could not be.
func (s *Session) claudeApprovals(o Options, choice mcpjsonChoice, servers []mcp.Server, problems []string) (mcpjsonChoice, []string) {
	home := o.getenv("HOME")
	if home == "" || !slices.ContainsFunc(servers, choice.undecided) {
		return choice, problems
	}
	a, err := mcp.LoadClaudeApprovals(mcp.ClaudeUserFile(home), s.Cwd)
	if err != nil {
		return choice, append(problems, err.Error()+"; the approvals of the project's MCP servers Claude Code kept there are skipped")
	}
	return choice.withClaudeJSON(a), problems
}

// mcpApprovalText is the question about a project's servers: what each
// one runs or reaches.
func mcpApprovalText(servers []mcp.Server, plugins bool) approvalText {
	var detail []string
	for _, srv := range servers {
		what := srv.URL
		if what == "" {
			what = strings.Join(append([]string{srv.Command}, srv.Args...), " ")
		}
		detail = append(detail, srv.Name+": "+what)
	}
	where, verb := mcp.ProjectFile, "starts"
	if plugins {
		where, verb = mcp.ProjectFile+" and the plugins its settings turn on", "start"
	}
	return approvalText{
		header:   "MCP servers",
		question: fmt.Sprintf("This project's %s %s %d MCP server(s). Start them?", where, verb, len(servers)),
		details:  detail,
		denied:   fmt.Sprintf("The servers of the project's %s were not started. /mcp restart NAME starts one for this session.", where),
	}
}

// pluginsEnabledBy is what the approval of the project's MCP servers is
// also of when a project's settings file turns on a plugin that has some:
// each such file, named and followed by its bytes, so a change to it asks
// again.
func (s *Session) pluginsEnabledBy() []byte {
	var files []string
	for _, p := range s.plugins {
		if p.EnabledBy != "" && p.MCP != "" && !slices.Contains(files, p.EnabledBy) {
			files = append(files, p.EnabledBy)
		}
	}
	content, _ := projectContent(s.Cwd, files)
	return content
}
