// Package mcp is tack's Model Context Protocol client, on the official Go
// SDK. It reads the servers the user configured ([mcp_servers.NAME] in
// config.toml, codex's shape) and the project's .mcp.json (Claude Code's
// shape, run only once the user approves it), starts them in the
// background over stdio or streamable HTTP, and offers their tools to the
// agent as mcp__<server>__<tool>. A server that fails or misbehaves is
// reported once and never stops the session.
package mcp

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/redact"
)

// Defaults for the time a server may take to start and a call may take.
const (
	DefaultStartupTimeout = 30 * time.Second
	DefaultToolTimeout    = 60 * time.Second
)

// Server is one configured MCP server.
type Server struct {
	Name string
	// Origin says where it was defined, for messages: "config.toml line 3"
	// or ".mcp.json".
	Origin string
	// Project servers come from the repository and run only once the user
	// approves them.
	Project bool

	// Command, Args, Env and Cwd start a stdio server.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL and Headers reach a streamable-HTTP server, or with SSE one of
	// the older HTTP+SSE transport (an .mcp.json entry of type "sse").
	URL     string
	Headers map[string]string
	SSE     bool
	// OAuth adjusts how tack signs in to a remote server that asks for it.
	OAuth OAuth
	// SDK servers live in the program that runs tack through an Agent
	// SDK ("type": "sdk"): their messages go through Options.Relay.
	SDK bool
	// Local servers are those `claude mcp add` kept for this project in
	// ~/.claude.json (its local scope), which win over the project's
	// .mcp.json, as in Claude Code.
	Local bool
	// Program servers belong to the program driving tack through an Agent
	// SDK (its in-process servers, and those it set at run time): the
	// next set it gives (Manager.Replace) removes them unless it names
	// them again.
	Program bool

	StartupTimeout time.Duration
	ToolTimeout    time.Duration
	// EnabledTools, when set, is the only tools offered; DisabledTools are
	// never offered.
	EnabledTools  []string
	DisabledTools []string
	// Trusted lets every tool run without asking; TrustedTools names
	// single tools that may.
	Trusted      bool
	TrustedTools []string
}

// redactor knows the server's credentials: its header values, the values
// of environment variables and command-line options named like secrets
// (GITHUB_TOKEN, --api-key), and the URL's password and key parameters.
// Servers quote them back in errors and stderr.
func (s Server) redactor() redact.Redactor {
	var r redact.Redactor
	for _, v := range s.Headers {
		r.AddHeader(v)
	}
	for k, v := range s.Env {
		if redact.IsSecretName(k) {
			r.AddHeader(v)
		}
	}
	for i, a := range s.Args {
		name, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
		case ok && redact.IsSecretName(name):
			r.AddHeader(v)
		case !ok && i+1 < len(s.Args) && redact.IsSecretName(name):
			r.AddHeader(s.Args[i+1])
		}
	}
	r.AddURL(s.URL)
	return r
}

// Transport names how the server is reached.
func (s Server) Transport() string {
	switch {
	case s.SDK:
		return "sdk"
	case s.SSE:
		return "sse"
	case s.URL != "":
		return "http"
	}
	return "stdio"
}

// offers reports whether the server's tool name is offered to the model.
func (s Server) offers(tool string) bool {
	if len(s.EnabledTools) > 0 && !slices.Contains(s.EnabledTools, tool) {
		return false
	}
	return !slices.Contains(s.DisabledTools, tool)
}

func (s Server) trusts(tool string) bool {
	return s.Trusted || slices.Contains(s.TrustedTools, tool)
}

// FromConfig turns the config file's [mcp_servers] tables into servers,
// sorted by name, leaving out disabled ones. getenv resolves
// bearer_token_env_var. A table that names neither a command nor a url is
// a problem, and is left out.
func FromConfig(tables map[string]config.MCPServer, path string, getenv func(string) string) ([]Server, []string) {
	var out []Server
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		t := tables[name]
		if t.Enabled != nil && !*t.Enabled {
			continue
		}
		origin := fmt.Sprintf("%s line %d", path, t.Line)
		if t.Line == 0 {
			origin = path
		}
		s := Server{
			Name: name, Origin: origin, Command: t.Command, Args: t.Args, Env: t.Env, Cwd: t.Cwd, URL: t.URL,
			Headers:        mergeHeaders(t.Headers, t.HTTPHeaders),
			StartupTimeout: duration(t.StartupTimeoutMs, t.StartupTimeoutSec, DefaultStartupTimeout),
			ToolTimeout:    duration(t.ToolTimeoutMs, t.ToolTimeoutSec, DefaultToolTimeout),
			EnabledTools:   t.EnabledTools, DisabledTools: t.DisabledTools,
			Trusted: t.Trusted, TrustedTools: t.TrustedTools,
		}
		if t.BearerTokenEnvVar != "" {
			if tok := getenv(t.BearerTokenEnvVar); tok != "" {
				s.Headers = mergeHeaders(s.Headers, map[string]string{"Authorization": "Bearer " + tok})
			}
		}
		if err := s.check(); err != nil {
			problems = append(problems, fmt.Sprintf("%s: mcp_servers.%s: %v; the server is skipped", origin, name, err))
			continue
		}
		out = append(out, s)
	}
	return out, problems
}

// check reports a server that cannot be started as written.
func (s Server) check() error {
	switch {
	case !validServerName(s.Name):
		return fmt.Errorf("a server name is 1 to 64 characters, none of them a control character")
	case s.SDK:
		return nil
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("set command (a stdio server) or url (a streamable-HTTP server)")
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("set command or url, not both")
	case s.SSE && s.URL == "":
		return fmt.Errorf(`type "sse" needs the url of the server's event stream`)
	case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
		return fmt.Errorf("url %q is not an http:// or https:// address", s.URL)
	}
	return nil
}

// validServerName reports whether n can name a server. Claude Code takes
// any name a file gives, "DeepGraph Next.js MCP" or
// "@microsoft/clarity-mcp-server", and calls its tools by the name with
// every character but letters, digits, '_' and '-' made '_', as
// ToolName does; /mcp restart takes that form of the name too.
func validServerName(n string) bool {
	return strings.TrimSpace(n) != "" && len(n) <= 64 && !strings.ContainsFunc(n, unicode.IsControl)
}

func duration(ms int, sec float64, def time.Duration) time.Duration {
	switch {
	case ms > 0:
		return time.Duration(ms) * time.Millisecond
	case sec > 0:
		return time.Duration(sec * float64(time.Second))
	}
	return def
}

func mergeHeaders(hs ...map[string]string) map[string]string {
	var out map[string]string
	for _, h := range hs {
		for k, v := range h {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}
