package linemode

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// result is the result line of the turn that ended with end.
func (p *printer) result(end session.TurnEnd) PrintResult {
	t := p.t
	r := PrintResult{
		Type: "result", Subtype: subtypeSuccess, SessionID: p.ag.SessionID(), NumTurns: t.steps,
		Result: t.answer, TotalCostUSD: roundCost(t.cost), Usage: claudemsg.UsageOf(t.usage), DurationAPIMs: t.apiMs,
		Denials: t.denials, StopReason: string(end.Reason), UUID: newUUID(),
		ModelUsage: modelUsages(t.models, p.ag.Catalog()), ModelStop: t.stop,
	}
	if r.Denials == nil {
		r.Denials = []Denial{}
	}
	r.StructuredOutput = t.structured
	p.spent += t.cost
	if t.overBudget {
		r.IsError, r.Subtype = true, subtypeMaxBudget
		r.Errors = []string{fmt.Sprintf("the run cost $%.4f, more than --max-budget-usd $%g; the turn was stopped", p.spent, p.o.MaxBudgetUSD)}
		fmt.Fprintln(p.o.Stderr, "tack: "+r.Errors[0])
		return r
	}
	if end.Reason == session.StopCompleted && p.o.Structured && t.structured == nil {
		r.IsError, r.Subtype = true, subtypeStructuredRetries
		r.Errors = []string{"the model gave no structured answer, though asked " + strconv.Itoa(structuredAsks) + " times"}
		fmt.Fprintln(p.o.Stderr, "tack: "+r.Errors[0])
		return r
	}
	if end.Reason == session.StopCompleted {
		return r
	}
	r.IsError, r.Subtype = true, subtypeFailed
	if end.Reason == session.StopMaxSteps {
		r.Subtype = subtypeMaxTurns
	}
	msg := StopNotice(end)
	if end.Error != nil && end.Error.Message != "" {
		msg = end.Error.Message
	}
	r.Errors = []string{msg}
	if end.Reason == session.StopError {
		// As claude -p's: the result of a failed turn is the error's
		// text, so a script that reads .result learns why.
		r.Result = msg
	}
	if p.stdout.Err() == nil { // else the failed write stopped it, and says so once
		fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.SanitizeLine("the turn ended ("+string(end.Reason)+"): "+msg))
	}
	return r
}

// roundCost drops the float noise of summing per-step costs (0.0003246,
// not 0.00032460000000000003); a tenth of a micro-dollar is far below any
// price per token.
func roundCost(usd float64) float64 { return math.Round(usd*1e10) / 1e10 }

// write prints a turn's result as the format asks: in text the answer
// alone (the structured one, with --json-schema), when the turn completed
// or stopped at the output-token limit;
// the result object in json; a result line in stream-json and events.
func (p *printer) write(r PrintResult) {
	if p.o.Format != FormatText {
		writeJSON(p.o.Stdout, r)
		return
	}
	if r.StructuredOutput != nil && r.Success() {
		fmt.Fprintln(p.o.Stdout, string(r.StructuredOutput))
		return
	}
	if r.Result != "" && (r.Success() || r.StopReason == string(session.StopMaxTokens)) {
		text := r.Result
		if p.o.Terminal {
			text = textfmt.Sanitize(text)
		}
		fmt.Fprintln(p.o.Stdout, text)
	}
}

// PrintFailure reports a task that could not start (the session failed to
// open): the error on stderr and, in json, stream-json and events, a
// result, so stdout always ends in one.
func PrintFailure(o PrintOptions, err error) PrintResult {
	msg := err.Error()
	r := PrintResult{Type: "result", Subtype: subtypeFailed, IsError: true, StopReason: string(session.StopError),
		Result: msg, Errors: []string{msg}, Denials: []Denial{}, ModelUsage: map[string]modelUsage{}, UUID: newUUID()}
	fmt.Fprintln(o.Stderr, "tack: "+textfmt.SanitizeLine(msg))
	if o.Format != "" && o.Format != FormatText {
		writeJSON(o.Stdout, r)
	}
	return r
}
