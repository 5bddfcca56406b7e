// Package linemode holds tack's plain-text front doors: the readline line
// mode for pipes and plain terminals, and the one-shot print mode.
package linemode

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/claudelog"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/structured"
	"github.com/tack-agent/tack/views/textfmt"
)

// Print mode's output formats.
const (
	FormatText       = "text"
	FormatJSON       = "json"
	FormatStreamJSON = "stream-json"
	// FormatEvents is tack's own session events, one per line, then the
	// result: for debugging and tack-specific tools.
	FormatEvents = "events"
)

// PrintOptions configures print mode.
type PrintOptions struct {
	// Task is the first task; "" when every task comes from In.
	Task string
	// Format is FormatText (the final answer), FormatJSON (the result
	// object), FormatStreamJSON or FormatEvents.
	Format string
	// StreamInput reads more tasks from In as stream-json user messages,
	// one turn each (--input-format stream-json).
	StreamInput bool
	In          io.Reader
	Stdout      io.Writer
	Stderr      io.Writer
	// IncludePartial adds stream_event lines with the streamed deltas
	// (--include-partial-messages).
	IncludePartial bool
	// NoReasoning leaves thinking out of the output.
	NoReasoning bool
	// Terminal says Stdout is a terminal: the text answer then has its
	// control sequences shown escaped (textfmt.Sanitize), as on every
	// other front door, so that a model cannot set the title, write the
	// clipboard (OSC 52) or plant links. In a pipe the answer stays as
	// it came.
	Terminal bool
	// Turn carries --allowed-tools, --disallowed-tools and --max-turns to
	// every turn.
	Turn agent.TurnOptions
	// Structured says the session offers structured_output (--json-schema):
	// a turn's answer is the JSON its last good call gave, and a turn that
	// ends without one is asked for it, twice at most.
	Structured bool
	// SDKApprovals puts what the permission mode would ask about to the
	// Agent SDK over the control protocol (--permission-prompt-tool
	// stdio); it needs StreamInput.
	SDKApprovals bool
	// Debug, when set, gets every event of the session log as a JSON
	// line, the events format's (--debug); DebugTypes keeps those whose
	// type starts alike with one of them (hook and hooks take hook/run).
	Debug      io.Writer
	DebugTypes []string
	// SDK, with StreamInput, is the channel to the Agent SDK the session's
	// in-process MCP servers relay through (made before the session
	// opened); nil makes one.
	SDK *SDKChannel
	// HookEvents adds hook_started and hook_response lines to stream-json
	// for every hook run (--include-hook-events); session_start's are
	// written without it, as claude writes them.
	HookEvents bool
	// ReplayUser writes each user message read from In back on Stdout
	// before its turn (--replay-user-messages).
	ReplayUser bool
	// NoCommands sends a task that starts with a slash to the model as it
	// is (--disable-slash-commands).
	NoCommands bool
	// MaxBudgetUSD, when above 0, cancels the turn under way once the
	// run has cost more, and runs no more tasks (--max-budget-usd).
	MaxBudgetUSD float64
	Version      string
	Now          func() time.Time
}

// Print runs the tasks on the session and writes what the format asks to
// Stdout, progress and denied calls to Stderr. It returns when the last
// turn has ended, or when ctx is done (the running turn is cancelled
// first and its result still written), or when a write to Stdout failed
// (the running turn is cancelled too: no one reads what it would say).
func Print(ctx context.Context, s *launch.Session, o PrintOptions) PrintOutcome {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Format == "" {
		o.Format = FormatText
	}
	stdout := newOutput(o.Stdout)
	o.Stdout = stdout
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-stdout.broken:
			stop()
		case <-ctx.Done():
		}
	}()
	past, sub := s.Agent.Subscribe()
	defer sub.Close()
	p := &printer{o: o, s: s, ag: s.Agent, sub: sub, seen: past.NextSeq - 1, stdout: stdout}
	if o.IncludePartial && o.Format == FormatStreamJSON {
		p.partial = newPartials(o.Stdout, s.Agent.SessionID(), o.NoReasoning, s.Cwd)
	}
	if o.Format == FormatStreamJSON {
		p.writeInit(ctx)
	}
	if o.StreamInput {
		p.channel = cmp.Or(o.SDK, NewSDKChannel())
		p.endChannel = p.channel.bind(o.Stdout)
		defer p.endChannel()
	}
	if o.SDKApprovals && p.channel != nil {
		asking, stop := context.WithCancel(ctx)
		defer stop()
		go (&sdkAsker{p: p, channel: p.channel}).serve(asking)
	}
	var out PrintOutcome
	for task := range p.tasks(ctx) {
		res := p.turn(ctx, task)
		out.Results = append(out.Results, res)
		// With stream input an Agent SDK drives the run: a call its
		// can_use_tool, its hooks or its mode denied is its program's
		// own decision, and the SDK takes a failing exit status for a
		// crash.
		out.Denied = out.Denied || len(res.Denials) > 0 && !o.StreamInput
		p.write(res)
		if ctx.Err() != nil || p.exit {
			break
		}
	}
	out.OutputErr = stdout.Err()
	return out
}

// printer follows one session's turns for print mode.
type printer struct {
	o       PrintOptions
	s       *launch.Session
	ag      *agent.Agent
	sub     *agent.Subscription
	partial *partials
	// stdout is o.Stdout, which knows whether a write to it failed.
	stdout *output
	// seen is the sequence number of the last event handled.
	seen int64
	// held are the events that came after a turn's end, or between
	// turns, other than notices: the next turn follows them first.
	held []agent.Event
	t    *turnRun
	// sdk puts approvals to the Agent SDK (--permission-prompt-tool stdio).
	// channel carries requests to the Agent SDK (with stream input);
	// endChannel fails those still waiting, once stdin has ended and
	// nothing can answer them.
	channel    *SDKChannel
	endChannel func()
	// exit is set by /exit, and once the budget is spent: no task after
	// it runs.
	exit bool
	// spent is what the run's finished turns cost.
	spent float64
	// messages are the turns the user messages read started, for
	// rewind_files.
	messages userTurns
}

// turnRun is what one turn accumulates.
type turnRun struct {
	turn   int
	steps  int
	answer string
	usage  llm.Usage
	cost   float64
	apiMs  int64
	calls  map[string]session.ToolCall
	// refused are the calls a deny rule or --disallowed-tools refused.
	refused map[string]bool
	denials []Denial
	models  map[string]*modelTally
	stop    *string // the last model reply's stop reason
	// structured is the answer structured_output last took.
	structured json.RawMessage
	// model is the model of the step under way (a command's, a
	// fallback), whose prices its usage costs; reply the ReplyID of its
	// reply, the id of its message in the transcript too.
	model, reply string
	// overBudget is set once the run's cost passed --max-budget-usd.
	overBudget bool
	// uuid is the user message's that started the turn.
	uuid string
}

// count adds a step's usage and cost to the turn's total and to model's
// share of it.
func (t *turnRun) count(model string, u llm.Usage, cost float64) {
	t.usage = t.usage.Add(u)
	t.cost += cost
	if t.models == nil {
		t.models = map[string]*modelTally{}
	}
	m := t.models[model]
	if m == nil {
		m = &modelTally{}
		t.models[model] = m
	}
	m.usage = m.usage.Add(u)
	m.cost += cost
}

// tasks yields the first task, then, with StreamInput, each user message
// read from In, with its uuid (a new one where the program gave none),
// until In ends or ctx is done. A line that is no user message is
// reported on Stderr and skipped.
func (p *printer) tasks(ctx context.Context) func(yield func(streamInput) bool) {
	return func(yield func(streamInput) bool) {
		if p.o.Task != "" && !yield(streamInput{text: p.o.Task, uuid: newUUID()}) {
			return
		}
		if !p.o.StreamInput {
			return
		}
		msgs := make(chan streamInput)
		go func() {
			readStreamInput(p.o.In, msgs, ctx.Done(), p.control)
			p.endChannel()
		}()
		for {
			p.between(p.sub.Take())
			select {
			case <-p.sub.Ready():
				continue
			case m, ok := <-msgs:
				if !ok {
					// What came after the last turn (a server done with a
					// page) is said before the run ends.
					p.between(p.sub.Take())
					return
				}
				if m.err != nil {
					fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.SanitizeLine(m.err.Error()))
					continue
				}
				m.uuid = cmp.Or(m.uuid, newUUID())
				if p.o.ReplayUser {
					writeJSON(p.o.Stdout, chatMessage{Type: "user", SessionID: p.ag.SessionID(), UUID: m.uuid,
						Message: apiMessage{Role: "user", Content: []claudemsg.Block{claudemsg.Text(m.text)}}})
				}
				if !yield(m) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
}

// turn sends task, or runs it when it names a slash command, and follows
// the turn it starts to the end.
func (p *printer) turn(ctx context.Context, msg streamInput) PrintResult {
	start := p.o.Now()
	p.t = &turnRun{calls: map[string]session.ToolCall{}, refused: map[string]bool{}, uuid: msg.uuid}
	res, follow := PrintResult{}, true
	if _, _, ok := commands.Parse(msg.text); ok && p.s.Commands != nil && !p.o.NoCommands {
		res, follow = p.command(ctx, msg.text)
	} else {
		p.ag.SendWith(msg.text, p.o.Turn)
	}
	if follow {
		end := p.follow(ctx)
		for asked := 0; p.o.Structured && p.t.structured == nil && end.Reason == session.StopCompleted && asked < structuredAsks; asked++ {
			p.t.turn = 0 // the next turn's start is the one to follow
			p.ag.SendWith(structuredAsk, p.o.Turn)
			end = p.follow(ctx)
		}
		res = p.result(end)
	}
	res.DurationMs = p.o.Now().Sub(start).Milliseconds()
	return res
}

// checkBudget cancels the turn under way once the run has cost more than
// --max-budget-usd: the turns before this one, and this one so far.
func (p *printer) checkBudget() {
	if p.o.MaxBudgetUSD <= 0 || p.t.overBudget || p.spent+p.t.cost <= p.o.MaxBudgetUSD {
		return
	}
	p.t.overBudget, p.exit = true, true
	p.ag.Cancel()
}

// A turn of a run with --json-schema that ends without a structured answer
// is followed by structuredAsk, at most structuredAsks times.
const (
	structuredAsks = 2
	structuredAsk  = "You ended without a structured answer. Call " + structured.Name +
		" now with the final answer as its arguments, matching its schema."
)

// follow consumes events until the turn ends. When ctx ends it cancels the
// turn and waits at most shutdownGrace for its end to be recorded.
func (p *printer) follow(ctx context.Context) session.TurnEnd {
	wait := ctx
	for {
		var evs []agent.Event
		var err error
		if evs, p.held = p.held, nil; evs == nil {
			evs, err = p.sub.Wait(wait)
		}
		switch {
		case err != nil && wait == ctx:
			p.ag.Cancel()
			var stop context.CancelFunc
			wait, stop = context.WithTimeout(context.Background(), shutdownGrace)
			defer stop()
			continue
		case err != nil:
			return session.TurnEnd{Reason: session.StopAborted, Error: &session.Failure{Message: "the turn did not stop in time after it was cancelled"}}
		case evs == nil:
			return session.TurnEnd{Reason: session.StopAborted, Error: &session.Failure{Message: "the agent closed before the turn ended"}}
		}
		for i, e := range evs {
			if end, done := p.event(e); done {
				p.held = evs[i+1:]
				return end
			}
		}
	}
}

// event handles one event of the session; done is set by the turn's end.
func (p *printer) event(e agent.Event) (session.TurnEnd, bool) {
	switch e := e.(type) {
	case agent.Delta:
		if p.partial != nil && p.t.turn != 0 && e.Turn == p.t.turn {
			model, _ := p.ag.Model()
			p.partial.delta(e, model, p.t.reply)
		}
	case agent.StepDiscarded:
		if p.partial != nil {
			p.partial.stop()
		}
	case agent.Notice:
		p.notice(e)
	case agent.Logged:
		if e.Seq <= p.seen {
			return session.TurnEnd{}, false
		}
		p.seen = e.Seq
		if debug := p.o.Debug != nil && debugWants(p.o.DebugTypes, e.Type); debug || p.o.Format == FormatEvents {
			line := map[string]any{
				"type": "session_event", "session_id": p.ag.SessionID(),
				"event": map[string]any{"type": e.Type, "seq": e.Seq, "time": e.Time.UnixMilli(), "data": e.Data},
			}
			if p.o.Format == FormatEvents {
				writeJSON(p.o.Stdout, line)
			}
			if debug {
				writeJSON(p.o.Debug, line)
			}
		}
		return p.logged(e.Event)
	}
	return session.TurnEnd{}, false
}

// notice writes what line mode and the full screen show as notices (a
// settings file skipped, a server that failed) to stderr, out of the way
// of the output scripts parse; a server done with a page is also a line
// of stream-json.
func (p *printer) notice(n agent.Notice) {
	fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.Sanitize(n.Text))
	if n.PageDone != nil && p.o.Format == FormatStreamJSON {
		writeJSON(p.o.Stdout, elicitationCompleteMessage(*n.PageDone, p.ag.SessionID()))
	}
}

// between handles the events held since the last turn ended and evs,
// which came while print mode waited for the next user message: notices
// at once, as an Agent SDK's program may wait on them; the rest stay
// held for the next turn.
func (p *printer) between(evs []agent.Event) {
	var held []agent.Event
	for _, e := range append(p.held, evs...) {
		if n, ok := e.(agent.Notice); ok {
			p.notice(n)
			continue
		}
		held = append(held, e)
	}
	p.held = held
}

func (p *printer) logged(e session.Event) (session.TurnEnd, bool) {
	t := p.t
	switch d := e.Data.(type) {
	case session.TurnStart:
		if t.turn == 0 {
			t.turn = d.Turn
			p.messages.remember(t.uuid, d.Turn)
		}
	case session.StepStart:
		if d.Turn == t.turn {
			t.steps++
			t.model, t.reply = d.Model, claudelog.ReplyID(p.s.Log.Header(), e)
		}
	case session.AssistantMessage:
		p.assistant(d, e.Time)
	case session.ToolCall:
		t.calls[d.CallID] = d
		if p.o.Format == FormatText {
			fmt.Fprintln(p.o.Stderr, CallText(d.Name, d.Arguments, d.Card))
		}
	case session.ApprovalDecided:
		if d.Policy == permission.RefusedByDenyRule || d.Policy == permission.RefusedByDisallowedTools {
			t.refused[d.CallID] = true
		}
	case session.ToolResult:
		p.toolResult(d)
	case session.StepEnd:
		if d.Turn == t.turn {
			t.apiMs += d.Timing.ModelWait + d.Timing.Thinking + d.Timing.Response
		}
	case session.TaskUsage:
		// A subagent's step: its usage and cost count in the result.
		t.count(d.Model, d.Usage, d.Cost)
		p.checkBudget()
	case session.SideUsage:
		// A compaction's summary or a prompt hook's judgement.
		t.count(d.Model, d.Usage, d.Cost)
		p.checkBudget()
	case session.Retry:
		fmt.Fprintln(p.o.Stderr, RetryNotice(d))
	case session.HookRun:
		if n := d.Notice(); n != "" {
			fmt.Fprintln(p.o.Stderr, "tack: "+textfmt.Sanitize(n))
		}
		if p.o.Format == FormatStreamJSON && (p.o.HookEvents || d.Event == string(hooks.SessionStart)) {
			for _, m := range hookMessages(d, p.ag.SessionID()) {
				writeJSON(p.o.Stdout, m)
			}
		}
	case session.TurnEnd:
		if d.Turn == t.turn {
			return d, true
		}
	}
	return session.TurnEnd{}, false
}

// assistant takes in one step's message and writes it as an assistant
// line.
func (p *printer) assistant(d session.AssistantMessage, at time.Time) {
	t := p.t
	if d.Turn != t.turn {
		return
	}
	if d.Text != "" {
		t.answer = d.Text
	}
	for _, n := range d.Notes {
		fmt.Fprintln(p.o.Stderr, "[note] "+textfmt.SanitizeLine(n))
	}
	model := t.model
	if model == "" {
		model, _ = p.ag.Model()
	}
	m, _ := p.ag.Catalog().Lookup(model)
	t.count(model, d.Usage, m.Cost(d.Usage, at))
	p.checkBudget()
	stop := d.Finish.StopReason()
	t.stop = &stop
	if p.partial != nil {
		p.partial.end(d.Finish, d.Usage)
	}
	if p.o.Format != FormatStreamJSON {
		return
	}
	var blocks []claudemsg.Block
	if d.Reasoning != "" && !p.o.NoReasoning {
		blocks = append(blocks, claudemsg.Thinking(d.Reasoning))
	}
	if d.Text != "" {
		blocks = append(blocks, claudemsg.Text(d.Text))
	}
	for _, c := range d.ToolCalls {
		blocks = append(blocks, claudemsg.ToolUse(c.ID, tools.ClaudeName(c.Name), toolInput(c.Arguments, p.s.Cwd)))
	}
	u := claudemsg.UsageOf(d.Usage)
	if len(blocks) == 0 {
		blocks = []claudemsg.Block{claudemsg.Text("")}
	}
	for i, b := range blocks {
		reason := json.RawMessage("null")
		if i == len(blocks)-1 {
			reason, _ = json.Marshal(stop)
		}
		writeJSON(p.o.Stdout, chatMessage{Type: "assistant", SessionID: p.ag.SessionID(), UUID: newUUID(), Message: apiMessage{
			ID: "msg_" + t.reply, Type: "message", Role: "assistant", Model: model,
			Content: []claudemsg.Block{b}, StopReason: reason, StopSequence: json.RawMessage("null"), Usage: &u,
		}})
	}
}

// toolResult writes a result as a user line, and takes note of a denied
// call: on Stderr in text mode, in the result's permission_denials.
func (p *printer) toolResult(d session.ToolResult) {
	if d.Replace != nil || d.Turn != p.t.turn {
		return
	}
	if d.Name == structured.Name && !d.IsError && p.o.Structured {
		p.t.structured = json.RawMessage(p.t.calls[d.CallID].Arguments)
	}
	if d.Code == session.CodeDenied {
		c := p.t.calls[d.CallID]
		p.t.denials = append(p.t.denials, Denial{ToolName: tools.ClaudeName(d.Name), ToolUseID: d.CallID, ToolInput: toolInput(c.Arguments, p.s.Cwd)})
		if p.o.Format == FormatText {
			fmt.Fprintln(p.o.Stderr, deniedText(d, c, p.t.refused[d.CallID]))
		}
	}
	if p.o.Format == FormatStreamJSON {
		input := tools.ClaudeInput(json.RawMessage(p.t.calls[d.CallID].Arguments), p.s.Cwd)
		writeJSON(p.o.Stdout, chatMessage{Type: "user", SessionID: p.ag.SessionID(), UUID: newUUID(), Message: apiMessage{
			Role: "user", Content: []claudemsg.Block{claudemsg.ToolResult(d.CallID, d.Text, d.IsError)},
		}, ToolUseResult: claudemsg.ToolUseResult(claudemsg.ToolCall{ID: d.CallID, Name: tools.ClaudeName(d.Name),
			Input: input, Text: d.Text, IsError: d.IsError, Card: d.Card, Duration: d.Duration()})})
	}
}

// deniedText names a denied call and why, and how to allow it, unless it
// was refused (a deny rule or --disallowed-tools), which no allowance
// lifts.
func deniedText(d session.ToolResult, c session.ToolCall, refused bool) string {
	why := strings.TrimPrefix(d.Text, "Error: ")
	what := d.Name
	if c.Card.Title != "" {
		what += " (" + c.Card.Title + ")"
	}
	if refused {
		return textfmt.SanitizeLine(fmt.Sprintf("tack: refused %s: %s", what, strings.TrimSpace(why)))
	}
	allow := d.Name
	if c.Card.Terminal != nil {
		if words := strings.Fields(c.Card.Terminal.Command); len(words) > 0 {
			allow = "Bash(" + words[0] + ":*)"
		}
	}
	return textfmt.SanitizeLine(fmt.Sprintf("tack: denied %s: %s To let such calls run: --allowed-tools '%s'.",
		what, strings.TrimSpace(why), allow))
}

// debugWants reports whether an event of type typ ("hook/run") is one of
// types (all when there are none): its first part and a type start alike.
func debugWants(types []string, typ string) bool {
	first, _, _ := strings.Cut(typ, "/")
	for _, t := range types {
		if strings.HasPrefix(t, first) || strings.HasPrefix(first, t) {
			return true
		}
	}
	return len(types) == 0
}
