package app

import (
	"context"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Backend is everything the app asks of the embedded backend. Update never
// calls it: every call is made inside a tea.Cmd, so a slow or blocked
// backend can never freeze the screen.
type Backend interface {
	SessionID() string
	// Header is the session log's header (id, cwd, model, creation).
	Header() session.Header
	// Subscribe returns the session so far (its projection and latest
	// transcript events) and the live events after it, with no gap or
	// overlap.
	Subscribe() (agent.Snapshot, Subscription)
	// History reads back at least n transcript events before seq before,
	// from the start of a step or turn, and whether earlier ones remain.
	History(before int64, n int) ([]session.Event, bool, error)
	Send(text string)
	Steer(text string)
	Cancel()
	Status() agent.Status
	AcceptsNextStep() bool
	Model() (string, llm.Effort)
	// LookupModel prices and sizes a model for the status row.
	LookupModel(id string) (llm.Model, bool)
	// Execute runs a slash command line; false means no such command.
	Execute(ctx context.Context, line string) (commands.Execution, bool)
	// ExecuteLocal logs a command line the app performs itself (a bare
	// /help opens the help overlay) as Execute would, settled as res;
	// false means no such command.
	ExecuteLocal(line string, res commands.Result) (commands.Execution, bool)
	// WaitRequests blocks until the pending questions and approvals may have
	// changed (it returns at once the first time) and returns them.
	WaitRequests(ctx context.Context, first bool) ([]*interact.Request, error)

	// PermissionLabel is the permission mode as the status row shows it:
	// "plan" while planning, else the mode's name.
	PermissionLabel() string
	// ProbeSandbox finds out whether the sandbox can confine commands,
	// unless that is known, and returns PermissionLabel then ("" if ctx
	// ends first). The first frame does not wait for it: the label's
	// sandbox state reads "…" until then.
	ProbeSandbox(ctx context.Context) string
	// CyclePermissions moves to the next permission mode (Shift+Tab) and
	// returns its label.
	CyclePermissions() (string, error)
	// Models lists the catalog for the model picker.
	Models() []llm.Model
	// SetModel switches model and effort from the next step on.
	SetModel(model string, effort llm.Effort) error
	// SlashCommands lists the commands, for completion and help.
	SlashCommands() []commands.Command
	// WaitCommands blocks until the commands differ from known (an MCP
	// server's prompts come and go with it) and returns them.
	WaitCommands(ctx context.Context, known []commands.Command) ([]commands.Command, error)
	// Sessions lists the sessions of this workspace, or of every
	// workspace when all is set, newest first.
	Sessions(all bool) ([]session.Summary, error)
	// Inject adds model-visible context for the next step or turn.
	Inject(origin, text string)
	// Files lists the workspace for @ completion: paths relative to it,
	// folders ending in "/", shallowest first.
	Files(ctx context.Context) ([]string, error)
	// Shell runs a command the user typed after `!` (launch.Session.Shell)
	// and returns its card; the command and its output reach the model as
	// context.
	Shell(ctx context.Context, command string) launch.ShellRun
	// PromptHistory is the prompts of the workspace's other sessions,
	// newest first, for Ctrl+R.
	PromptHistory(ctx context.Context) []string
	// StatusLine runs the user's status line command (Claude Code's
	// statusLine setting) with in and returns its rows and when to run it
	// again unasked; launch.ErrNoStatusLine when none is set.
	StatusLine(ctx context.Context, in hooks.StatusInput) (hooks.StatusRun, error)
}

// Subscription is a live event queue (*agent.Subscription).
type Subscription interface {
	// Wait returns every queued event, blocking until there is one; nil
	// events and a nil error mean the subscription ended.
	Wait(ctx context.Context) ([]agent.Event, error)
	Close()
}
