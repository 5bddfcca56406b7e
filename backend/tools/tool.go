// Package tools defines what a model-facing tool is, the registry the agent
// dispatches through, and the environment a tool runs in. The tools
// themselves live in subpackages (bash, fs, search, todo, ask).
package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/session"
)

// Access is what a tool does to the world; permission modes decide by it.
type Access uint8

const (
	// AccessRead only observes (read, glob, grep). Never asks.
	AccessRead Access = iota
	// AccessEdit changes files (write, edit). A tool that is a Targeter
	// names them, and edits outside the workspace ask.
	AccessEdit
	// AccessExec runs programs (bash), inside the sandbox the gate grants
	// (Call.Sandbox).
	AccessExec
	// AccessInteract talks to the user or the plan (ask_user_question,
	// todo_write). Never asks.
	AccessInteract
	// AccessWebSearch sends a query to the configured search service
	// (web_search).
	AccessWebSearch
	// AccessNetwork reaches a host the model names (web_fetch).
	AccessNetwork
	// AccessExternal calls a tool outside tack, an MCP server's. It asks
	// unless the user trusts the tool (Spec.Trusted) or the mode lets a
	// tool that says it only reads (Spec.ReadOnlyHint) run.
	AccessExternal
)

// Scoped is a tool whose approvals for the session are remembered per
// scope, such as the domain web_fetch reaches, rather than for the tool as
// a whole.
type Scoped interface {
	Scope(args json.RawMessage) string
}

// Escalating is a command tool whose calls may ask to leave the sandbox.
type Escalating interface {
	Escalation(args json.RawMessage) Escalation
}

// Escalation is what a command asks for beyond the default sandbox.
type Escalation struct {
	// Kind is EscalateNetwork, EscalateOutside, or "" for nothing.
	Kind string
	// Justification is the model's one line on why.
	Justification string
}

// Escalation kinds.
const (
	// EscalateNetwork runs the command in the sandbox with network.
	EscalateNetwork = "network"
	// EscalateOutside runs the command without the sandbox.
	EscalateOutside = "outside"
)

// Spec is the static description of a tool.
type Spec struct {
	Name        string
	Description string
	// Schema is the JSON schema of the arguments object.
	Schema json.RawMessage
	// Guidance is one short paragraph for the system prompt.
	Guidance string
	// ParallelSafe tools may run concurrently with each other within a step.
	ParallelSafe bool
	Access       Access
	// ReadOnlyHint is an external tool's own claim that it does not change
	// anything (MCP's readOnlyHint annotation): a hint, which only the
	// modes that accept hints act on.
	ReadOnlyHint bool
	// Trusted marks an external tool the user's configuration trusts to
	// run without asking.
	Trusted bool
}

// Call is one invocation of a tool.
type Call struct {
	ID   string
	Args json.RawMessage
	// Turn is the session turn the call belongs to, for events it records.
	Turn int
	Env  *Env
	// Sandbox is what the permission gate granted the processes the call
	// starts; the zero value is the default sandbox.
	Sandbox Sandbox
}

// Sandbox is how far the processes of one call may reach (backend/sandbox
// confines them). The zero value is the default sandbox: writes in the
// workspace, temp and configured directories, no network.
type Sandbox struct {
	// Off runs the processes unconfined: full-access mode, an approved
	// escalation outside the sandbox, or a session without a sandbox
	// whose user approved the command.
	Off bool
	// ReadOnly forbids every write (read-only and plan modes).
	ReadOnly bool
	// Network lets the processes reach the network.
	Network bool
}

// Result is what a tool produced. Text is exactly what the model reads;
// errors read "Error: <message>" (use Errorf).
type Result struct {
	Text    string
	IsError bool
	Code    string
	Card    *card.Card
	// Images go to the model with the result (read of an image file).
	Images []session.ImageRef
	// Duration is how long Run took, as the agent that ran it timed it; 0
	// for a call that never ran.
	Duration time.Duration
}

// Failed reports the call's real outcome: an error, or a command that
// did not succeed (a non-zero exit, a signal, a timeout), which the model
// reads as a plain result.
func (r Result) Failed() bool {
	return r.IsError || r.Card != nil && r.Card.Terminal != nil && r.Card.Terminal.Failed()
}

// Errorf makes an error result in the model-facing format.
func Errorf(format string, args ...any) Result {
	return Result{Text: "Error: " + fmt.Sprintf(format, args...), IsError: true}
}

// Tool is a model-facing tool.
type Tool interface {
	Spec() Spec
	// Present is the card for a call before it has a result. It must be
	// pure: it is replayed when a session is resumed.
	Present(args json.RawMessage) card.Card
	// Run executes the call. It must return promptly when ctx is done.
	Run(ctx context.Context, call Call) Result
}

// Validator is a tool that can tell from a call, and the disk as it is
// now, that the call would fail: the call then fails with failure before
// hooks see it or the user is asked, as Claude Code's tools' validateInput
// does, so nobody is asked to allow an edit of a file the model has not
// read, or of text the file does not hold. Run checks again: the disk may
// change while the user decides.
type Validator interface {
	Validate(call Call) (failure Result, ok bool)
}

// Previewer is a tool that can show, before it runs, what a call would
// change on disk now (a diff numbered by the file's lines), for the user
// to decide on. ok is false when it cannot tell; Present's card stands
// then.
type Previewer interface {
	Preview(call Call) (c card.Card, ok bool)
}

// FileNamer is a tool whose cards name files. PresentIn is its Present
// with those files named as its results' cards name them: relative to
// cwd, the session's working directory, when under it. It must be pure,
// as Present.
type FileNamer interface {
	PresentIn(args json.RawMessage, cwd string) card.Card
}

// PresentIn is t's card for a call before it has a result, the files it
// names named from cwd when t is a FileNamer: the card a front door
// shows while the call runs keeps its title when the result's card
// completes it.
func PresentIn(t Tool, args json.RawMessage, cwd string) card.Card {
	if n, ok := t.(FileNamer); ok {
		return n.PresentIn(args, cwd)
	}
	return t.Present(args)
}

// Targeter is a tool that can say which files a call is about to change
// (absolute paths), so that checkpoints kept without git can save what
// those files held first, and edits outside the workspace can ask.
type Targeter interface {
	Targets(call Call) []string
}

// ReadTargeter is a tool that can say which files or directories a call
// reads (absolute, or relative to the call's working directory), so that
// permission rules on paths can bind it.
type ReadTargeter interface {
	ReadTargets(call Call) []string
}

// Delegator is a tool whose calls run other tools on the model's behalf
// (subagents): what they change, checkpoints count as tack's own doing, as
// for edits and commands.
type Delegator interface {
	Delegates() bool
}

// Env is what a running tool may use of its session.
type Env struct {
	SessionID string
	// Cwd is the session's working directory; relative paths resolve here.
	Cwd string
	// SpillDir is a private directory for full outputs too big to inline.
	SpillDir string
	// Interact asks the user questions. It may be nil in tests.
	Interact *interact.Broker
	// Record appends a session event (todo/write and the like).
	Record func(session.Data) error
	// Inject adds model-visible context to the session without waking the
	// agent (background task notices).
	Inject func(origin, text string)
	// Images keeps the images tools return; nil where none are kept.
	Images *images.Store
	// Vision says what the session's current model takes of images; nil
	// means no images.
	Vision func() Vision
	// Allowed are the tools the running turn may use without asking (a
	// custom command's allowed-tools): tool names, and Bash(prefix:*)
	// command prefixes.
	Allowed []string
	// Disallowed are the tools the running turn refuses whatever the mode
	// (print mode's --disallowed-tools), in the same forms.
	Disallowed []string
	// Progress shows a running call's card as it changes (a subagent's
	// steps); live only, the result's card is what the log keeps. It may
	// be nil.
	Progress func(callID string, c card.Card)
}

// Vision is what a model takes of images.
type Vision struct {
	Model  string
	Images bool
	// MaxSide is the longest side in pixels; larger images are scaled.
	MaxSide int
}
