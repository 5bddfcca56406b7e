package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// bashTool runs one command, in the foreground or as a background task.
type bashTool struct{ ts *Tools }

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The command to run with bash -c."},
    "description": {"type": "string", "description": "What the command does, in active voice, 5-10 words (shown to the user; no effect on execution). Examples: \"ls\" -> \"List files in current directory\"; \"git status\" -> \"Show working tree status\"."},
    "timeoutMs": {"type": "number", "description": "Timeout in milliseconds (default %[1]d, at most %[2]d; timeout is taken too). Ignored with run_in_background."},
    "workdir": {"type": "string", "description": "Directory to run in. Defaults to the session's working directory; a relative path is resolved against it."},
    "run_in_background": {"type": "boolean", "description": "Start the command as a background task and return its id at once. No timeout applies."},
    "sandbox": {"type": "string", "enum": ["network", "outside"], "description": "Ask to leave the sandbox for this command: \"network\" to reach the network, \"outside\" to run without the sandbox (writes anywhere). The user is asked first. Leave it out for everything else."},
    "justification": {"type": "string", "description": "With sandbox: one line telling the user why the command needs it."}
  },
  "required": ["command", "description"],
  "additionalProperties": false
}`

func (b bashTool) Spec() tools.Spec {
	def, max := b.ts.opts.DefaultTimeout.Milliseconds(), b.ts.opts.MaxTimeout.Milliseconds()
	return tools.Spec{
		Name:        "bash",
		Description: b.ts.bashProse().Description,
		Schema:      json.RawMessage(fmt.Sprintf(bashSchema, def, max)),
		Guidance:    b.ts.bashProse().Guidance,
		Access:      tools.AccessExec,
	}
}

// Present is the terminal card of a call: command, description and the
// workdir the model gave (the session cwd is not known here).
func (bashTool) Present(args json.RawMessage) card.Card {
	var a struct {
		Command     string `json:"command"`
		Description string `json:"description"`
		Workdir     string `json:"workdir"`
	}
	_ = json.Unmarshal(args, &a)
	return card.Card{
		Kind:        card.Terminal,
		Title:       a.Command,
		Label:       "Bash",
		Subject:     a.Command,
		Description: a.Description,
		Terminal:    &card.TerminalView{Command: a.Command, Cwd: a.Workdir},
	}
}

func (b bashTool) Run(ctx context.Context, call tools.Call) tools.Result {
	a, err := parseBashArgs(call.Args)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	env := call.Env
	if env == nil {
		env = &tools.Env{}
	}
	spec := b.ts.spec(a, env)
	spec.Sandbox = call.Sandbox
	if a.Background {
		return b.ts.startTask(a, spec, env)
	}
	r, failed := b.runOnce(ctx, call, env, spec)
	if failed != nil {
		return *failed
	}
	ref := b.ts.refusal(spec, r)
	if ref.Kind == "" {
		return b.shape(call, spec, r, "", "")
	}
	// The user is asked to let a failed run out; a run that succeeded
	// all the same (the refusal was in a pipe's earlier command) is only
	// marked, for the model to ask if it needs to.
	ran := r.outcome.ExitCode == 0 && r.outcome.Signal == ""
	var declined error
	if kind := escalation(ref); kind != "" && !ran && b.ts.opts.Escalator != nil {
		grant, err := b.ts.opts.Escalator.Escalate(ctx, b, call, tools.Escalation{Kind: kind, Justification: "the sandbox refused " + ref.Detail})
		if err == nil {
			spec.Sandbox = grant
			again, failed := b.runOnce(ctx, call, env, spec)
			if failed != nil {
				return *failed
			}
			return b.shape(call, spec, again, rerunNote(ref, grant), "")
		}
		declined = err
	}
	res := b.shape(call, spec, r, "", cardRefusal(ref, declined))
	res.Text += "\n" + refusalMarker(ref, declined)
	return res
}

// runOnce runs spec in the foreground, showing its output on the card as
// it comes through env, or returns the error result of a command that
// could not start or was aborted (with the card of what it printed until
// then).
func (b bashTool) runOnce(ctx context.Context, call tools.Call, env *tools.Env, spec Spec) (result, *tools.Result) {
	proc, err := b.ts.start(spec)
	if err != nil {
		res := tools.Errorf("%v", err)
		return result{}, &res
	}
	c := b.Present(call.Args)
	c.Terminal.Sandbox = sandboxLabel(spec.Sandbox)
	var show func(card.Card)
	if env.Progress != nil {
		show = func(live card.Card) { env.Progress(call.ID, live) }
	}
	if watch(ctx, proc, c, show) {
		res := tools.Errorf("tool call aborted")
		c.Terminal = terminalView(c.Terminal.Command, c.Terminal.Cwd, result{stdout: proc.Stdout().Tail(), stderr: proc.Stderr().Tail()})
		c.Terminal.ExitCode, c.Terminal.Interrupted = nil, true
		res.Card = &c
		return result{}, &res
	}
	return result{stdout: proc.Stdout().Tail(), stderr: proc.Stderr().Tail(), outcome: proc.Outcome()}, nil
}

// shape is the result of a finished run: its text after note, and the
// card with the grant it ran under and the refusal, if any.
func (b bashTool) shape(call tools.Call, spec Spec, r result, note, refusal string) tools.Result {
	c := b.Present(call.Args)
	c.Terminal = terminalView(c.Terminal.Command, c.Terminal.Cwd, r)
	c.Terminal.Sandbox = sandboxLabel(spec.Sandbox)
	c.Terminal.Refusal = refusal
	return tools.Result{Text: note + render(r), Card: &c}
}

// terminalView is the result card: the output the model saw without its
// markers, and the exit status from the outcome itself. A stream whose
// start was not kept begins at its first whole line, and the card counts
// the lines before it and names the files that hold them. cwd is the
// workdir the model gave, if any: the session's own goes without saying.
func terminalView(command, cwd string, r result) *card.TerminalView {
	out, outDropped := wholeLines(r.stdout)
	errs, errDropped := wholeLines(r.stderr)
	v := &card.TerminalView{
		Command:      command,
		Cwd:          cwd,
		Output:       renderBody(out, errs),
		Signal:       r.outcome.Signal,
		TimedOut:     r.outcome.TimedOut,
		DroppedLines: outDropped + errDropped,
	}
	for _, c := range []Capture{r.stdout, r.stderr} {
		if c.Truncated && c.SpillPath != "" {
			v.Spill = append(v.Spill, c.SpillPath)
		}
	}
	if r.outcome.Signal == "" {
		code := r.outcome.ExitCode
		v.ExitCode = &code
	}
	return v
}

// progressEvery is how often a running command's card shows its output
// so far, when there is new output to show.
const progressEvery = 250 * time.Millisecond

// watch waits for p to end, killing it if ctx ends first, and while it
// runs shows the output so far on the call's card c through show (when it
// is not nil) each time some was written since the last look.
func watch(ctx context.Context, p Process, c card.Card, show func(card.Card)) (aborted bool) {
	var tick <-chan time.Time // nil, which never fires, when nothing shows progress
	if show != nil {
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		tick = t.C
	}
	var seen int64
	for {
		select {
		case <-p.Done():
			return false
		case <-ctx.Done():
			p.Kill()
			<-p.Done()
			return true
		case <-tick:
			n := p.Stdout().Total() + p.Stderr().Total()
			if n == seen {
				continue
			}
			seen = n
			live := c
			live.Terminal = terminalView(c.Terminal.Command, c.Terminal.Cwd,
				result{stdout: p.Stdout().Tail(), stderr: p.Stderr().Tail()})
			live.Terminal.ExitCode = nil
			show(live)
		}
	}
}

// wholeLines is a capture's kept text from its first whole line, and how
// many lines of the stream come before that.
func wholeLines(c Capture) (string, int) {
	if !c.Truncated {
		return c.Text, 0
	}
	text := c.Text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	} else {
		text = ""
	}
	return text, int(c.Lines) - strings.Count(text, "\n")
}
