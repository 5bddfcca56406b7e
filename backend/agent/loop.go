package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// loop runs turns while there is input, until ctx ends.
func (a *Agent) loop(ctx context.Context) {
	defer close(a.done)
	a.primeCheckpoints(ctx)
	for {
		a.runJobs(ctx)
		a.mu.Lock()
		if len(a.jobs) > 0 {
			a.mu.Unlock()
			continue
		}
		in, have := a.takeInputLocked()
		// The status turns running in the same critical section that takes
		// the input, so WhenIdle never sees an empty inbox and an idle agent
		// while a turn is about to start.
		started := have && a.setStatusLocked(StatusRunning)
		a.mu.Unlock()
		if !have {
			a.flushInjected()
			a.setStatus(StatusIdle)
			select {
			case <-a.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if started {
			a.publish(StatusChanged{Status: StatusRunning})
		}
		a.publishInbox()
		a.runTurn(ctx, in)
	}
}

// takeInputLocked takes the next turn's prompt: every queued follow-up, for
// settle to join (the loop batches the messages that queued while it was
// busy into one turn, as seeds/stdio-ui-plugin.md says), else all steering
// joined. a.mu must be held.
func (a *Agent) takeInputLocked() (message, bool) {
	switch {
	case len(a.followUps) > 0:
		in := message{parts: a.followUps}
		a.followUps = nil
		a.turnOpts, a.queuedOpts = a.queuedOpts, TurnOptions{}
		return in, true
	case len(a.steering) > 0:
		prompt := strings.Join(a.steering, "\n\n")
		a.steering = nil
		a.turnOpts = TurnOptions{}
		return message{text: prompt}, true
	}
	return message{}, false
}

// turnState is what one turn accumulates while it runs.
type turnState struct {
	turn      int
	maxTokens bool
	repeat    repeatGuard
	// stopContinued counts the times stop hooks kept the turn going.
	stopContinued int
}

// settle makes the turn's input of the follow-ups taken for it: each
// deferred one expanded now (one that fails is told and left out), then
// all joined. Where a slash command made a message of what the user typed,
// typed joins what they typed. ok is false when nothing is left.
func (a *Agent) settle(ctx context.Context, in message) (message, bool) {
	if in.parts == nil {
		return in, true
	}
	var kept []message
	for _, m := range in.parts {
		if m.expand != nil {
			text, err := m.expand(ctx)
			if err != nil {
				a.Notify(Notice{Tone: NoticeError, Text: err.Error()})
				continue
			}
			m.text = text
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		return message{}, false
	}
	texts := make([]string, len(kept))
	for i, m := range kept {
		texts[i] = m.text
	}
	out := message{text: strings.Join(texts, "\n\n")}
	if slices.ContainsFunc(kept, func(m message) bool { return m.typed != "" }) {
		out.typed = strings.Join(inputs(kept), "\n\n")
	}
	return out, true
}

func (a *Agent) runTurn(parent context.Context, in message) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	a.mu.Lock()
	a.cancel = cancel
	a.closing = false
	a.inTurn = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.cancel = nil
		a.closing = false
		a.inTurn = false
		a.mu.Unlock()
	}()
	// A deferred message's shell commands may ask the user; Esc cancels
	// them as it cancels the turn.
	in, ok := a.settle(ctx, in)
	if !ok {
		return
	}
	prompt := in.text

	ts := &turnState{turn: a.turn() + 1}
	hookContext, block := a.promptHook(ctx, ts.turn, prompt)
	if block != "" {
		// The prompt never reaches the model; the turn ends at once, so
		// every front door sees it end, with the hook's reason, which is
		// the user's to read (Claude Code shows it too).
		a.record(session.TurnStart{Turn: ts.turn})
		a.record(session.TurnEnd{Turn: ts.turn, Reason: session.StopError, Error: &session.Failure{
			Kind: failureKindHook, Message: "a user_prompt_submit hook blocked the prompt; it was not sent to the model: " + block}})
		_ = a.sync()
		return
	}
	firstPrompt := a.projTitle() == ""
	a.record(session.TurnStart{Turn: ts.turn})
	model, _ := a.Model()
	imgs, imgErr := a.attach(prompt, model)
	a.record(session.UserMessage{Turn: ts.turn, Kind: session.KindPrompt, Text: prompt, Typed: in.typed, Images: imgs})
	if firstPrompt {
		a.record(session.Title{Title: titleFromPrompt(in.input()), Source: session.TitlePrompt})
	}
	if hookContext != "" {
		a.record(session.UserMessage{Turn: ts.turn, Kind: session.KindContext, Origin: HookOrigin, Text: hookContext})
	}
	if files := a.mentioned(ctx, ts.turn, prompt); files != "" {
		a.record(session.UserMessage{Turn: ts.turn, Kind: session.KindContext, Origin: MentionsOrigin, Text: files})
	}
	var end session.TurnEnd
	if imgErr != nil {
		end = session.TurnEnd{Turn: ts.turn, Reason: session.StopError, Error: &session.Failure{Kind: failureKindImages, Message: imgErr.Error()}}
	} else {
		a.checkpoint(ctx, ts.turn, 0, session.PhaseTurn)
		end = a.runSteps(ctx, ts)
	}
	if err := a.sync(); err != nil && end.Reason != session.StopError {
		end = failed(ts.turn, err)
	}
	a.publish(PhaseChanged{Phase: PhaseIdle})
	// The turn is over for whoever reads its end in the log: a job asked
	// for then (an Agent SDK's request after the result line) queues
	// behind what follows on this goroutine rather than being refused as
	// if the turn still ran. So the flag falls before the end is logged,
	// which subscribers hear of at once.
	a.mu.Lock()
	a.inTurn = false
	a.mu.Unlock()
	a.record(end)
	_ = a.sync()
	a.failedHook(parent, end)
	if end.Reason == session.StopCompleted {
		a.maybeRefineTitle(parent, prompt)
	}
	a.maybePrune(parent)
}

// runSteps runs model steps until the turn is done and returns its end.
func (a *Agent) runSteps(ctx context.Context, ts *turnState) session.TurnEnd {
	for step := 1; ; step++ {
		if a.overSteps(step) {
			return session.TurnEnd{Turn: ts.turn, Reason: session.StopMaxSteps}
		}
		a.flushSteering(ctx, ts.turn)
		a.flushInjected()
		a.flushNotes(ts.turn)
		// Tools that changed (MCP servers starting or changing their
		// lists) join here, between steps, never inside one.
		a.cfg.Tools.Refresh(ctx)
		model, effort := a.stepModel()
		if a.shouldCompact(model) {
			a.compact(ctx, ts.turn, CompactAuto, "")
		}
		a.record(session.StepStart{Turn: ts.turn, Step: step, Model: model, Effort: effort})
		if err := a.sync(); err != nil {
			a.record(session.StepEnd{Turn: ts.turn, Step: step})
			return failed(ts.turn, err)
		}
		st := newStepTimer(a.cfg.Now)
		msg, err := a.request(ctx, ts.turn, step, model, effort, st)
		if err != nil {
			cancelled := ctx.Err() != nil
			if cancelled && strings.TrimSpace(msg.Text) != "" {
				// The user saw this much of the answer; it stays, on
				// screen, in the log and in what the model reads next.
				msg.Turn, msg.Step = ts.turn, step
				a.record(msg)
			} else {
				a.publish(StepDiscarded{Turn: ts.turn, Step: step})
			}
			a.record(session.StepEnd{Turn: ts.turn, Step: step, Timing: st.timing()})
			if cancelled {
				return session.TurnEnd{Turn: ts.turn, Reason: session.StopAborted}
			}
			if a.fallBack(model, err) {
				continue
			}
			return failed(ts.turn, err)
		}
		a.record(msg)
		if msg.Finish == llm.FinishMaxTokens {
			ts.maxTokens = true
		}
		if len(msg.ToolCalls) > 0 {
			a.publish(PhaseChanged{Phase: PhaseTools})
			st.toolsStart(a.cfg.Broker.Waited())
			a.runTools(ctx, ts.turn, step, msg.ToolCalls)
			st.toolsEnd(a.cfg.Broker.Waited())
			a.guardRepeats(ts, msg.ToolCalls)
		}
		a.record(session.StepEnd{Turn: ts.turn, Step: step, Timing: st.timing()})
		end, stopped := a.takeHookStop(ts.turn)
		if ctx.Err() != nil {
			return session.TurnEnd{Turn: ts.turn, Reason: session.StopAborted}
		}
		if stopped {
			return end
		}
		if len(msg.ToolCalls) > 0 || a.stopHook(ctx, ts, msg.Text) || !a.takeClosing() {
			continue // tool results, a stop hook or steering need another request
		}
		reason := session.StopCompleted
		if ts.maxTokens {
			reason = session.StopMaxTokens
		}
		return session.TurnEnd{Turn: ts.turn, Reason: reason}
	}
}

// takeClosing marks the turn as closing unless steering is waiting, in which
// case the turn goes on with another step. It reports whether it closed.
func (a *Agent) takeClosing() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.steering) > 0 {
		return false
	}
	a.closing = true
	a.notifyLocked()
	return true
}

func failed(turn int, err error) session.TurnEnd {
	f := session.Failure{Kind: "error", Message: err.Error()}
	var le *llm.Error
	var lge *LogError
	switch {
	case errors.As(err, &lge):
		f.Kind = failureKindLog
	case errors.As(err, &le):
		f = session.Failure{Kind: string(le.Kind), Message: le.Message, Status: le.Status}
	}
	return session.TurnEnd{Turn: turn, Reason: session.StopError, Error: &f}
}

// flushSteering records waiting steering messages so they join this step,
// each with what it mentions.
func (a *Agent) flushSteering(ctx context.Context, turn int) {
	a.mu.Lock()
	msgs := a.steering
	a.steering = nil
	a.mu.Unlock()
	model, _ := a.Model()
	for _, m := range msgs {
		imgs, err := a.attach(m, model)
		a.record(session.SteeringMessage{Turn: turn, Text: m, Images: imgs})
		if err != nil {
			a.record(session.UserMessage{Turn: turn, Kind: session.KindContext, Origin: imagesOrigin, Text: "Note: " + err.Error()})
		}
		if files := a.mentioned(ctx, turn, m); files != "" {
			a.record(session.UserMessage{Turn: turn, Kind: session.KindContext, Origin: MentionsOrigin, Text: files})
		}
	}
	if len(msgs) > 0 {
		a.publishInbox()
	}
}

// flushInjected records context injected while a turn was running.
func (a *Agent) flushInjected() {
	a.mu.Lock()
	inj := a.injected
	a.injected = nil
	a.mu.Unlock()
	turn := a.turn()
	for _, in := range inj {
		a.record(session.UserMessage{Turn: turn, Kind: session.KindContext, Origin: in.origin, Text: in.text})
	}
}

func (a *Agent) projTitle() string {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.Title()
}

// titleFromPrompt is the first line of the prompt, cut at a word near 50
// characters.
func titleFromPrompt(p string) string {
	p = strings.TrimSpace(p)
	if i := strings.IndexByte(p, '\n'); i >= 0 {
		p = strings.TrimSpace(p[:i])
	}
	r := []rune(p)
	if len(r) <= 50 {
		return p
	}
	cut := string(r[:50])
	if i := strings.LastIndexByte(cut, ' '); i > 20 {
		cut = cut[:i]
	}
	return cut + "…"
}

// guardRepeats reminds the model, in the session, when it keeps making the
// same tool call.
func (a *Agent) guardRepeats(ts *turnState, calls []llm.ToolCall) {
	sigs := make([]callSig, len(calls))
	for i, c := range calls {
		sigs[i] = callSig{name: c.Name, args: c.Arguments}
	}
	if note := ts.repeat.observe(sigs); note != "" {
		a.record(session.UserMessage{Turn: ts.turn, Kind: session.KindContext, Origin: RepeatGuardOrigin, Text: note})
	}
}
