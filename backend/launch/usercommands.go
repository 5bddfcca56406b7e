package launch

import (
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/customcmd"
)

// addUserCommands registers the user's own slash commands (Markdown files
// in the project's and the user's command folders) after every built-in,
// which they never replace. Files that cannot be used become notices.
func (s *Session) addUserCommands(o Options) {
	cmds, problems := customcmd.Load(customcmd.Dirs(o.Home, o.Getenv("HOME"), s.Cwd))
	problems = append(problems, customcmd.Register(s.Commands, cmds)...)
	for _, p := range problems {
		s.Agent.Notify(agent.Notice{Tone: agent.NoticeWarning, Text: p})
	}
}
