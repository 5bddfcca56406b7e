// Package linemode holds tack's plain-text front doors: the readline line
// mode for pipes and plain terminals, and the one-shot print mode.
package linemode

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// PrintOptions configures one print-mode run.
type PrintOptions struct {
	Task   string
	Format string // "text", "json" or "stream-json"
	Stdout io.Writer
	Stderr io.Writer
	Now    func() time.Time
}

// PrintResult is the record json and stream-json print last.
type PrintResult struct {
	Type       string     `json:"type"`
	Success    bool       `json:"success"`
	SessionID  string     `json:"session_id"`
	Result     string     `json:"result"`
	StopReason string     `json:"stop_reason"`
	Usage      PrintUsage `json:"usage"`
	Cost       float64    `json:"cost"`
	DurationMs int64      `json:"duration_ms"`
	NumSteps   int        `json:"num_steps"`
	// Error says why the turn did not complete; null when it did.
	Error *string `json:"error"`
}

// PrintUsage is token usage in the result record.
type PrintUsage struct {
	Input     int `json:"input_tokens"`
	CacheHit  int `json:"cache_hit_tokens"`
	Output    int `json:"output_tokens"`
	Reasoning int `json:"reasoning_tokens"`
}

// Print runs one task on ag and writes the answer (text) or the result
// record (json, stream-json) to Stdout, progress to Stderr. It returns when
// the turn has ended or ctx is done (then the turn is cancelled first). The
// result says whether the turn completed.
func Print(ctx context.Context, ag *agent.Agent, o PrintOptions) PrintResult {
	if o.Now == nil {
		o.Now = time.Now
	}
	start := o.Now()
	past, sub := ag.Subscribe()
	defer sub.Close()
	p := &printer{o: o, ag: ag, lastPast: -1}
	if len(past) > 0 {
		p.lastPast = past[len(past)-1].Seq
	}
	ag.Send(o.Task)
	res := p.follow(ctx, sub)
	res.DurationMs = o.Now().Sub(start).Milliseconds()
	res.write(o)
	return res
}

type printer struct {
	o  PrintOptions
	ag *agent.Agent
	// lastPast is the sequence number of the last event before the task.
	lastPast int64
	turn     int
	steps    int
	answer   string
	usage    llm.Usage
	cost     float64
}

// follow consumes events until the task's turn ends. When ctx ends it
// cancels the turn and waits at most shutdownGrace for its end to be
// recorded.
func (p *printer) follow(ctx context.Context, sub *agent.Subscription) PrintResult {
	wait := ctx
	for {
		evs, err := sub.Wait(wait)
		switch {
		case err != nil && wait == ctx:
			p.ag.Cancel()
			var stop context.CancelFunc
			wait, stop = context.WithTimeout(context.Background(), shutdownGrace)
			defer stop()
			continue
		case err != nil:
			return p.result(session.TurnEnd{Reason: session.StopAborted, Error: &session.Failure{Message: "the turn did not stop in time after it was cancelled"}})
		case evs == nil:
			return p.result(session.TurnEnd{Reason: session.StopAborted, Error: &session.Failure{Message: "the agent closed before the turn ended"}})
		}
		for _, e := range evs {
			if n, ok := e.(agent.Notice); ok {
				fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.Sanitize(n.Text))
				continue
			}
			l, ok := e.(agent.Logged)
			if !ok || l.Seq <= p.lastPast {
				continue
			}
			if end, done := p.handle(l.Event); done {
				return p.result(end)
			}
		}
	}
}

func (p *printer) handle(e session.Event) (session.TurnEnd, bool) {
	if p.o.Format == "stream-json" {
		writeJSON(p.o.Stdout, map[string]any{
			"type": "session_event", "session_id": p.ag.SessionID(),
			"event": map[string]any{"type": e.Type, "seq": e.Seq, "time": e.Time.UnixMilli(), "data": e.Data},
		})
	}
	switch d := e.Data.(type) {
	case session.TurnStart:
		if p.turn == 0 {
			p.turn = d.Turn
		}
	case session.StepStart:
		p.steps++
	case session.AssistantMessage:
		if d.Text != "" {
			p.answer = d.Text
		}
		p.usage = p.usage.Add(d.Usage)
		m, _ := p.ag.Catalog().Lookup(modelOf(p.ag))
		p.cost += m.Cost(d.Usage)
		for _, n := range d.Notes {
			fmt.Fprintln(p.o.Stderr, "[note] "+textfmt.SanitizeLine(n))
		}
	case session.ToolCall:
		fmt.Fprintln(p.o.Stderr, CallText(d.Name, d.Arguments, d.Card))
	case session.Retry:
		fmt.Fprintln(p.o.Stderr, RetryNotice(d))
	case session.HookRun:
		if n := d.Notice(); n != "" {
			fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.Sanitize(n))
		}
	case session.TurnEnd:
		if d.Turn == p.turn {
			return d, true
		}
	}
	return session.TurnEnd{}, false
}

func modelOf(ag *agent.Agent) string {
	m, _ := ag.Model()
	return m
}

func (p *printer) result(end session.TurnEnd) PrintResult {
	r := PrintResult{
		Type: "result", Success: end.Reason == session.StopCompleted, SessionID: p.ag.SessionID(),
		Result: p.answer, StopReason: string(end.Reason), NumSteps: p.steps, Cost: roundCost(p.cost),
		Usage: PrintUsage{Input: p.usage.Input, CacheHit: p.usage.CacheRead, Output: p.usage.Output, Reasoning: p.usage.Reasoning},
	}
	if !r.Success {
		msg := StopNotice(end)
		if end.Error != nil && end.Error.Message != "" {
			msg = end.Error.Message
		}
		r.Error = &msg
		fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.SanitizeLine("the turn ended ("+string(end.Reason)+"): "+msg))
	}
	return r
}

// roundCost drops the float noise of summing per-step costs (0.0003246,
// not 0.00032460000000000003); a tenth of a micro-dollar is far below any
// price per token.
func roundCost(usd float64) float64 { return math.Round(usd*1e10) / 1e10 }

// write prints the result: in text format the answer alone, when the turn
// completed or stopped at the output-token limit; otherwise the record.
func (r PrintResult) write(o PrintOptions) {
	if o.Format != "text" {
		writeJSON(o.Stdout, r)
		return
	}
	if r.Result != "" && (r.Success || r.StopReason == string(session.StopMaxTokens)) {
		fmt.Fprintln(o.Stdout, r.Result)
	}
}

// PrintFailure reports a task that could not start (the session failed to
// open): the error on stderr and, in json and stream-json, the result
// record, so stdout always ends in one.
func PrintFailure(o PrintOptions, err error) PrintResult {
	msg := err.Error()
	r := PrintResult{Type: "result", StopReason: string(session.StopError), Error: &msg}
	fmt.Fprintln(o.Stderr, "tack: "+textfmt.SanitizeLine(msg))
	r.write(o)
	return r
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	w.Write(append(b, '\n'))
}
