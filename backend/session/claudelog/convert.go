package claudelog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Claude Code's words for what tack logs otherwise.
const (
	interrupted   = "[Request interrupted by user]"
	compacted     = "Conversation compacted"
	syntheticName = "<synthetic>" // the model of a line no model wrote
)

// eventTypes are the events a transcript is made of; Sync reads no other.
var eventTypes = []string{
	session.StepStart{}.EventType(), session.UserMessage{}.EventType(), session.SteeringMessage{}.EventType(),
	session.AssistantMessage{}.EventType(), session.ToolResult{}.EventType(), session.TurnEnd{}.EventType(),
	session.Rewind{}.EventType(), session.CommandRun{}.EventType(), session.CommandDone{}.EventType(),
	session.Title{}.EventType(),
}

// state is where a conversion stands: what the next line follows, and
// what of the earlier events later lines need.
type state struct {
	// Next is the seq of the first event not converted, and Size the
	// length of the transcript holding the lines of those before it.
	Next int64 `json:"next"`
	Size int64 `json:"size"`
	// Head is the uuid of the last line of the conversation as it stands
	// now, the parent of the next line; "" before the first.
	Head string `json:"head,omitempty"`
	// Model is the model of the step under way, Reply the ReplyID of its
	// reply.
	Model string `json:"model,omitempty"`
	Reply string `json:"reply,omitempty"`
	// Tokens is how large the conversation was at the last request: a
	// compaction's preTokens.
	Tokens int `json:"tokens,omitempty"`
	// Compact is the id of the /compact command running; its compaction
	// is a manual one.
	Compact string `json:"compact,omitempty"`
	// Prompt is the promptId of the latest input: the user lines after it
	// carry it. PromptSeq is the seq of its event.
	Prompt    string `json:"prompt,omitempty"`
	PromptSeq int64  `json:"promptSeq,omitempty"`
	// Calls are the inputs of the tool calls not yet answered, by id, as
	// the tool_use showed them: their answers' toolUseResult needs them.
	Calls map[string]json.RawMessage `json:"calls,omitempty"`
}

// converter turns the events of one log, in order, into transcript lines.
type converter struct {
	id string // the log's session id, which uuids derive from
	// header is the log's, which replies' ids derive from (ReplyID).
	header session.Header
	model  string // the header's, for a step whose start was not seen
	// prices reckon each reply's costUSD; nil leaves it out.
	prices Prices
	cwd    string
	base   line // the fields every line shares
	st     state
	// dry follows the conversation without encoding lines: a replay to
	// the point a rewind goes back to.
	dry bool
	out bytes.Buffer
	enc *json.Encoder
	// replay is the head of the conversation just before the event at
	// seq before, folded afresh from the log.
	replay func(before int64) (string, error)
	err    error
}

func newConverter(h session.Header, version string, st state, dry bool, replay func(int64) (string, error)) *converter {
	// The calls are the converter's own: a failed append leaves the
	// state it started from as it was.
	st.Calls = maps.Clone(st.Calls)
	c := &converter{id: h.ID, header: h, model: h.Model, cwd: h.Cwd, st: st, dry: dry, replay: replay}
	c.base = line{UserType: "external", Cwd: h.Cwd, SessionID: h.ID, Version: version, GitBranch: h.Branch}
	if h.Parent != "" {
		// Claude Code writes a subagent's lines as a sidechain of the
		// session that started it, under that session's id.
		c.base.IsSidechain, c.base.SessionID, c.base.AgentID = true, h.Parent, h.ID
	}
	c.enc = json.NewEncoder(&c.out)
	c.enc.SetEscapeHTML(false) // as JSON.stringify writes them
	return c
}

// add converts e, appending its lines to out.
func (c *converter) add(e session.Event) {
	switch d := e.Data.(type) {
	case session.StepStart:
		c.st.Model, c.st.Reply = d.Model, ReplyID(c.header, e)
	case session.UserMessage:
		c.userMessage(e, d)
	case session.SteeringMessage:
		c.prompt(e, lineUUID(c.id, e.Seq, promptPart))
		c.emit(e, 0, c.userLine(d.Text))
	case session.AssistantMessage:
		c.assistant(e, d)
	case session.ToolResult:
		if d.Replace == nil { // a pruned result replaces an old one in the model's view only
			c.toolResult(e, d)
		}
	case session.TurnEnd:
		c.turnEnd(e, d)
	case session.Rewind:
		if d.Conversation {
			c.st.Head, c.err = c.replay(d.Back)
		}
	case session.CommandRun:
		if d.Name == "compact" {
			c.st.Compact = d.ID
		}
	case session.CommandDone:
		if d.ID == c.st.Compact {
			c.st.Compact = ""
		}
	case session.Title:
		switch d.Source {
		case session.TitleModel:
			c.title(titleLine{Type: "ai-title", AITitle: d.Title})
		case session.TitleUser:
			c.title(titleLine{Type: "custom-title", CustomTitle: d.Title})
		}
	}
}

// title writes a line Claude Code writes when the session is named: an
// ai-title when the model titles it, a custom-title when the user names
// it (/rename), which scripts rank first. Either stands outside the
// conversation (no uuid, no parent), the latest the session's name. A
// title made of the first prompt is none: Claude Code writes no line for
// it.
func (c *converter) title(l titleLine) {
	if c.dry {
		return
	}
	l.SessionID = c.base.SessionID
	if err := c.enc.Encode(l); err != nil && c.err == nil {
		c.err = err
	}
}

// newLine is a line of type typ with the fields every line shares.
func (c *converter) newLine(typ string) *line {
	l := c.base
	l.Type = typ
	return &l
}

// emit completes l as the part-th line made of e, after the head, and
// makes it the head.
func (c *converter) emit(e session.Event, part int, l *line) {
	uuid := lineUUID(c.id, e.Seq, part)
	if !c.dry {
		if c.st.Head != "" {
			l.ParentUUID = &c.st.Head
		}
		l.UUID, l.Timestamp = uuid, stamp(e.Time)
		if err := c.enc.Encode(l); err != nil && c.err == nil {
			c.err = err
		}
	}
	c.st.Head = uuid
}

// promptPart is the part of an input's event its promptId derives from,
// as a line's uuid does from its own: one no line has.
const promptPart = -1

// turnPromptPart is the part a prompt's promptId derives from, with its
// turn in place of its event's seq: one neither a line nor another input
// has.
const turnPromptPart = -2

// turnPromptID is the promptId of the prompt that starts turn of session
// id: it derives from the turn, not from the prompt's event, so it is
// known before the prompt is logged.
func turnPromptID(id string, turn int) string {
	return lineUUID(id, int64(turn), turnPromptPart)
}

// prompt makes the input e, whose promptId is id, the one the next user
// lines answer to, as Claude Code gives each input (typed, queued or a
// notification) an id of its own. A subagent's lines carry none: the
// prompt they answer to is its parent's.
func (c *converter) prompt(e session.Event, id string) {
	if !c.base.IsSidechain {
		c.st.Prompt, c.st.PromptSeq = id, e.Seq
	}
}

// userLine is a user line whose message has content.
func (c *converter) userLine(content any) *line {
	l := c.newLine("user")
	l.Message, l.PromptID = &message{Role: "user", Content: content}, c.st.Prompt
	return l
}

// hookOrigin marks the context hooks add (agent.HookOrigin, above this
// package): it is no input of its own but belongs to the one it follows,
// as Claude Code's hook_additional_context attachments do, so the lines
// after it go on carrying that input's promptId, which hooks are told.
const hookOrigin = "hook"

// userMessage is a prompt, or context no one typed (isMeta, as Claude
// Code marks what it adds), or a compaction's summary.
func (c *converter) userMessage(e session.Event, d session.UserMessage) {
	switch {
	case d.Replace != nil && d.Kind == session.KindSummary:
		c.compaction(e, d.Text)
	case d.Replace != nil:
	case d.Kind == session.KindPrompt:
		c.prompt(e, turnPromptID(c.id, d.Turn))
		c.emit(e, 0, c.userLine(d.Text))
	default:
		if d.Kind != session.KindContext || d.Origin != hookOrigin {
			c.prompt(e, lineUUID(c.id, e.Seq, promptPart))
		}
		l := c.userLine(d.Text)
		l.IsMeta = d.Kind == session.KindContext
		c.emit(e, 0, l)
	}
}

// compaction writes what Claude Code writes when it compacts: a boundary
// that starts a new chain (its logical parent the line before) and the
// summary the conversation goes on from.
func (c *converter) compaction(e session.Event, summary string) {
	trigger := "auto"
	if c.st.Compact != "" {
		trigger = "manual"
	}
	before := c.st.Head
	c.st.Head = ""
	boundary := c.newLine("system")
	boundary.Subtype, boundary.Content, boundary.Level, boundary.LogicalParentUUID = "compact_boundary", compacted, "info", before
	boundary.CompactMetadata = &compactMetadata{Trigger: trigger, PreTokens: c.st.Tokens}
	c.emit(e, 0, boundary)
	l := c.userLine(summary)
	l.IsCompactSummary, l.IsVisibleInTranscriptOnly = true, true
	c.emit(e, 1, l)
}

// assistant is one model reply: thinking, text and tool_use blocks in
// the order the model wrote them, with the request's usage.
func (c *converter) assistant(e session.Event, d session.AssistantMessage) {
	var content []claudemsg.Block
	if d.Reasoning != "" {
		content = append(content, claudemsg.Thinking(d.Reasoning))
	}
	if d.Text != "" || len(content) == 0 && len(d.ToolCalls) == 0 {
		content = append(content, claudemsg.Text(d.Text))
	}
	for _, tc := range d.ToolCalls {
		input := tools.ClaudeInput(json.RawMessage(tc.Arguments), c.cwd)
		content = append(content, claudemsg.ToolUse(tc.ID, tools.ClaudeName(tc.Name), input))
		if c.st.Calls == nil {
			c.st.Calls = map[string]json.RawMessage{}
		}
		c.st.Calls[tc.ID] = input
	}
	stop := d.Finish.StopReason()
	model := c.st.Model
	if model == "" {
		model = c.model
	}
	id := c.st.Reply
	if id == "" {
		id = assistantID(c.header, e, d)
	}
	c.st.Reply = ""
	u := claudemsg.UsageOf(d.Usage)
	l := c.newLine("assistant")
	l.RequestID, l.Message = "req_"+id, &message{
		ID: "msg_" + id, Type: "message", Role: "assistant", Model: model, Content: content, StopReason: &stop,
		Usage: &u,
	}
	l.CostUSD = c.cost(model, d.Usage, e.Time)
	c.emit(e, 0, l)
	c.st.Tokens = d.Usage.Prompt() + d.Usage.Output
}

// cost is what u cost on model at t, or nil where the prices do not know
// the model or give it no price: a usage counter then prices the reply
// itself.
func (c *converter) cost(model string, u llm.Usage, t time.Time) *float64 {
	if c.prices == nil {
		return nil
	}
	m, ok := c.prices.Lookup(model)
	if !ok || m.Price == (llm.Price{}) {
		return nil
	}
	usd := m.Cost(u, t)
	return &usd
}

// ReplyID names the model's reply to the step whose step/start is e, in
// the session of header h: its message.id is "msg_" and its requestId
// "req_" followed by it, in the transcript and in stream-json's assistant
// messages and message_start alike, as Claude Code's are the API's ids in
// both, so a program joining the stream with the transcript finds the
// reply. It is known as the step starts, before the reply streams, and
// derives from the event as logged (replyID).
func ReplyID(h session.Header, e session.Event) string {
	d, _ := e.Data.(session.StepStart)
	return replyID(e, origin(h), strconv.Itoa(d.Turn), strconv.Itoa(d.Step), d.Model)
}

// origin is the session a log's replies were first logged in, which their
// ids name: two sessions whose steps start at the same place in the same
// millisecond (tack -p run in parallel on one prompt) keep theirs apart.
// A fork's is the session it was copied from, so its copies keep the
// original's ids (a fork of a fork names its parent, not the first). A
// subagent's session is never forked.
func origin(h session.Header) string {
	if h.Parent == "" && h.ForkedFrom != "" {
		return h.ForkedFrom
	}
	return h.ID
}

// assistantID is the replyID of the model's reply d, for a reply whose
// step/start was not seen.
func assistantID(h session.Header, e session.Event, d session.AssistantMessage) string {
	parts := []string{origin(h), d.Text, d.Reasoning}
	for _, tc := range d.ToolCalls {
		parts = append(parts, tc.ID, tc.Name, tc.Arguments)
	}
	return replyID(e, parts...)
}

// replyID names the reply made of the event e, whose content is parts,
// in its message id ("msg_…") and request id ("req_…"), which scripts
// tell replies apart by. It derives from the event as logged, not from
// the session, so the copy of a reply in a fork (--fork-session) has the
// ids of the original: Claude Code's copies of a session keep them, and
// usage counters such as ccusage count a reply met in two files once.
func replyID(e session.Event, parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d/%d", e.Seq, e.Time.UnixMilli())
	for _, p := range parts {
		fmt.Fprintf(h, "/%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// toolResult is a user line answering one tool_use, with Claude Code's
// toolUseResult (claudemsg.ToolUseResult).
func (c *converter) toolResult(e session.Event, d session.ToolResult) {
	input := c.st.Calls[d.CallID]
	delete(c.st.Calls, d.CallID)
	l := c.userLine([]claudemsg.Block{claudemsg.ToolResult(d.CallID, d.Text, d.IsError)})
	l.ToolUseResult = claudemsg.ToolUseResult(claudemsg.ToolCall{ID: d.CallID, Name: tools.ClaudeName(d.Name),
		Input: input, Text: d.Text, IsError: d.IsError, Card: d.Card, Duration: d.Duration()})
	c.emit(e, 0, l)
}

// turnEnd writes what Claude Code writes for a turn that did not
// complete: the user's interruption, or the error as an assistant line
// no model wrote.
func (c *converter) turnEnd(e session.Event, d session.TurnEnd) {
	switch {
	case d.Reason == session.StopAborted:
		c.emit(e, 0, c.userLine([]claudemsg.Block{claudemsg.Text(interrupted)}))
	case d.Reason == session.StopError && d.Error != nil:
		stop := "stop_sequence"
		l := c.newLine("assistant")
		l.IsAPIErrorMessage, l.Message = true, &message{
			ID: "msg_" + replyID(e, d.Error.Message), Type: "message", Role: "assistant",
			Model: syntheticName, Content: []claudemsg.Block{claudemsg.Text("API Error: " + d.Error.Message)}, StopReason: &stop, Usage: &claudemsg.Usage{},
		}
		c.emit(e, 0, l)
	}
}
