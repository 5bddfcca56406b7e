package launch

import (
	"context"
	"errors"
	"strconv"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
)

// registerCommands builds the session's command registry: the built-ins,
// /compact, /mcp over the servers as o's agent has them, and
// /permissions, /plan and /add-dir over this session's policy.
func (s *Session) registerCommands(o Options) error {
	s.Commands = commands.New(commands.Options{})
	deps := commands.Deps{
		Keys:        o.HelpKeys,
		Models:      s.Catalog,
		Permissions: permissionModes{s},
		Sessions:    workspaceSessions{home: s.Home, cwd: s.Cwd},
		WorkDir:     s.Cwd,
		Skills:      s.Skills,
		Checkpoints: checkpointStatus{s},
		Sandbox:     sandboxStatus{s},
	}
	if err := commands.RegisterBuiltins(s.Commands, deps); err != nil {
		return err
	}
	for _, cmd := range []commands.Command{commands.CompactCommand(), commands.ContextCommand()} {
		if err := s.Commands.Register(cmd); err != nil {
			return err
		}
	}
	for _, cmd := range append(commands.RewindCommands(), commands.DiffCommand()) {
		if err := s.Commands.Register(cmd); err != nil {
			return err
		}
	}
	for _, cmd := range []commands.Command{commands.MCPCommand(s.mcpServers(o)), s.addDirCommand(), commands.BashesCommand(s.background)} {
		if err := s.Commands.Register(cmd); err != nil {
			return err
		}
	}
	return s.Commands.Register(commands.PlanCommand(s.Policy))
}

// permissionModes lets /permissions change the session's policy and records
// each change in the log.
type permissionModes struct{ s *Session }

// Mode is the mode and the sandbox's state ("auto · sandboxed", "plan ·
// sandboxed").
func (p permissionModes) Mode() string { return p.s.Policy.StatusLabel() }

// Rules are the policy's permission rules.
func (p permissionModes) Rules() permission.Rules { return p.s.Policy.Rules() }

// SetMode switches the mode; choosing a mode while planning also leaves
// plan mode, so the mode named is the one in force.
func (p permissionModes) SetMode(mode string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	p.s.Policy.SetMode(m)
	_, err = p.s.Agent.Record(session.PermissionMode{Mode: string(m)})
	return errors.Join(err, p.s.setPlan(false))
}

// CyclePermissions is Shift+Tab: it moves the session to the next step of
// permission.Cycle (auto, plan, read-only, ask, auto …; never full-access),
// records each change and, when plan mode changes, tells the model. It
// returns the new label, as Policy.StatusLabel shows it.
func (s *Session) CyclePermissions() (string, error) {
	mode, plan := permission.Cycle(s.Policy.Mode(), s.Policy.Plan())
	var err error
	if mode != s.Policy.Mode() {
		s.Policy.SetMode(mode)
		_, err = s.Agent.Record(session.PermissionMode{Mode: string(mode)})
	}
	err = errors.Join(err, s.setPlan(plan))
	return s.Policy.StatusLabel(), err
}

// setPlan turns plan mode on or off; a change is recorded, and the model
// reads of it at its next request unless it is undone before then.
func (s *Session) setPlan(on bool) error {
	if !s.Policy.SetPlan(on) {
		return nil
	}
	_, err := s.Agent.Record(session.PlanMode{Active: on})
	s.Agent.Note(commands.PlanOrigin, commands.PlanNotice(!on), commands.PlanNotice(on))
	return err
}

// workspaceSessions lists the sessions of one workspace for /resume.
type workspaceSessions struct{ home, cwd string }

func (w workspaceSessions) Sessions() ([]session.Summary, error) {
	return session.List(w.home, w.cwd, false)
}

// mcpServers is what /mcp reads: the session's servers, or none.
func (s *Session) mcpServers(o Options) commands.MCPServers {
	if s.MCP == nil {
		return noMCPServers{}
	}
	return o.listed(s.MCP)
}

type noMCPServers struct{}

func (noMCPServers) StatusText() string               { return mcp.NoServersText }
func (noMCPServers) Restart(name string) error        { return noMCPServer(name) }
func (noMCPServers) Logout(name string) (bool, error) { return false, noMCPServer(name) }
func (noMCPServers) Login(_ context.Context, name string) (string, bool, error) {
	return "", false, noMCPServer(name)
}

func noMCPServer(name string) error {
	return errors.New("no MCP server " + strconv.Quote(name) + " is configured; " + mcp.NoServersText)
}
