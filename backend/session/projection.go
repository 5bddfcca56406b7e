package session

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// CompactionMarker stands in the transcript where a replacement rewrote the
// model's view of history (compaction, pruned tool results). Projections
// produce it; it is never written to a log.
type CompactionMarker struct{}

// EventType is "compaction/marker".
func (CompactionMarker) EventType() string { return "compaction/marker" }

// Source reads logged events back by seq (a *Log, or Events in memory).
type Source interface {
	// ReadEvents returns the events with the given seqs, ascending, in
	// seq order.
	ReadEvents(seqs []int64) ([]Event, error)
}

// surfaceEntry is one model-visible message: seq positions it (the event
// that appended it, or the start of the span a replacement took over), src
// is the event that holds it and bytes its size. msg is nil until the
// message is read back from src.
type surfaceEntry struct {
	seq, src int64
	bytes    int
	msg      *llm.Message
}

// stepModel is the model the latest step/start named, for attributing the
// usage of its assistant message.
type stepModel struct {
	turn, step int
	model      string
}

// Projection folds events into the views live rendering and resume share:
// the model's surface, the human transcript, todos, usage, title and modes.
// Apply events in seq order; it is pure and does no I/O. Its size follows
// the number of events, not their text: the surface and the transcript are
// kept as seqs, and message bodies only for the events applied to it live
// (none in a projection made with refs). It is not safe for concurrent use.
type Projection struct {
	header Header
	// applied counts the events folded in.
	applied int
	// refs keeps no message bodies: the front doors' and the log's
	// projections never build a request.
	refs bool
	// surface is the model's view; its earlier states stay readable for
	// rewinds (rewind.go).
	surface      history[surfaceEntry]
	surfaceBytes int
	// transcript holds runs of the seqs of the events the human saw, in
	// order: the append-origin events and every replacement, which
	// readers show as a CompactionMarker.
	transcript history[Span]
	todos      []card.TodoItem
	totals     Totals
	byModel    []ModelUsage
	step       stepModel
	// afterLast counts the bytes put on the surface since the last
	// assistant message; replaced says a replacement happened since then.
	afterLast    int
	sawAssistant bool
	replaced     bool
	title        string
	named        bool
	userNamed    bool
	prompts      []string
	// olderPrompts are those before prompts, still encoded, in a
	// projection read from a checkpoint that has not listed them (bulk.go).
	olderPrompts *promptList
	lastAnswer   string
	commands     map[string]int
	model        string
	effort       llm.Effort
	turn         int
	permission   string
	plan         bool
	lastActive   time.Time
	// turns, rewinds, turnNotes and saved serve rewinds (rewind.go).
	turns     history[turnRef]
	rewinds   history[RewindPoint]
	turnNotes []turnNotes
	// bulk holds surface, turns and turnNotes encoded, in a projection
	// read from a checkpoint that has not needed them yet (bulk.go);
	// broken is why they did not decode.
	bulk   *bulk
	broken error
	// saved is the conversations saved since the checkpoint in savedOld
	// (nil for a projection not read from one), which keeps those saved
	// before it encoded.
	saved    []savedConversation
	savedOld *savedBlob
	// lastCheckpoint decides which checkpoints the transcript shows;
	// checkpointID is the latest one taken.
	lastCheckpoint Checkpoint
	checkpointID   string
}

// NewProjection starts an empty projection of the session with header h.
func NewProjection(h Header) *Projection {
	return &Projection{header: h, model: h.Model, lastActive: h.Created}
}

// Clone returns an independent copy, keeping message bodies for the
// events applied to it from now on unless refs is set. The lists that only
// grow are shared with the copy: it is cheap however long the session.
func (p *Projection) Clone(refs bool) *Projection { return p.clone(refs) }

// ForDisplay is a copy for a front door: it keeps no message bodies. It
// keeps the turn notes, which the rewind picker lists.
func (p *Projection) ForDisplay() *Projection { return p.clone(true) }

func (p *Projection) clone(refs bool) *Projection {
	c := *p
	c.refs = refs
	c.surface = p.surface.share()
	c.transcript = p.transcript.clone()
	c.turns = p.turns.share()
	c.rewinds = p.rewinds.share()
	c.byModel = slices.Clone(p.byModel)
	c.prompts = slices.Clip(p.prompts)
	c.commands = maps.Clone(p.commands)
	c.saved = slices.Clip(p.saved)
	c.turnNotes = slices.Clone(p.turnNotes)
	return &c
}

// Apply folds one event in. Events of types it does not show are ignored.
func (p *Projection) Apply(e Event) { p.fold(e, -1) }

// fold is Apply for an event whose message, when size is not -1, is size
// bytes but may lack its texts: a projection that keeps no message bodies
// needs only their size (decoded.sized).
func (p *Projection) fold(e Event, size int) {
	p.unpack()
	p.applied++
	p.lastActive = e.Time
	switch d := e.Data.(type) {
	case TurnStart:
		p.startTurn(e, d)
		p.turn = d.Turn
		p.totals.Turns++
		p.todos = nil
		p.show(e.Seq)
	case UserMessage:
		p.applyUser(e, d, size)
	case SteeringMessage:
		p.prompts = append(p.prompts, strings.Clone(d.Text))
		p.place(e, llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, nil, size)
	case StepStart:
		p.totals.Steps++
		p.step = stepModel{d.Turn, d.Step, kept(p.step.model, d.Model)}
		if d.Model != "" {
			p.model, p.effort = p.step.model, llm.Effort(kept(string(p.effort), string(d.Effort)))
		}
		p.show(e.Seq)
	case AssistantMessage:
		p.applyAssistant(e, d, size)
	case TaskUsage:
		// A child's steps count in the session's totals and cost, not in
		// its context: Last stays the parent's own.
		p.totals.Sum = p.totals.Sum.Add(d.Usage)
		p.addUsage(ModelUsage{Model: d.Model, From: e.Time, Usage: d.Usage})
	case SideUsage:
		p.totals.Sum = p.totals.Sum.Add(d.Usage)
		p.addUsage(ModelUsage{Model: d.Model, From: e.Time, Usage: d.Usage})
	case ToolCall:
		p.totals.ToolCalls++
		p.show(e.Seq)
	case ToolResult:
		p.place(e, llm.Message{Role: llm.RoleTool, Content: d.Text, ToolCallID: d.CallID, Images: llmImages(d.Images)}, d.Replace, size)
	case TodoWrite:
		p.todos = cloneTodos(d.Todos)
		p.show(e.Seq)
	case Title:
		p.applyTitle(d)
	case ModelSelect:
		p.model, p.effort = strings.Clone(d.Model), llm.Effort(strings.Clone(string(d.Effort)))
	case PermissionMode:
		p.permission = strings.Clone(d.Mode)
	case PlanMode:
		p.plan = d.Active
	case Checkpoint:
		p.checkpoint(e, d)
	case Rewind:
		p.rewind(e, d)
	case CommandRun:
		if p.commands == nil {
			p.commands = map[string]int{}
		}
		p.commands[strings.Clone(d.Name)]++
	case StepEnd, TurnEnd, Retry, CommandDone, InboxDiscard, CompactEnd:
		p.show(e.Seq)
	}
}

func (p *Projection) applyUser(e Event, d UserMessage, size int) {
	if d.Kind == KindPrompt && d.Replace == nil {
		text := strings.Clone(d.Input())
		p.prompts = append(p.prompts, text)
		p.notePrompt(d.Turn)
	}
	p.place(e, llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, d.Replace, size)
}

func (p *Projection) applyAssistant(e Event, d AssistantMessage, size int) {
	p.place(e, llm.Message{Role: llm.RoleAssistant, Content: d.Text, Reasoning: d.Reasoning, ToolCalls: d.ToolCalls}, nil, size)
	p.totals.Sum = p.totals.Sum.Add(d.Usage)
	p.totals.Last = d.Usage
	p.sawAssistant, p.afterLast, p.replaced = true, 0, false
	if strings.TrimSpace(d.Text) != "" {
		p.lastAnswer = strings.Clone(d.Text)
	}
	model := ""
	if p.step.turn == d.Turn && p.step.step == d.Step {
		model = p.step.model
	}
	p.addUsage(ModelUsage{Model: model, From: e.Time, Usage: d.Usage})
}

// kept is s for a projection to keep: old when they are equal, as the
// model of step after step is, else a copy of s.
func kept(old, s string) string {
	if s == old {
		return old
	}
	return strings.Clone(s)
}

// cloneTodos copies a todo list with its strings. A projection keeps
// copies of the strings it holds: events read from a log hold theirs in
// large shared chunks, which one kept string would keep whole.
func cloneTodos(todos []card.TodoItem) []card.TodoItem {
	if todos == nil {
		return nil
	}
	out := make([]card.TodoItem, len(todos))
	for i, t := range todos {
		out[i] = card.TodoItem{Content: strings.Clone(t.Content), Status: card.TodoStatus(strings.Clone(string(t.Status))),
			ActiveForm: strings.Clone(t.ActiveForm)}
	}
	return out
}

// show appends seq to the transcript.
func (p *Projection) show(seq int64) {
	runs := p.transcript.cur
	if n := len(runs); n > 0 && runs[n-1].End == seq-1 {
		// Saved conversations share this run; they keep its end apart.
		runs[n-1].End = seq
		return
	}
	p.transcript.cur = push(runs, Span{Start: seq, End: seq})
}

// place puts a message on the surface: appended, or in place of the span it
// replaces. Both join the transcript, where a replacement shows as a
// marker. size is the message's size, -1 to measure m.
func (p *Projection) place(e Event, m llm.Message, replace *Span, size int) {
	if size < 0 {
		size = messageBytes(m)
	}
	entry := surfaceEntry{seq: e.Seq, src: e.Seq, bytes: size}
	if !p.refs {
		// A copy: taking m's address would move it to the heap for every
		// event a projection without bodies folds.
		msg := m
		entry.msg = &msg
	}
	p.show(e.Seq)
	if replace == nil {
		// appendsMessage(e) holds: List counts messages with it.
		p.totals.Messages++
		p.surface.cur = push(p.surface.cur, entry)
		p.surfaceBytes += entry.bytes
		p.afterLast += entry.bytes
		return
	}
	// The summary stands where the span began, so a later span that starts
	// at or before it replaces it too.
	entry.seq = replace.Start
	p.replace(*replace, entry)
	p.replaced = true
}

// replace removes every entry whose seq lies in span and puts entry where
// the first of them was (where such an entry would sort, if none was). It
// makes a new slice: conversations saved for rewinds share the old one.
func (p *Projection) replace(span Span, entry surfaceEntry) {
	at := -1
	kept := make([]surfaceEntry, 0, len(p.surface.cur)+1)
	for _, s := range p.surface.cur {
		if s.seq >= span.Start && s.seq <= span.End {
			if at < 0 {
				at = len(kept)
			}
			p.surfaceBytes -= s.bytes
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
	p.surface.replace(slices.Insert(kept, at, entry))
	p.surfaceBytes += entry.bytes
}

// push appends v to s, doubling the capacity of a full s. The views folded
// from a log grow to hundreds of thousands of entries, where append's
// smaller steps for large slices copy each entry about four times over.
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

// appendsMessage reports whether e appends a message to the surface, as
// place does, and so counts in Totals.Messages.
func appendsMessage(e Event) bool {
	switch d := e.Data.(type) {
	case UserMessage:
		return d.Replace == nil
	case ToolResult:
		return d.Replace == nil
	case SteeringMessage, AssistantMessage:
		return true
	}
	return false
}

// surfaceMessage is the model-visible message an event carries.
func surfaceMessage(e Event) (llm.Message, bool) {
	switch d := e.Data.(type) {
	case UserMessage:
		return llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, true
	case SteeringMessage:
		return llm.Message{Role: llm.RoleUser, Content: d.Text, Images: llmImages(d.Images)}, true
	case AssistantMessage:
		return llm.Message{Role: llm.RoleAssistant, Content: d.Text, Reasoning: d.Reasoning, ToolCalls: d.ToolCalls}, true
	case ToolResult:
		return llm.Message{Role: llm.RoleTool, Content: d.Text, ToolCallID: d.CallID, Images: llmImages(d.Images)}, true
	}
	return llm.Message{}, false
}

// SurfaceSeqs is, for each message of Surface, the seq that positions it:
// the event that appended it, or the start of the span a replacement took
// over. Compaction uses it to name what it replaces.
func (p *Projection) SurfaceSeqs() []int64 {
	p.unpack()
	out := make([]int64, len(p.surface.cur))
	for i, s := range p.surface.cur {
		out[i] = s.seq
	}
	return out
}

// Surface is the conversation the model sees next, oldest first, without
// the system prompt. Messages the projection does not hold are read from
// src and kept; src may be nil when it holds them all. The slice is a copy.
func (p *Projection) Surface(src Source) ([]llm.Message, error) {
	if err := p.loadSurface(src); err != nil {
		return nil, err
	}
	out := make([]llm.Message, len(p.surface.cur))
	for i, s := range p.surface.cur {
		out[i] = *s.msg
	}
	return out, nil
}

func (p *Projection) loadSurface(src Source) error {
	p.unpack()
	if p.broken != nil {
		return p.broken
	}
	var seqs []int64
	for _, s := range p.surface.cur {
		if s.msg == nil {
			seqs = append(seqs, s.src)
		}
	}
	if len(seqs) == 0 {
		return nil
	}
	if src == nil {
		return errMissing(seqs[0])
	}
	slices.Sort(seqs)
	events, err := src.ReadEvents(slices.Compact(seqs))
	if err != nil {
		return err
	}
	msgs := make(map[int64]*llm.Message, len(events))
	for _, e := range events {
		if m, ok := surfaceMessage(e); ok {
			msgs[e.Seq] = &m
		}
	}
	for i := range p.surface.cur {
		s := &p.surface.cur[i]
		if s.msg == nil {
			if s.msg = msgs[s.src]; s.msg == nil {
				return errMissing(s.src)
			}
		}
	}
	return nil
}

// TranscriptLen is the number of events in the transcript.
func (p *Projection) TranscriptLen() int {
	n := 0
	for _, r := range p.transcript.cur {
		n += int(r.End - r.Start + 1)
	}
	return n
}

// TranscriptBefore is the seqs of the last n transcript events before seq
// before, ascending, and whether earlier ones remain.
func (p *Projection) TranscriptBefore(before int64, n int) (seqs []int64, more bool) {
	runs := p.transcript.cur
	i := len(runs) - 1
	for i >= 0 && runs[i].Start >= before {
		i--
	}
	for ; i >= 0 && len(seqs) < n; i-- {
		r := runs[i]
		for s := min(r.End, before-1); s >= r.Start && len(seqs) < n; s-- {
			seqs = append(seqs, s)
		}
	}
	slices.Reverse(seqs)
	if len(seqs) == 0 {
		return nil, false
	}
	return seqs, runs[0].Start < seqs[0]
}

// Transcript is what the human saw, read from src, in order: the
// append-origin events and one CompactionMarker event (at the seq and time
// of the replacement) where history was replaced.
func (p *Projection) Transcript(src Source) ([]Event, error) {
	var seqs []int64
	for _, r := range p.transcript.cur {
		for s := r.Start; s <= r.End; s++ {
			seqs = append(seqs, s)
		}
	}
	events, err := src.ReadEvents(seqs)
	if err != nil {
		return nil, err
	}
	out := events[:0]
	for _, e := range events {
		if !IsReplacement(e) {
			out = append(out, e)
			continue
		}
		if n := len(out); n == 0 || out[n-1].Type != (CompactionMarker{}).EventType() {
			out = append(out, Event{Type: CompactionMarker{}.EventType(), Seq: e.Seq, Time: e.Time, Data: CompactionMarker{}})
		}
	}
	return out, nil
}

// IsReplacement reports whether e rewrote the model's view of history
// (a compaction summary or a pruned tool result) rather than adding to it.
func IsReplacement(e Event) bool {
	switch d := e.Data.(type) {
	case UserMessage:
		return d.Replace != nil
	case ToolResult:
		return d.Replace != nil
	}
	return false
}

// CheckpointID is the ID of the latest checkpoint the log records, rewound
// or not; "" when none was taken.
func (p *Projection) CheckpointID() string { return p.checkpointID }

// Len is the number of events folded in.
func (p *Projection) Len() int { return p.applied }

// Todos is the latest todo list of the current turn; nil after a new turn
// starts until the next todo/write.
func (p *Projection) Todos() []card.TodoItem { return p.todos }

// Prompts are the texts the user typed (prompts and steering), in order.
// The slice is shared and must not be modified.
func (p *Projection) Prompts() []string {
	p.unpackPrompts()
	return p.prompts[:len(p.prompts):len(p.prompts)]
}

// LastAnswer is the text of the latest assistant message that has any,
// else "".
func (p *Projection) LastAnswer() string { return p.lastAnswer }

// CommandUses counts the slash commands run, by name. The map is a copy.
func (p *Projection) CommandUses() map[string]int { return maps.Clone(p.commands) }

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
