package agent

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// request makes the step's model call, retrying as the policy allows, and
// returns the settled assistant message.
func (a *Agent) request(ctx context.Context, turn, step int, model string, effort llm.Effort, st *stepTimer) (session.AssistantMessage, error) {
	req, err := a.buildRequest(model, effort)
	if err != nil {
		return session.AssistantMessage{}, err
	}
	compacted := false
	for attempt := 1; ; attempt++ {
		a.publish(PhaseChanged{Phase: PhaseModelWait})
		msg, streamed, err := a.stream(ctx, req, turn, step, st)
		if err == nil {
			msg.Turn, msg.Step = turn, step
			return msg, nil
		}
		if ctx.Err() != nil {
			return msg, ctx.Err()
		}
		var le *llm.Error
		if !errors.As(err, &le) {
			le = &llm.Error{Kind: llm.ErrTransport, Message: err.Error(), Err: err}
		}
		if fitOutput(&req, le) {
			a.mu.Lock()
			if a.unbounded == nil {
				a.unbounded = map[string]bool{}
			}
			a.unbounded[model] = true
			a.mu.Unlock()
			if streamed {
				a.publish(StepDiscarded{Turn: turn, Step: step})
			}
			attempt--
			continue
		}
		if le.Kind == llm.ErrContextOverflow {
			// Summarise the history and try once more; a second overflow
			// ends the turn.
			if compacted {
				return msg, overflowAfter(le, "even after compaction", nil)
			}
			compacted = true
			if streamed {
				a.publish(StepDiscarded{Turn: turn, Step: step})
			}
			if _, err := a.compact(ctx, turn, CompactAuto, ""); err != nil {
				if ctx.Err() != nil {
					return msg, ctx.Err()
				}
				if errors.Is(err, ErrNothingToCompact) {
					return msg, tooLargeAlone(le)
				}
				return msg, overflowAfter(le, "and compacting it failed", err)
			}
			if req, err = a.buildRequest(model, effort); err != nil {
				return msg, err
			}
			attempt--
			continue
		}
		delay, ok := a.cfg.Retry.Delay(attempt, le)
		if !ok && le.Retryable() && a.cfg.Retry.Max > 0 {
			return msg, a.cfg.Retry.Exhausted(le)
		}
		if !ok {
			return msg, le
		}
		if streamed {
			a.publish(StepDiscarded{Turn: turn, Step: step})
		}
		a.record(session.Retry{
			Turn: turn, Step: step, Attempt: attempt, Max: a.cfg.Retry.Max, DelayMs: delay.Milliseconds(),
			Failure: session.Failure{Kind: string(le.Kind), Message: le.Message, Status: le.Status},
		})
		if err := a.cfg.Sleep(ctx, delay); err != nil {
			return msg, err
		}
	}
}

// fitOutput lowers the request's output bound to what the server said its
// window leaves beside the prompt, and reports whether it did: the request
// is then worth sending again at once.
func fitOutput(req *llm.Request, le *llm.Error) bool {
	if le.MaxOutput <= 0 || req.MaxTokens != 0 && req.MaxTokens <= le.MaxOutput {
		return false
	}
	req.MaxTokens = le.MaxOutput
	return true
}

// tooLargeAlone rewords an overflow with no history to compact: what was
// just sent is itself too large.
func tooLargeAlone(le *llm.Error) *llm.Error {
	e := *le
	e.Err = le
	e.Message = "the request does not fit the model's context window and there is no earlier history to compact; " +
		"send less at once (a shorter message, fewer or smaller files), or switch to a model with a larger window with /model"
	return &e
}

// overflowAfter rewords a context overflow that compaction could not cure,
// so the user is not sent to /compact again.
func overflowAfter(le *llm.Error, what string, cause error) *llm.Error {
	e := *le
	e.Err = le
	if cause != nil {
		what += " (" + cause.Error() + ")"
	}
	e.Message = "the conversation does not fit the model's context window " + what +
		"; start a new session with /new, or switch to a model with a larger window with /model"
	return &e
}

// buildRequest is the request of a step: the system prompt and the surface.
// The first request after a resume reads the surface's messages back from
// the log.
func (a *Agent) buildRequest(model string, effort llm.Effort) (llm.Request, error) {
	system := a.System()
	a.logMu.Lock()
	surface, err := a.proj.Surface(a.cfg.Log)
	a.logMu.Unlock()
	if err != nil {
		return llm.Request{}, err
	}
	msgs := make([]llm.Message, 0, len(surface)+1)
	if system != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: system})
	}
	msgs = append(msgs, a.withImages(surface, model)...)
	// The output bound is sent only when the catalog knows the model's:
	// a guess can exceed what a small local window holds beside the
	// prompt, and vLLM refuses such a request (vllm#20409).
	var maxTokens int
	if m, ok := a.cfg.Catalog.Lookup(model); ok {
		maxTokens = m.MaxOutput
	}
	a.mu.Lock()
	if a.unbounded[model] {
		maxTokens = 0
	}
	a.mu.Unlock()
	return llm.Request{
		Model:     model,
		Effort:    effort,
		MaxTokens: maxTokens,
		Messages:  msgs,
		Tools:     a.cfg.Tools.Specs(),
		SessionID: a.SessionID(),
	}, nil
}

// stream runs one attempt, publishing deltas as they arrive. streamed
// reports whether any delta was published.
func (a *Agent) stream(ctx context.Context, req llm.Request, turn, step int, st *stepTimer) (msg session.AssistantMessage, streamed bool, err error) {
	s, err := a.cfg.Provider.Stream(ctx, req)
	if err != nil {
		return msg, false, err
	}
	defer s.Close()
	var acc llm.Accumulator
	for {
		c, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return partial(&acc), streamed, err
			}
			return msg, streamed, err
		}
		acc.Add(c)
		switch c.Kind {
		case llm.ChunkReasoning:
			if st.mark(PhaseThinking) {
				a.publish(PhaseChanged{Phase: PhaseThinking})
			}
		case llm.ChunkText, llm.ChunkToolCall:
			if st.mark(PhaseResponding) {
				a.publish(PhaseChanged{Phase: PhaseResponding})
			}
		default:
			continue
		}
		streamed = true
		a.publish(Delta{Turn: turn, Step: step, Chunk: c})
	}
	st.streamEnd()
	m := acc.Message()
	usage, _ := acc.Usage()
	return session.AssistantMessage{
		Text: m.Content, Reasoning: m.Reasoning, ToolCalls: m.ToolCalls,
		Usage: usage, Finish: acc.Finish(), Notes: acc.Notes(),
	}, streamed, nil
}

// partial is what a cancelled stream had said: its text and reasoning,
// without the tool calls, which never ran. A stream cancelled before any
// text gives a message without text, which is not kept.
func partial(acc *llm.Accumulator) session.AssistantMessage {
	m := acc.Message()
	usage, _ := acc.Usage()
	return session.AssistantMessage{Text: m.Content, Reasoning: m.Reasoning, Usage: usage, Finish: llm.FinishCancelled}
}

// stepTimer splits a step's wall time into model wait, thinking, response
// and tools.
type stepTimer struct {
	now                            func() time.Time
	start, phaseAt, toolsAt        time.Time
	waitedAt                       time.Duration
	phase                          Phase
	wait, thinking, response, tool time.Duration
}

func newStepTimer(now func() time.Time) *stepTimer {
	t := now()
	return &stepTimer{now: now, start: t, phaseAt: t, phase: PhaseModelWait}
}

// mark moves to phase p and reports whether it changed.
func (t *stepTimer) mark(p Phase) bool {
	if t.phase == p {
		return false
	}
	t.close()
	t.phase = p
	return true
}

func (t *stepTimer) close() {
	now := t.now()
	d := now.Sub(t.phaseAt)
	switch t.phase {
	case PhaseModelWait:
		t.wait += d
	case PhaseThinking:
		t.thinking += d
	case PhaseResponding:
		t.response += d
	}
	t.phaseAt = now
}

func (t *stepTimer) streamEnd() { t.close(); t.phase = PhaseIdle }

// toolsStart and toolsEnd bracket a step's tool calls; waited is the
// user's answering time so far, which tool time leaves out.
func (t *stepTimer) toolsStart(waited time.Duration) { t.toolsAt, t.waitedAt = t.now(), waited }
func (t *stepTimer) toolsEnd(waited time.Duration) {
	t.tool += max(t.now().Sub(t.toolsAt)-(waited-t.waitedAt), 0)
}

func (t *stepTimer) timing() session.StepTiming {
	if t.phase != PhaseIdle {
		t.streamEnd()
	}
	return session.StepTiming{
		ModelWait: t.wait.Milliseconds(), Thinking: t.thinking.Milliseconds(),
		Response: t.response.Milliseconds(), Tools: t.tool.Milliseconds(),
	}
}
