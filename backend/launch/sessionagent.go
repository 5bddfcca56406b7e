package launch

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/structured"
)

// The session run as an agent (claude's --agent, or "agent" in settings):
// the definition's prompt and model taken where no flag says otherwise,
// only the tools it offers, built in or MCP, offered (and /mcp says which
// of the servers' it leaves out), and what of its file tack does not do
// told once at open.

// asAgent is o with the agent definition o.Agent names, of defs, taken
// where no flag says otherwise: its prompt as SystemPrompt, its model as
// Model; and that definition. An unknown name is an error that lists the
// names there are.
func (o Options) asAgent(defs []subagent.Definition) (Options, subagent.Definition, error) {
	if o.Agent == "" {
		return o, subagent.Definition{}, nil
	}
	def, ok := subagent.Find(defs, o.Agent)
	if !ok {
		return o, def, fmt.Errorf("no agent named %q: the agents are %s (files in .claude/agents or ~/.claude/agents, or --agents)",
			o.Agent, agentNames(defs))
	}
	o.SystemPrompt = cmp.Or(o.SystemPrompt, def.Prompt)
	o.Model = cmp.Or(o.Model, def.Model)
	o.runAs = def
	return o, def, nil
}

// builtins is r with only the built-in tools Tools names, when it names
// any, that the session's agent offers, as Claude Code narrows the tools
// of --tools to the agent's. Print mode's structured_output is the
// session's answer, not a tool the agent's file could know of: it stays.
func (o Options) builtins(r *tools.Registry) *tools.Registry {
	if o.Tools == nil && o.Agent == "" {
		return r
	}
	keep := map[string]bool{}
	for _, name := range o.Tools {
		keep[tools.FromClaude(name)] = true
	}
	out := tools.NewRegistry()
	for _, t := range r.Tools() {
		name := t.Spec().Name
		if name == structured.Name || (o.Tools == nil || keep[name]) && o.runAs.Offers(name) {
			out.Add(t)
		}
	}
	return out
}

// spawnable are the agents of defs the session's agent may start with
// the task tool: those its Agent(worker, researcher) names, when it names
// any, as Claude Code keeps a main thread's Agent tool to them. One of
// Claude Code's built-in agents it names (Agent(Explore, worker)) keeps
// the general agent, which the task tool runs for it.
func (o Options) spawnable(defs []subagent.Definition) []subagent.Definition {
	if o.runAs.Spawns == nil {
		return defs
	}
	names := slices.Clone(o.runAs.Spawns)
	for _, name := range o.runAs.Spawns {
		if _, defined := subagent.Find(defs, name); !defined && subagent.ClaudeCodeAgent(name) {
			names = append(names, subagent.GeneralName)
		}
	}
	return slices.DeleteFunc(slices.Clone(defs), func(d subagent.Definition) bool { return !slices.Contains(names, d.Name) })
}

// offered is the tools of source, the MCP servers', that the session's
// agent offers: named alone or by their server, in its tools or its
// disallowedTools. The source is asked each time, so a server that
// connects later, or a list that changes, is kept to them too.
func (o Options) offered(source tools.Source) tools.Source {
	if o.Agent == "" {
		return source
	}
	return agentSource{Source: source, agent: o.runAs}
}

type agentSource struct {
	tools.Source
	agent subagent.Definition
}

func (s agentSource) Tools() []tools.Tool {
	var out []tools.Tool
	for _, t := range s.Source.Tools() {
		if s.agent.Offers(t.Spec().Name) {
			out = append(out, t)
		}
	}
	return out
}

// listed is servers as /mcp lists them to the session: for a session run
// as an agent, each server's tools the agent offers, and apart those it
// leaves out, so the listing is what the model gets.
func (o Options) listed(servers *mcp.Manager) commands.MCPServers {
	if o.Agent == "" {
		return servers
	}
	return agentServers{Manager: servers, agent: o.runAs}
}

type agentServers struct {
	*mcp.Manager
	agent subagent.Definition
}

func (s agentServers) StatusText() string {
	return s.Manager.StatusTextOffering(mcp.Offering{Offers: s.agent.Offers,
		By: "left out by the tools or disallowedTools of the " + s.agent.Name + " agent"})
}

// sessionAgentNote tells what of the agent the session runs as tack does
// not do, or does not do as the file might mean: the model of Claude
// Code's it names, when no --model chose another, its maxTurns, the fields
// it does not apply, the skills it preloads that catalog has none of and
// the agents its Agent(...) names that defs has none of; "" when there is
// nothing to tell.
func sessionAgentNote(def subagent.Definition, model string, catalog *skills.Catalog, defs []subagent.Definition) string {
	var says []string
	if def.ClaudeModel != "" && model == "" {
		says = append(says, fmt.Sprintf("names Claude Code's model %q, which tack's providers do not serve; "+
			"the session runs on tack's own model (--model or /model choose another)", def.ClaudeModel))
	}
	// Claude Code bounds an agent's turns by its maxTurns when the agent
	// runs as a subagent only; its main thread knows --max-turns alone.
	if def.MaxTurns > 0 {
		says = append(says, fmt.Sprintf("sets maxTurns: %d, which bounds it as a subagent only: "+
			"as in Claude Code, the session run as it is not bounded (in print mode, --max-turns %d bounds each turn)",
			def.MaxTurns, def.MaxTurns))
	}
	if len(def.Unapplied) > 0 {
		says = append(says, unappliedNote(def))
	}
	if missing := missingSkills(catalog, def); len(missing) > 0 {
		says = append(says, missingNote(missing))
	}
	if missing := missingAgents(def, defs); len(missing) > 0 {
		says = append(says, fmt.Sprintf("names in its Agent(...) agents there are none of: %s; the agents are %s "+
			"(add the missing ones to .claude/agents or --agents, or take them out of its tools)",
			strings.Join(missing, ", "), agentNames(defs)))
	}
	return agentNote(def, says)
}

// missingAgents are the agents def's Agent(...) names that defs has none
// of, save Claude Code's built-in ones, which the general agent runs.
func missingAgents(def subagent.Definition, defs []subagent.Definition) []string {
	var out []string
	for _, name := range def.Spawns {
		if _, ok := subagent.Find(defs, name); !ok && !subagent.ClaudeCodeAgent(name) {
			out = append(out, name)
		}
	}
	return out
}

// agentNames are the names of defs, joined for a sentence.
func agentNames(defs []subagent.Definition) string {
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}
