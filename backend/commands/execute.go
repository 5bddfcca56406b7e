package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// Execute runs line against a. It returns false, and records nothing, when
// line is not a command or names no command a sees; front doors then show
// UnknownMessage and never send the line to the model.
//
// Otherwise it records command/run, admits the attachments, runs the
// handler and records command/done, and returns the settled execution.
// Refusals (busy agent, rejected attachments), handler panics and ctx
// ending all settle as error results. When ctx ends the executor stops
// waiting; a handler that ignores ctx may keep running on its own. When
// command/run cannot be recorded the handler does not run and the result is
// an error.
func (r *Registry) Execute(ctx context.Context, a Agent, line string, attachments []Attachment) (Execution, bool) {
	return r.run(a, line, func(cmd Command, inv Invocation) Result { return r.settle(ctx, cmd, inv, attachments) })
}

// ExecuteLocal records a run that the front door performs itself (the full
// screen answers a bare /help or /model with an overlay) with Execute's
// lifecycle: false, and nothing recorded, for a line that names no
// command; else command/run, then command/done settled as res, whose text
// is what the log and a resumed screen show.
func (r *Registry) ExecuteLocal(a Agent, line string, res Result) (Execution, bool) {
	return r.run(a, line, func(Command, Invocation) Result { return res })
}

// run admits line, records command/run, settles it with settle and
// records command/done.
func (r *Registry) run(a Agent, line string, settle func(Command, Invocation) Result) (Execution, bool) {
	name, raw, ok := Parse(line)
	if !ok {
		return Execution{}, false
	}
	cmd, ok := r.Find(a.SessionID(), name)
	if !ok {
		return Execution{}, false
	}
	exec := Execution{ID: r.opts.NewID(), Name: name}
	run := session.CommandRun{ID: exec.ID, Name: name}
	if !cmd.OmitInput {
		run.Input = raw
	}
	if _, err := a.Record(run); err != nil {
		exec.Result = Failf("Command failed: record /%s in the session log: %v", name, err)
		return exec, true
	}
	exec.Result = settle(cmd, Invocation{ID: exec.ID, Name: name, Agent: a, RawInput: raw})
	if exec.Result.Kind != Error {
		exec.Result.Kind = Success
	}
	_, exec.LogErr = a.Record(session.CommandDone{ID: exec.ID, Outcome: string(exec.Result.Kind), Text: exec.Result.Text, Cards: exec.Result.Cards})
	return exec, true
}

// settle decides the result of an admitted command: a refusal, or what the
// handler returned.
func (r *Registry) settle(ctx context.Context, cmd Command, inv Invocation, attachments []Attachment) Result {
	if !cmd.WhileRunning && inv.Agent.Status() == agent.StatusRunning {
		return Fail(busyText(cmd))
	}
	admitted, refusal := r.admit(inv.Agent.SessionID(), cmd, attachments)
	if refusal != "" {
		return Fail(refusal)
	}
	inv.Attachments = admitted
	if ctx.Err() != nil {
		return Fail("command cancelled")
	}
	done := make(chan Result, 1)
	go func() { done <- runHandler(ctx, cmd.Handler, inv) }()
	select {
	case res := <-done:
		if ctx.Err() != nil {
			// the handler returned because ctx ended: a cancellation, not
			// its own outcome, whichever the select saw first
			return Fail("command cancelled")
		}
		return res
	case <-ctx.Done():
		return Fail("command cancelled")
	}
}

func runHandler(ctx context.Context, h Handler, inv Invocation) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = Failf("Command failed: %v", p)
		}
	}()
	return h(ctx, inv)
}

func busyText(cmd Command) string {
	if cmd.BusyText != "" {
		return cmd.BusyText
	}
	return fmt.Sprintf("/%s requires the current turn to finish or be cancelled first.", cmd.Name)
}

// admit checks attachments against the command's declaration and returns
// the admitted ones in the user's order, or the reason to refuse them all.
func (r *Registry) admit(sessionID string, cmd Command, attachments []Attachment) ([]Attachment, string) {
	if len(attachments) == 0 {
		return nil, ""
	}
	spec := cmd.Input.Attachments
	if !spec.Images && !spec.Files {
		return nil, fmt.Sprintf("/%s does not accept attachments.", cmd.Name)
	}
	images := 0
	for _, att := range attachments {
		switch att.Kind {
		case AttachImage:
			if !spec.Images {
				return nil, fmt.Sprintf("/%s does not accept images.", cmd.Name)
			}
			if len(att.Data) == 0 || !strings.HasPrefix(att.MIME, "image/") {
				return nil, fmt.Sprintf("Attachment %q is not an image; attach an image file.", att.Name)
			}
			images++
		case AttachFile:
			if !spec.Files {
				return nil, fmt.Sprintf("/%s does not accept files.", cmd.Name)
			}
			if r.opts.Receipts == nil || att.Receipt == "" || !r.opts.Receipts(sessionID, att.Receipt) {
				return nil, fmt.Sprintf("Unknown file receipt %q for %q; attach the file again.", att.Receipt, att.Name)
			}
		default:
			return nil, fmt.Sprintf("Attachment %q has unknown kind %q.", att.Name, att.Kind)
		}
	}
	if spec.MaxImages > 0 && images > spec.MaxImages {
		return nil, fmt.Sprintf("Too many images: %d attached, /%s accepts at most %d.", images, cmd.Name, spec.MaxImages)
	}
	return slices.Clone(attachments), ""
}
