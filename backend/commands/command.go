// Package commands is the slash-command registry: commands typed as
// `/name [input]` that run directly against the receiving agent without
// creating a model message. Commands live in a global layer and in
// agent-scoped layers that shadow it; every execution is recorded in the
// session log as a command/run and command/done pair, and its result is
// rendered by the front door, never entering model history.
package commands

import (
	"context"
	"fmt"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
)

// Agent is what the executor needs of the receiving agent.
type Agent interface {
	// SessionID keys the agent-scoped layer.
	SessionID() string
	Status() agent.Status
	// Record appends a log-only event to the session log.
	Record(d session.Data) (session.Event, error)
}

// Command is one slash command.
type Command struct {
	// Name is what follows the slash: lowercase letters, digits, '_', '-'
	// and ':'.
	Name        string
	Description string
	// Source says where a command that is not built in comes from, as
	// discovery shows it: "project", "user", "skill".
	Source string
	Input  Input
	// WhileRunning lets the command run while the agent is running. When it
	// is false the executor refuses with BusyText instead of calling Handler.
	WhileRunning bool
	// BusyText replaces the default refusal
	// "/<name> requires the current turn to finish or be cancelled first."
	BusyText string
	// OmitInput keeps the raw input out of command/run, for commands whose
	// own domain event already records it.
	OmitInput bool
	// Hidden keeps a command that runs out of discovery (/help, menus,
	// the init line): the second name of a command listed by its first.
	Hidden  bool
	Handler Handler
}

// Summary is the description as discovery shows it: with the source of
// a command that is not built in.
func (c Command) Summary() string {
	if c.Source == "" {
		return c.Description
	}
	return c.Description + " (" + c.Source + ")"
}

// Input describes what a command accepts after its name.
type Input struct {
	// Hint is shown in discovery, e.g. "[file]" or "<message>".
	Hint        string
	Attachments AttachmentSpec
}

// AttachmentSpec declares which composer attachments a command accepts.
// The zero value accepts none.
type AttachmentSpec struct {
	Images bool
	Files  bool
	// MaxImages bounds one batch of images; 0 means no bound.
	MaxImages int
}

// Handler runs a command. It should stop when ctx ends; the executor stops
// waiting for it either way.
type Handler func(ctx context.Context, inv Invocation) Result

// Invocation is one run of a command.
type Invocation struct {
	// ID pairs the command/run and command/done events.
	ID       string
	Name     string
	Agent    Agent
	RawInput string
	// Attachments are the admitted attachments in the user's order. The
	// handler owns the slice.
	Attachments []Attachment
}

// Typed is the command line the invocation was typed as.
func (inv Invocation) Typed() string { return "/" + inv.Name + inv.RawInput }

// AttachmentKind says whether an Attachment is an image or a file.
type AttachmentKind string

const (
	AttachImage AttachmentKind = "image"
	AttachFile  AttachmentKind = "file"
)

// Attachment is an image or file sent along with a command line. Images
// carry their bytes; files cite the receipt of a finished upload.
type Attachment struct {
	Kind    AttachmentKind
	Name    string
	MIME    string
	Data    []byte
	Receipt string
}

// ResultKind is the outcome of a command.
type ResultKind string

const (
	Success ResultKind = "success"
	Error   ResultKind = "error"
)

// Result is what a command settles with: text for the front door to show and
// an optional action for it to perform. A Kind other than Error counts as
// Success.
type Result struct {
	Kind ResultKind
	Text string
	// Cards are shown after the text, as tool cards are.
	Cards  []card.Card
	Action Action
}

// Succeed is a success result with text.
func Succeed(text string) Result { return Result{Kind: Success, Text: text} }

// Fail is an error result with text.
func Fail(text string) Result { return Result{Kind: Error, Text: text} }

// Failf is an error result with formatted text.
func Failf(format string, args ...any) Result { return Fail(fmt.Sprintf(format, args...)) }

// Execution is a settled command run.
type Execution struct {
	ID     string
	Name   string
	Result Result
	// LogErr is set when command/done could not be recorded; the result
	// stands, but the log lacks its settlement.
	LogErr error
}
