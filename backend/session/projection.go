package session

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// maxPromptTitle is the length, in runes, of a title made from a prompt.
const maxPromptTitle = 50

// bytesPerToken is the estimate of context size where no provider count
// applies. Bytes rather than runes: CJK text runs nearer one token per
// character, which bytes/4 approximates better than runes/4.
const bytesPerToken = 4

// CompactionMarker stands in the transcript where a replacement rewrote the
// model's view of history (compaction, pruned tool results). Projections
// produce it; it is never written to a log.
type CompactionMarker struct{}

// EventType is "compaction/marker".
func (CompactionMarker) EventType() string { return "compaction/marker" }

// Totals is the usage of a session so far.
type Totals struct {
	Sum       llm.Usage // all assistant messages
	Last      llm.Usage // the last assistant message
	Turns     int
	Steps     int
	ToolCalls int // dispatched calls (tool/call events)
}

// surfaceEntry is one model-visible message and the seq of the event that
// put it there.
type surfaceEntry struct {
	seq int64
	msg llm.Message
}

// Projection folds events into the views live rendering and resume share:
// the model's surface, the human transcript, todos, usage, title and modes.
// Apply events in seq order; it is pure and does no I/O. It is not safe for
// concurrent use.
type Projection struct {
	header     Header
	surface    []surfaceEntry
	transcript []Event
	todos      []card.TodoItem
	totals     Totals
	// afterLast counts the bytes put on the surface since the last
	// assistant message; replaced says a replacement happened since then.
	afterLast    int
	sawAssistant bool
	replaced     bool
	title        string
	prompts      []string
	model        string
	effort       llm.Effort
	turn         int
	permission   string
	plan         bool
	lastActive   time.Time
	// turns, rewinds, turnNotes and saved serve rewinds (rewind.go).
	turns     []turnRef
	rewinds   []RewindPoint
	turnNotes map[int]*turnNotes
	saved     map[int64]conversation
	// lastCheckpoint decides which checkpoints the transcript shows.
	lastCheckpoint Checkpoint
}

// NewProjection starts an empty projection of the session with header h.
func NewProjection(h Header) *Projection {
	return &Projection{header: h, model: h.Model, lastActive: h.Created}
}

// Apply folds one event in. Events of types it does not show are ignored.
func (p *Projection) Apply(e Event) {
	p.lastActive = e.Time
	switch d := e.Data.(type) {
	case TurnStart:
		p.startTurn(e, d)
		p.turn = d.Turn
		p.totals.Turns++
		p.todos = nil
		p.show(e)
	case UserMessage:
		p.applyUser(e, d)
	case SteeringMessage:
		p.prompts = append(p.prompts, d.Text)
		p.place(e, llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, nil)
	case StepStart:
		p.totals.Steps++
		if d.Model != "" {
			p.model, p.effort = d.Model, d.Effort
		}
		p.show(e)
	case AssistantMessage:
		p.place(e, llm.Message{Role: llm.RoleAssistant, Content: d.Text, Reasoning: d.Reasoning, ToolCalls: d.ToolCalls}, nil)
		p.totals.Sum = p.totals.Sum.Add(d.Usage)
		p.totals.Last = d.Usage
		p.sawAssistant, p.afterLast, p.replaced = true, 0, false
	case TaskUsage:
		// A child's steps count in the session's totals, not in its
		// context: Last stays the parent's own.
		p.totals.Sum = p.totals.Sum.Add(d.Usage)
	case ToolCall:
		p.totals.ToolCalls++
		p.show(e)
	case ToolResult:
		p.place(e, llm.Message{Role: llm.RoleTool, Content: d.Text, ToolCallID: d.CallID, Images: llmImages(d.Images)}, d.Replace)
	case TodoWrite:
		p.todos = d.Todos
		p.show(e)
	case Title:
		p.title = d.Title
	case ModelSelect:
		p.model, p.effort = d.Model, d.Effort
	case PermissionMode:
		p.permission = d.Mode
	case PlanMode:
		p.plan = d.Active
	case Checkpoint:
		p.checkpoint(e, d)
	case Rewind:
		p.rewind(e, d)
	case StepEnd, TurnEnd, Retry, CommandDone, InboxDiscard, CompactEnd:
		p.show(e)
	}
}

func (p *Projection) applyUser(e Event, d UserMessage) {
	if d.Kind == KindPrompt && d.Replace == nil {
		p.prompts = append(p.prompts, d.Text)
		p.notePrompt(d)
	}
	p.place(e, llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, d.Replace)
}

// show appends e to the transcript.
func (p *Projection) show(e Event) { p.transcript = push(p.transcript, e) }

// place puts a message on the surface: appended, or in place of the span it
// replaces. Appends also join the transcript; a replacement leaves one
// marker there instead.
func (p *Projection) place(e Event, m llm.Message, replace *Span) {
	entry := surfaceEntry{seq: e.Seq, msg: m}
	if replace == nil {
		p.surface = push(p.surface, entry)
		p.afterLast += messageBytes(m)
		p.show(e)
		return
	}
	// The summary stands where the span began, so a later span that starts
	// at or before it replaces it too.
	entry.seq = replace.Start
	p.replace(*replace, entry)
	p.replaced = true
	if n := len(p.transcript); n == 0 || p.transcript[n-1].Type != (CompactionMarker{}).EventType() {
		p.show(Event{Type: CompactionMarker{}.EventType(), Seq: e.Seq, Time: e.Time, Data: CompactionMarker{}})
	}
}

// replace removes every entry whose seq lies in span and puts entry where
// the first of them was (where such an entry would sort, if none was). It
// makes a new slice: conversations saved for rewinds share the old one.
func (p *Projection) replace(span Span, entry surfaceEntry) {
	at := -1
	kept := make([]surfaceEntry, 0, len(p.surface)+1)
	for _, s := range p.surface {
		if s.seq >= span.Start && s.seq <= span.End {
			if at < 0 {
				at = len(kept)
			}
			continue
		}
		kept = append(kept, s)
	}
	if at < 0 {
		at = slices.IndexFunc(kept, func(s surfaceEntry) bool { return s.seq > span.End })
		if at < 0 {
			at = len(kept)
		}
	}
	p.surface = slices.Insert(kept, at, entry)
}

// push appends v to s, doubling the capacity of a full s. A log's events
// and the views folded from them grow to hundreds of thousands of entries,
// where append's smaller steps for large slices copy each entry about four
// times over.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, v)
}

func messageBytes(m llm.Message) int {
	n := len(m.Content) + len(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n
}

// SurfaceSeqs is, for each message of Surface, the seq that positions it:
// the event that appended it, or the start of the span a replacement took
// over. Compaction uses it to name what it replaces.
func (p *Projection) SurfaceSeqs() []int64 {
	out := make([]int64, len(p.surface))
	for i, s := range p.surface {
		out[i] = s.seq
	}
	return out
}

// Surface is the conversation the model sees next, oldest first, without
// the system prompt. The slice is a copy.
func (p *Projection) Surface() []llm.Message {
	out := make([]llm.Message, len(p.surface))
	for i, s := range p.surface {
		out[i] = s.msg
	}
	return out
}

// Transcript is what the human saw, in order: the append-origin events and
// a CompactionMarker event where history was replaced. The slice is shared
// and must not be modified; later Applies do not change it.
func (p *Projection) Transcript() []Event {
	return p.transcript[:len(p.transcript):len(p.transcript)]
}

// Todos is the latest todo list of the current turn; nil after a new turn
// starts until the next todo/write.
func (p *Projection) Todos() []card.TodoItem { return p.todos }

// Usage is the token usage and counts so far.
func (p *Projection) Usage() Totals { return p.totals }

// ContextTokens estimates the size of the next request's conversation: the
// last response's prompt plus output, plus about a token per 4 bytes of
// what was appended since. Before any response, or after a replacement
// rewrote history, it estimates the whole surface.
func (p *Projection) ContextTokens() int {
	if !p.sawAssistant || p.replaced {
		n := 0
		for _, s := range p.surface {
			n += messageBytes(s.msg)
		}
		return n / bytesPerToken
	}
	return p.totals.Last.Prompt() + p.totals.Last.Output + p.afterLast/bytesPerToken
}

// Title is the latest session/title, else the first prompt cut to one line
// of about 50 characters, else "".
func (p *Projection) Title() string {
	if p.title != "" {
		return p.title
	}
	if len(p.prompts) > 0 {
		return promptTitle(p.prompts[0])
	}
	return ""
}

// Prompts are the texts the user typed (prompts and steering), in order.
// The slice is shared and must not be modified.
func (p *Projection) Prompts() []string { return p.prompts[:len(p.prompts):len(p.prompts)] }

// Model is the model and effort in use: the header's model, then the latest
// step/start or model/select.
func (p *Projection) Model() (string, llm.Effort) { return p.model, p.effort }

// Turn is the number of the latest turn started, rewound or not; 0 before
// the first. Turn numbers are never reused: the next turn takes Turn()+1.
func (p *Projection) Turn() int { return p.turn }

// Steps is the number of steps started in the whole session.
func (p *Projection) Steps() int { return p.totals.Steps }

// PermissionMode is the latest permission mode, "" when never set.
func (p *Projection) PermissionMode() string { return p.permission }

// PlanMode reports whether plan mode is on.
func (p *Projection) PlanMode() bool { return p.plan }

// Created is when the session was created.
func (p *Projection) Created() time.Time { return p.header.Created }

// LastActive is the time of the latest event, else the creation time.
func (p *Projection) LastActive() time.Time { return p.lastActive }

// promptTitle cuts a prompt to its first non-blank line, spaces collapsed,
// at most maxPromptTitle runes with an ellipsis when cut.
func promptTitle(text string) string {
	var line string
	for l := range strings.Lines(text) {
		if line = strings.Join(strings.Fields(l), " "); line != "" {
			break
		}
	}
	if utf8.RuneCountInString(line) <= maxPromptTitle {
		return line
	}
	runes := []rune(line)
	return strings.TrimRight(string(runes[:maxPromptTitle-1]), " ") + "…"
}
