package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/spill"
)

// maxInlineResult is the size above which a tool's text result is spilled
// to a file and replaced by a preview.
const maxInlineResult = 50_000

// dispatch is one requested tool call on its way to a result.
type dispatch struct {
	call   llm.ToolCall
	tool   tools.Tool
	args   json.RawMessage
	early  *tools.Result // set when the call fails before running
	result tools.Result
}

// runTools runs a step's tool calls and records their results in the
// model's order. Consecutive parallel-safe calls run together in a bounded
// pool; any other call runs alone.
func (a *Agent) runTools(ctx context.Context, turn, step int, calls []llm.ToolCall) {
	env := a.toolEnv()
	for i := 0; i < len(calls); {
		if ctx.Err() != nil {
			a.abortUndispatched(turn, step, calls[i:])
			return
		}
		batch := []*dispatch{a.prepare(calls[i])}
		i++
		for batch[0].parallel() && i < len(calls) {
			d := a.prepare(calls[i])
			if !d.parallel() {
				break
			}
			batch = append(batch, d)
			i++
		}
		a.runBatch(ctx, turn, step, env, batch)
	}
}

func (d *dispatch) parallel() bool {
	return d.early == nil && d.tool.Spec().ParallelSafe
}

func (a *Agent) prepare(c llm.ToolCall) *dispatch {
	d := &dispatch{call: c, args: json.RawMessage(c.Arguments)}
	if len(d.args) == 0 {
		d.args = json.RawMessage("{}")
	}
	t, ok := a.cfg.Tools.Get(c.Name)
	if name := tools.CallName(c.Name); !ok && name != c.Name {
		if t, ok = a.cfg.Tools.Get(name); ok {
			d.call.Name = name
		}
	}
	switch {
	case !ok:
		r := tools.Errorf("unknown tool %q; available tools: %v", c.Name, a.cfg.Tools.Names())
		r.Code = session.CodeUnknownTool
		d.early = &r
	case !json.Valid(d.args):
		r := tools.Errorf("invalid arguments for %s: not valid JSON; send one JSON object matching the tool's schema", c.Name)
		r.Code = session.CodeInvalidArgs
		d.early = &r
	case !isObject(d.args):
		r := tools.Errorf("invalid arguments for %s: expected a JSON object, got %s; send one JSON object matching the tool's schema", c.Name, jsonKind(d.args))
		r.Code = session.CodeInvalidArgs
		d.early = &r
	}
	d.tool = t
	return d
}

// isObject reports whether valid JSON v is an object, the only argument
// shape a tool accepts.
func isObject(v json.RawMessage) bool {
	t := bytes.TrimLeft(v, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// jsonKind names the kind of valid JSON value v, for error messages.
func jsonKind(v json.RawMessage) string {
	switch t := bytes.TrimLeft(v, " \t\r\n"); t[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

func (a *Agent) runBatch(ctx context.Context, turn, step int, env *tools.Env, batch []*dispatch) {
	for _, d := range batch {
		tc := session.ToolCall{Turn: turn, Step: step, CallID: d.call.ID, Name: d.call.Name, Arguments: d.call.Arguments}
		if d.tool != nil {
			tc.Card = tools.PresentIn(d.tool, d.args, env.Cwd)
		}
		a.record(tc)
	}
	if err := a.sync(); err != nil {
		// A call whose record is not durable must not run: after a crash
		// nothing would say it might have.
		for _, d := range batch {
			if d.early == nil {
				r := tools.Errorf("%s was not run: %v", d.call.Name, err)
				d.early = &r
			}
		}
	}
	bracket := changesFiles(batch)
	if bracket {
		a.checkpoint(ctx, turn, step, session.PhaseTools)
	}
	sem := make(chan struct{}, a.cfg.MaxParallel)
	var wg sync.WaitGroup
	for _, d := range batch {
		if d.early != nil {
			d.result = *d.early
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			d.result = a.runOne(ctx, turn, env, d)
		}()
	}
	wg.Wait()
	for _, d := range batch {
		r := d.result
		a.record(session.ToolResult{
			Turn: turn, Step: step, CallID: d.call.ID, Name: d.call.Name,
			Text: r.Text, IsError: r.IsError, Code: r.Code, Card: r.Card, Images: r.Images,
			DurationMs: r.Duration.Milliseconds(),
		})
	}
	if bracket {
		// Even a cancelled batch may have changed files.
		a.checkpoint(context.WithoutCancel(ctx), turn, step, session.PhaseToolsDone)
	}
}

// runOne validates, authorizes and runs one call. A panicking tool becomes an error
// result instead of taking the process down.
func (a *Agent) runOne(ctx context.Context, turn int, env *tools.Env, d *dispatch) (r tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			r = tools.Errorf("tool %s failed: %v", d.call.Name, p)
		}
	}()
	call := tools.Call{ID: d.call.ID, Args: d.args, Turn: turn, Env: env}
	if v, ok := d.tool.(tools.Validator); ok {
		if failure, ok := v.Validate(call); !ok {
			return failure
		}
	}
	blocked, approved := a.beforeTool(ctx, turn, d)
	if blocked != nil {
		return *blocked
	}
	call.Args = d.args // as a hook may have rewritten them
	switch {
	case a.cfg.Gate == nil:
	case approved:
		call.Sandbox = a.cfg.Gate.Grant(d.tool)
	default:
		grant, err := a.cfg.Gate.Authorize(ctx, d.tool, call)
		if err != nil {
			r := tools.Errorf("%s", err.Error())
			r.Code = session.CodeDenied
			return r
		}
		call.Sandbox = grant
	}
	if err := a.sync(); err != nil {
		return tools.Errorf("%s was not run: %v", d.call.Name, err)
	}
	a.preserve(d, call)
	start := a.cfg.Now()
	r = d.tool.Run(ctx, call)
	r.Duration = a.cfg.Now().Sub(start)
	r = a.afterTool(ctx, turn, d, r)
	if d.call.Name != "read" && len(r.Text) > maxInlineResult && a.cfg.SpillDir != "" {
		r.Text, _ = spill.Spill(a.cfg.SpillDir, d.call.Name, r.Text, maxInlineResult)
	}
	return r
}

// abortUndispatched answers calls that never ran because the turn was
// cancelled, so every call in the history has a result.
func (a *Agent) abortUndispatched(turn, step int, calls []llm.ToolCall) {
	for _, c := range calls {
		a.record(session.ToolResult{
			Turn: turn, Step: step, CallID: c.ID, Name: c.Name,
			Text: "Error: tool call aborted before dispatch", IsError: true,
			Code: session.CodeAbortedBeforeDispatch,
		})
	}
}

func (a *Agent) toolEnv() *tools.Env {
	allowed, disallowed := a.allowedTools()
	return &tools.Env{
		SessionID: a.SessionID(),
		Cwd:       a.cfg.Cwd,
		SpillDir:  a.cfg.SpillDir,
		Interact:  a.cfg.Broker,
		Record: func(d session.Data) error {
			_, err := a.record(d)
			return err
		},
		Inject: a.Inject,
		Images: a.cfg.Images,
		Vision: func() tools.Vision {
			model, _ := a.stepModel()
			return a.vision(model)
		},
		Allowed:    allowed,
		Disallowed: disallowed,
		Progress:   func(callID string, c card.Card) { a.publish(ToolProgress{CallID: callID, Card: c}) },
	}
}
