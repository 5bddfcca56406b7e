package launch

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/trust"
)

// startMCP makes the session's MCP servers from the config file's
// [mcp_servers] tables and the project's .mcp.json (a server of the same
// name in the config wins), offers their tools through registry and starts
// them in the background. Problems with either file become notices.
func (s *Session) startMCP(o Options, cfg config.File, registry *tools.Registry) {
	env := s.getenv
	servers, problems := mcp.FromConfig(cfg.MCPServers, config.Path(o.Home), env)
	proj := mcp.LoadProject(s.Cwd, env)
	problems = append(problems, proj.Problems...)
	store := trust.Open(o.Home)
	approved := store.Trusted(s.Cwd, mcp.ProjectFile, trust.Digest(proj.Content))
	taken := map[string]bool{}
	for _, srv := range servers {
		taken[srv.Name] = true
	}
	for _, srv := range proj.Servers {
		if taken[srv.Name] {
			problems = append(problems, fmt.Sprintf("%s: server %q is also in config.toml, which wins", srv.Origin, srv.Name))
			continue
		}
		// Approved before: it starts at once, like the user's own.
		srv.Project = srv.Project && !approved
		servers = append(servers, srv)
	}
	for _, p := range problems {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: p})
	}
	if len(servers) == 0 && len(problems) == 0 {
		return
	}
	s.MCP = mcp.New(mcp.Options{
		Servers: servers, Skipped: problems,
		Approve: func(ctx context.Context, servers []mcp.Server) (bool, error) {
			return s.approveProject(ctx, store, proj.Content, mcp.ProjectFile, mcpApprovalText(servers))
		},
		Report:   func(text string) { s.Agent.Notify(agent.Notice{Tone: agent.NoticeError, Text: text}) },
		Cwd:      s.Cwd,
		Environ:  bash.WithoutProviderSecrets(o.Environ),
		SpillDir: filepath.Join(o.Home, "spill", s.Log.Header().ID),
		Version:  o.Version, HTTPClient: o.HTTPClient,
		StartAfter: firstFrameRoom, StartWhen: o.Background,
	})
	registry.AddSource(s.MCP)
	s.closers = append(s.closers, s.MCP.Close)
	s.MCP.Start()
}

// mcpApprovalText is the question about a project's servers: what each
// one runs or reaches.
func mcpApprovalText(servers []mcp.Server) approvalText {
	var detail []string
	for _, srv := range servers {
		what := srv.URL
		if what == "" {
			what = strings.Join(append([]string{srv.Command}, srv.Args...), " ")
		}
		detail = append(detail, srv.Name+": "+what)
	}
	return approvalText{
		header:   "MCP servers",
		question: fmt.Sprintf("This project's %s starts %d MCP server(s). Start them?", mcp.ProjectFile, len(servers)),
		detail:   strings.Join(detail, "\n"),
		denied: fmt.Sprintf("The project's %s servers were not started. /mcp restart NAME starts one for this session.",
			mcp.ProjectFile),
	}
}
