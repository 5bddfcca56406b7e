package hooks

import (
	"cmp"
	"context"
	"fmt"
	"strings"
)

// runAsync runs h, an async hook, in the background: nothing waits for
// it. Once it ends its run is recorded and its answer delivered.
func (r *Runner) runAsync(c caller, turn int, h Hook, in Input, tool, callID string) {
	r.bgMu.Lock()
	ctx := r.ctx
	if h.Rewake {
		ctx = r.wakers
	}
	r.bgMu.Unlock()
	r.background(func() {
		res := run(ctx, h, in, r.opts.Cwd, r.opts.Environ, judges{})
		if res.later != nil {
			res = res.later(ctx)
		}
		r.record(c, turn, tool, cmp.Or(in.Source, in.Reason, in.Trigger), callID, res)
		r.deliver(res)
		if h.Rewake && res.ExitCode == 2 && ctx.Err() == nil && r.opts.Wake != nil {
			r.opts.Wake(rewakeMessage(res))
		}
	})
}

// Cancelled ends the asyncRewake hooks running, as Claude Code does when
// the user cancels a turn: each would start another turn of its own once
// it exits 2. Other background hooks go on.
func (r *Runner) Cancelled() {
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	r.stopWakers()
	r.wakers, r.stopWakers = context.WithCancel(r.ctx)
}

// finishLater waits, in the background, for a hook that said on its
// first line that it goes on there ({"async": true}), and records and
// delivers its answer as an async hook's. Once the runner is closed it
// ends the hook at once.
func (r *Runner) finishLater(c caller, turn int, tool, source, callID string, later func(context.Context) Result) {
	finish := func() {
		res := later(r.ctx)
		r.record(c, turn, tool, source, callID, res)
		r.deliver(res)
	}
	if !r.background(finish) {
		finish()
	}
}

// rewakeMessage is what wakes the model for an asyncRewake hook that
// exited 2: its stderr, or its stdout when stderr was empty, as Claude
// Code wakes it.
func rewakeMessage(res Result) string {
	said := cmp.Or(res.stderr, res.Stdout, "(it printed nothing)")
	return fmt.Sprintf("A %s hook that ran in the background exited 2 and reports:\n%s", res.Hook.Event, said)
}

// deliver gives the model what an async hook answered, as Claude Code
// does at its next turn: the answer's systemMessage and additionalContext
// (the user is shown the systemMessage with the run). A decision in it
// came after the action it was about, which it can no longer change: it
// is only recorded.
func (r *Runner) deliver(res Result) {
	if r.opts.Inject == nil {
		return
	}
	if text := asyncContext(res); text != "" {
		r.opts.Inject(text)
	}
}

// asyncContext is what the model reads of an async hook's answer, naming
// its event, or "" when it answered neither a systemMessage nor an
// additionalContext.
func asyncContext(res Result) string {
	a := res.Answer
	if a == nil {
		return ""
	}
	var parts []string
	if m := res.message(); m != "" {
		parts = append(parts, m)
	}
	if a.HookSpecial != nil && strings.TrimSpace(a.HookSpecial.AdditionalContext) != "" {
		parts = append(parts, strings.TrimSpace(a.HookSpecial.AdditionalContext))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("A %s hook that ran in the background says:\n%s", res.Hook.Event, strings.Join(parts, "\n"))
}
