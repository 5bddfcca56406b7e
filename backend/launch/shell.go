package launch

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/tools"
)

// A line the user types after `!` is a shell command of their own: it
// runs at once through the session's bash tool, the same executor (and so
// the same sandbox) as the model's commands, and the command with its
// output joins the session as context for the model's next step.

// ShellOrigin marks the context a `!command` adds to the session, and
// ShellDescription describes its bash call on the card.
const (
	ShellOrigin      = "shell"
	ShellDescription = "Shell command typed by the user"
	// promptShellDescription describes a command a custom command's
	// prompt runs.
	promptShellDescription = "Shell command in a custom command's prompt"
)

// ShellRun is the outcome of Session.Shell: the card of the command (with
// its output when it ran) and whether it failed.
type ShellRun struct {
	Card   card.Card
	Output string // what the model reads, also shown when there is no card body
	Failed bool
}

// Shell runs command without asking: the user typed it, as they would in
// their own shell. It runs in the sandbox the permission mode gives the
// model's commands. It returns when the command has ended (or ctx has).
func (s *Session) Shell(ctx context.Context, command string) ShellRun {
	t, ok := s.Agent.Tools().Get("bash")
	if !ok {
		return ShellRun{Card: card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: command}},
			Output: "This session has no bash tool.", Failed: true}
	}
	args, _ := json.Marshal(map[string]string{"command": command, "description": ShellDescription})
	call := tools.Call{ID: "shell_" + rand.Text()[:12], Args: args, Env: s.shellEnv(), Sandbox: s.Policy.CommandSandbox()}
	res := t.Run(ctx, call)
	run := ShellRun{Card: t.Present(args), Output: res.Text, Failed: res.IsError}
	if res.Card != nil {
		run.Card = *res.Card
	}
	s.Agent.Inject(ShellOrigin, ShellContext(command, res.Text))
	return run
}

// promptShell runs a command a custom command's prompt embeds
// (!`git status`) as the model's bash calls run: authorized by the
// permission mode with the custom command's allowed-tools (so it asks, or
// is refused where nobody can answer, unless they cover it), in the
// sandbox the mode gives. It returns what the bash tool returned.
func (s *Session) promptShell(ctx context.Context, command string, allowed []string) (string, error) {
	t, ok := s.Agent.Tools().Get("bash")
	if !ok {
		return "", errors.New("was not run: this session has no bash tool")
	}
	args, _ := json.Marshal(map[string]string{"command": command, "description": promptShellDescription})
	env := s.shellEnv()
	env.Allowed = allowed
	call := tools.Call{ID: "prompt_" + rand.Text()[:12], Args: args, Env: env}
	grant, err := s.Policy.Authorize(ctx, t, call)
	if d := (*permission.Denial)(nil); errors.As(err, &d) {
		// The denial's text is written for the model.
		return "", fmt.Errorf("was refused (permission mode %s)", s.Policy.Mode())
	}
	if err != nil {
		return "", err
	}
	call.Sandbox = grant
	return t.Run(ctx, call).Text, nil
}

// shellEnv is the tool environment of a `!command`: the session's
// directory and spill directory, and no event recording (the command is
// the user's, not a model call).
func (s *Session) shellEnv() *tools.Env {
	id := s.Agent.SessionID()
	return &tools.Env{SessionID: id, Cwd: s.Cwd, SpillDir: filepath.Join(s.Home, "spill", id),
		Interact: s.Broker, Inject: s.Agent.Inject}
}

// shellContextLead starts what the model reads about a `!command`.
const shellContextLead = "The user ran a shell command in the terminal:\n$ "

// ShellContext is what the model reads about a `!command`; ShellCommandOf
// reads the command back.
func ShellContext(command, output string) string {
	return shellContextLead + command + "\n" + strings.TrimRight(output, "\n")
}

// ShellCommandOf is the first line of the command in the context a
// `!command` added, or "" when text is not such a context.
func ShellCommandOf(text string) string {
	rest, ok := strings.CutPrefix(text, shellContextLead)
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	return line
}
