package launch

import (
	"errors"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/plugin"
	"github.com/tack-agent/tack/backend/subagent"
)

// An Agent SDK that drives print mode names more of the session as it
// initializes, after the session opened: the program's system prompt,
// hooks and agents (its in-process MCP servers go to Session.MCP).

// sdkDriven reports whether an Agent SDK drives the session, which may
// then name MCP servers and hooks after it opened.
func (o Options) sdkDriven() bool { return o.MCPRelay != nil }

// SetSystemPrompt rebuilds the system prompt with own in the place of
// tack's brief and end after it, as --system-prompt and
// --append-system-prompt would have ("" keeps what the session had): the
// Agent SDKs give them as they initialize.
func (s *Session) SetSystemPrompt(own, end string) {
	s.Agent.SetSystem(s.system(own, end))
}

// AddHooks runs hs too from now on: the Agent SDKs name a program's
// hooks as they initialize. It fails where no SDK drives the session.
func (s *Session) AddHooks(hs []hooks.Hook) error {
	if s.hooks == nil {
		return errors.New("this session takes no hooks after it opened")
	}
	s.hooks.Add(hs)
	return nil
}

// AddAgents offers more agent definitions to the task tool, each
// replacing one of its name: the Agent SDKs send a program's agents as
// they initialize. A session run as an agent that names the agents it
// starts offers only those.
func (s *Session) AddAgents(defs []subagent.Definition) { s.tasks.Add(s.children.o.spawnable(defs)) }

// Plugins are the Claude Code plugins the session loaded.
func (s *Session) Plugins() []plugin.Plugin { return s.plugins }

// AgentNames are the agent definitions the task tool offers.
func (s *Session) AgentNames() []string {
	if s.tasks == nil {
		return nil
	}
	return s.tasks.AgentNames()
}
