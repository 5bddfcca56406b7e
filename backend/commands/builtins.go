package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
)

// SessionAgent is what the built-in commands need of the receiving agent
// beyond Agent: its session log, model choice and tools (*agent.Agent).
// Built-ins that need it fail with a clear message for an agent without it.
type SessionAgent interface {
	Agent
	Header() session.Header
	// Projection is the fold of the session so far; Events reads every
	// event back from the log, Scan those of some types from a seq on.
	Projection() *session.Projection
	Events() []session.Event
	Scan(from int64, types []string, visit func(session.Event) bool) error
	Model() (string, llm.Effort)
	SetModel(model string, effort llm.Effort) error
	// Rename gives the session the user's name for it.
	Rename(name string) error
	ToolNames() []string
}

// Permissions reads and sets the permission mode.
type Permissions interface {
	Mode() string
	SetMode(mode string) error
	// Rules are the permission rules of the settings files.
	Rules() permission.Rules
}

// Sessions lists the sessions /resume can switch to.
type Sessions interface {
	Sessions() ([]session.Summary, error)
}

// Deps is what the built-in commands need from the process that mounts
// them. Nil fields disable what depends on them.
type Deps struct {
	// Sandbox tells /status what commands may do, when the session has a
	// sandbox to describe.
	Sandbox Status
	// Keys is the keyboard-shortcut section of /help, from the front door.
	Keys string
	// Models lists, prices and sizes models for /model and /status.
	Models Models
	// Permissions enables /permissions.
	Permissions Permissions
	// Sessions lets /resume list and check sessions.
	Sessions Sessions
	// WorkDir is where /export writes relative paths; "" means the
	// session's directory.
	WorkDir string
	// Skills adds the skills to /status.
	Skills Skills
	// Checkpoints adds the checkpoint store to /status.
	Checkpoints Status
}

// Status is a section /status shows: what it says of the session now.
type Status interface {
	Status() string
}

// Skills is the session's skills as /status shows them (*skills.Catalog)
// from the session's events of the types LoadTypes names.
type Skills interface {
	LoadTypes() []string
	Status(events []session.Event) string
}

// RegisterBuiltins registers the backend-owned commands globally in reg:
// /help, /status, /model, /permissions (when deps.Permissions is set),
// /effort, /export, /exit, /quit, /clear, /new, /resume, /rename,
// /details, /copy and /init.
func RegisterBuiltins(reg *Registry, deps Deps) error {
	cmds := []Command{
		helpCommand(reg, deps.Keys),
		statusCommand(deps.Models, deps.Skills, deps.Sandbox, deps.Checkpoints),
		modelCommand(deps.Models),
		effortCommand(deps.Models),
		exportCommand(deps),
		resumeCommand(deps.Sessions),
		renameCommand(),
		detailsCommand(),
		copyCommand(),
		initCommand(),
		{Name: "exit", Description: "Exit tack (a running turn is cancelled first)", WhileRunning: true, Handler: act(ActionExit{}, "")},
		{Name: "quit", Description: "Exit tack (a running turn is cancelled first)", WhileRunning: true, Handler: act(ActionExit{}, "")},
		{Name: "clear", Description: "Clear the view; the session history is unchanged", WhileRunning: true,
			Handler: act(ActionClear{}, "Cleared the view; the session history is unchanged.")},
		{Name: "new", Description: "Start a new session with the same settings",
			Handler: act(ActionNewSession{}, "Starting a new session with the same settings.")},
	}
	if deps.Permissions != nil {
		cmds = append(cmds, permissionsCommand(deps.Permissions))
	}
	for _, cmd := range cmds {
		if err := reg.Register(cmd); err != nil {
			return fmt.Errorf("register built-in commands: %w", err)
		}
	}
	return nil
}

// act is a handler that takes no input and asks the front door for action.
func act(action Action, text string) Handler {
	return func(_ context.Context, inv Invocation) Result {
		if strings.TrimSpace(inv.RawInput) != "" {
			return Failf("Usage: /%s (no arguments)", inv.Name)
		}
		return Result{Kind: Success, Text: text, Action: action}
	}
}

// withSession is the handler h of a command that needs the agent's
// session view; for an agent without one, the command fails saying so.
func withSession(h func(ctx context.Context, inv Invocation, sa SessionAgent) Result) func(context.Context, Invocation) Result {
	return func(ctx context.Context, inv Invocation) Result {
		sa, ok := inv.Agent.(SessionAgent)
		if !ok {
			return Failf("/%s needs an agent with a session log.", inv.Name)
		}
		return h(ctx, inv, sa)
	}
}

func helpCommand(reg *Registry, keys string) Command {
	return Command{
		Name: "help", Description: "Show keyboard shortcuts and commands", WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			var b strings.Builder
			if keys != "" {
				b.WriteString(strings.TrimRight(keys, "\n"))
				b.WriteString("\n\n")
			}
			for _, cmd := range reg.List(inv.Agent.SessionID()) {
				b.WriteString("/" + cmd.Name)
				if cmd.Input.Hint != "" {
					b.WriteString(" " + cmd.Input.Hint)
				}
				b.WriteString(" — " + cmd.Summary() + "\n")
			}
			text := strings.TrimRight(b.String(), "\n")
			return Result{Kind: Success, Text: text, Action: ActionHelp{Text: text}}
		},
	}
}

func copyCommand() Command {
	return Command{
		Name: "copy", Description: "Copy the last answer to the clipboard", WhileRunning: true,
		Handler: withSession(func(_ context.Context, inv Invocation, sa SessionAgent) Result {
			if text := sa.Projection().LastAnswer(); text != "" {
				return Result{Kind: Success, Text: "Copied the last answer to the clipboard.", Action: ActionCopy{Text: text}}
			}
			return Fail("Nothing to copy yet.")
		}),
	}
}

const detailsUsage = "Usage: /details [collapsed|expanded|hidden] [reasoning [on|off]]"

func detailsCommand() Command {
	return Command{
		Name: "details", Description: "Show or hide tool cards and reasoning", WhileRunning: true,
		Input: Input{Hint: "[collapsed|expanded|hidden] [reasoning [on|off]]"},
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			if len(args) == 0 {
				return Result{Kind: Success, Action: ActionOpenDetails{}}
			}
			details, bad := parseDetails(args)
			if bad != "" {
				return Failf("Unknown /details argument %q. %s", bad, detailsUsage)
			}
			return Result{Kind: Success, Text: detailsText(details), Action: details}
		},
	}
}

// parseDetails reads the /details arguments in any order, returning the
// first one it does not understand.
func parseDetails(args []string) (ActionDetails, string) {
	var d ActionDetails
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; arg {
		case "collapsed", "expanded", "hidden":
			d.Cards = CardMode(arg)
		case "reasoning":
			d.Reasoning = ReasoningToggle
			if i+1 < len(args) && (args[i+1] == "on" || args[i+1] == "off") {
				i++
				d.Reasoning = ReasoningSwitch(args[i])
			}
		default:
			return ActionDetails{}, arg
		}
	}
	return d, ""
}

// detailsText is the notice for a details change, as the keys say it.
func detailsText(d ActionDetails) string {
	var parts []string
	switch d.Reasoning {
	case ReasoningOn:
		parts = append(parts, "Reasoning blocks shown.")
	case ReasoningOff:
		parts = append(parts, "Reasoning blocks hidden.")
	case ReasoningToggle:
		parts = append(parts, "Reasoning blocks toggled.")
	}
	switch d.Cards {
	case CardsCollapsed:
		parts = append(parts, "Tool and context cards collapsed.")
	case CardsExpanded:
		parts = append(parts, "Tool and context cards expanded.")
	case CardsHidden:
		parts = append(parts, "Tool cards hidden.")
	}
	return strings.Join(parts, " ")
}
