package launch

import (
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
)

// registerCommands builds the session's command registry: the built-ins,
// /compact and /permissions over this session's policy.
func (s *Session) registerCommands(keys string) error {
	s.Commands = commands.New(commands.Options{})
	deps := commands.Deps{
		Keys:        keys,
		Models:      s.Catalog,
		Permissions: permissionModes{s},
		Sessions:    workspaceSessions{home: s.Home, cwd: s.Cwd},
		WorkDir:     s.Cwd,
	}
	if err := commands.RegisterBuiltins(s.Commands, deps); err != nil {
		return err
	}
	return s.Commands.Register(commands.CompactCommand())
}

// permissionModes lets /permissions change the session's policy and records
// each change in the log.
type permissionModes struct{ s *Session }

func (p permissionModes) Mode() string { return string(p.s.Policy.Mode()) }

func (p permissionModes) SetMode(mode string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return err
	}
	p.s.Policy.SetMode(m)
	_, err = p.s.Agent.Record(session.PermissionMode{Mode: string(m)})
	return err
}

// workspaceSessions lists the sessions of one workspace for /resume.
type workspaceSessions struct{ home, cwd string }

func (w workspaceSessions) Sessions() ([]session.Summary, error) {
	return session.List(w.home, w.cwd, false)
}
