package transcript

import (
	"strconv"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/textfmt"
)

// Apply folds one agent event into the transcript and reports whether the
// transcript changed. Durable events go through ApplyLogged; live deltas
// grow the block of their step, which the settled assistant/message later
// replaces; a discarded step loses its streamed content.
func (t *Transcript) Apply(e agent.Event) bool {
	switch e := e.(type) {
	case agent.Logged:
		return t.ApplyLogged(e.Event)
	case agent.Delta:
		return t.delta(e)
	case agent.StepDiscarded:
		return t.discard(e.Turn, e.Step)
	case agent.ToolProgress:
		return t.toolProgress(e)
	case agent.Notice:
		tone := NoticeWarning
		if e.Tone == agent.NoticeError {
			tone = NoticeError
		}
		t.AddNotice(e.Text, tone)
		return true
	}
	return false
}

// ApplyLogged folds one durable session event, live or replayed on resume;
// both paths build the same blocks.
func (t *Transcript) ApplyLogged(e session.Event) bool {
	switch d := e.Data.(type) {
	case session.UserMessage:
		return t.userMessage(d)
	case session.SteeringMessage:
		t.add(&block{kind: kindSteering, turn: d.Turn, text: d.Text, finished: true})
		t.imageLines(d.Images)
	case session.StepStart:
		t.stepBlock(d.Turn, d.Step)
		return false
	case session.AssistantMessage:
		t.settle(d)
		for _, n := range d.Notes {
			t.AddNotice("Note: "+n+".", NoticeDim)
		}
	case session.ToolCall:
		t.toolCall(d, e.Time)
	case session.ApprovalAsked:
		return t.approval(d.CallID, true, e.Time)
	case session.ApprovalDecided:
		return t.approval(d.CallID, false, e.Time)
	case session.ToolResult:
		t.toolResult(d)
	case session.StepEnd:
		return t.stepEnd(d)
	case session.TurnEnd:
		return t.turnEnd(d)
	case session.Retry:
		t.discard(d.Turn, d.Step)
		t.detach(d.Turn, d.Step)
		// One line says where the retries are, as the attempts follow
		// each other; the log keeps every one.
		t.AddSettingNotice("retry", retryText(d), NoticeWarning)
	case session.InboxDiscard:
		t.AddNotice(discardText(len(d.Texts)), NoticeDim)
	case session.CommandDone:
		return t.commandDone(d)
	case session.Checkpoint:
		note := session.CheckpointNote(t.checkpoint, d)
		t.checkpoint = d
		if note == "" {
			return false
		}
		tone := NoticeDim
		if d.Error != "" || d.Notice != "" {
			tone = NoticeWarning
		}
		t.AddNotice(note, tone)
	case session.CompactionMarker:
		// A projection's stand-in for a replacement, met when the
		// transcript is rebuilt from one (after a rewind).
		t.add(&block{kind: kindCompaction, finished: true})
	case session.HookRun:
		n := d.Notice()
		if n == "" {
			return false
		}
		tone := NoticeWarning
		if d.Outcome == "failed" {
			tone = NoticeError
		}
		t.AddNotice(n, tone)
	case session.CompactEnd:
		if d.Error == "" {
			return false
		}
		t.AddNotice("Compaction failed: "+d.Error, NoticeError)
	default:
		return false
	}
	return true
}

func (t *Transcript) userMessage(d session.UserMessage) bool {
	switch {
	case d.Replace != nil || d.Kind == session.KindSummary:
		t.add(&block{kind: kindCompaction, turn: d.Turn, finished: true})
	case d.Kind == session.KindContext:
		t.add(&block{kind: kindContext, turn: d.Turn, text: d.Text, origin: d.Origin, finished: true})
	case d.Typed != "":
		// A slash command's prompt: the command as typed heads the turn,
		// the prompt it made shows folded below, as context does.
		t.add(&block{kind: kindUser, turn: d.Turn, text: d.Typed, finished: true})
		t.add(&block{kind: kindContext, turn: d.Turn, text: d.Text, origin: commandPromptOrigin, finished: true})
		t.imageLines(d.Images)
	default:
		t.add(&block{kind: kindUser, turn: d.Turn, text: d.Text, finished: true})
		t.imageLines(d.Images)
	}
	return true
}

// commandPromptOrigin heads the prompt a slash command made of what the
// user typed.
const commandPromptOrigin = "the prompt it sent"

// imageLines shows each image a message carries as one line: name, size
// and dimensions.
func (t *Transcript) imageLines(refs []session.ImageRef) {
	for _, r := range refs {
		t.AddNotice("[image] "+textfmt.SanitizeLine(images.Describe(r)), NoticeDim)
	}
}

// stepBlock returns the assistant block of (turn, step), creating it.
func (t *Transcript) stepBlock(turn, step int) int {
	if i, ok := t.steps[[2]int{turn, step}]; ok {
		return i
	}
	i := t.add(&block{kind: kindAssistant, turn: turn, step: step})
	t.steps[[2]int{turn, step}] = i
	t.open = append(t.open, i)
	return i
}

func (t *Transcript) delta(e agent.Delta) bool {
	i := t.stepBlock(e.Turn, e.Step)
	b := t.blocks[i]
	if b.finished {
		return false
	}
	switch e.Chunk.Kind {
	case llm.ChunkReasoning:
		b.reasoning += e.Chunk.Text
	case llm.ChunkText:
		b.text += e.Chunk.Text
	case llm.ChunkToolCall:
		if !b.growCall(e.Chunk.ToolCall) {
			return false
		}
	default:
		return false
	}
	t.changed(i)
	return true
}

// growCall records a streamed tool call; only a new call or its name
// changes what is shown.
func (b *block) growCall(d *llm.ToolCallDelta) bool {
	if d == nil {
		return false
	}
	for k := range b.calls {
		if b.calls[k].index == d.Index {
			if d.Name == "" {
				return false
			}
			b.calls[k].name += d.Name
			return true
		}
	}
	b.calls = append(b.calls, streamingCall{index: d.Index, name: d.Name})
	return true
}

func (t *Transcript) discard(turn, step int) bool {
	i, ok := t.steps[[2]int{turn, step}]
	if !ok || t.blocks[i].finished {
		return false
	}
	b := t.blocks[i]
	b.text, b.reasoning, b.calls = "", "", nil
	b.answerStream, b.reasoningStream = streamed{}, streamed{}
	t.changed(i)
	return true
}

// detach lets the step's next output start a new block, so a retried
// step's answer lands below the retry notice. The emptied block draws
// nothing.
func (t *Transcript) detach(turn, step int) {
	key := [2]int{turn, step}
	if i, ok := t.steps[key]; ok {
		t.blocks[i].finished = true
		delete(t.steps, key)
	}
}

// settle replaces the streamed step with the logged message.
func (t *Transcript) settle(d session.AssistantMessage) {
	i := t.stepBlock(d.Turn, d.Step)
	b := t.blocks[i]
	b.text, b.reasoning, b.calls = d.Text, d.Reasoning, nil
	b.answerStream, b.reasoningStream = streamed{}, streamed{}
	b.finished = true
	t.changed(i)
}

func (t *Transcript) toolCall(d session.ToolCall, at time.Time) {
	t.tools[d.CallID] = t.add(&block{kind: kindTool, turn: d.Turn, step: d.Step, started: at,
		tool: cards.Tool{Name: d.Name, Call: d.Card}})
}

// approval stops a call's clock while it waits for the user, and starts
// it again from zero once they decided: the call runs from then on. While
// it waits, its card leaves the body to the approval dialog.
func (t *Transcript) approval(callID string, asked bool, at time.Time) bool {
	i, ok := t.tools[callID]
	if !ok {
		return false
	}
	b := t.blocks[i]
	b.waiting, b.started = asked, at
	b.tool.Elapsed, b.tool.Waiting = 0, asked
	t.changed(i)
	return true
}

// Tick brings the elapsed time of the calls that are running up to now,
// in whole seconds; it reports whether a card changed.
func (t *Transcript) Tick(now time.Time) bool {
	changed := false
	for _, i := range t.tools {
		b := t.blocks[i]
		if b.tool.Done || b.waiting || b.started.IsZero() {
			continue
		}
		el := max(now.Sub(b.started).Truncate(time.Second), 0)
		if el != b.tool.Elapsed {
			b.tool.Elapsed = el
			t.changed(i)
			changed = true
		}
	}
	return changed
}

// toolProgress shows a running call's changed card (a subagent at work)
// until its result arrives.
func (t *Transcript) toolProgress(e agent.ToolProgress) bool {
	i, ok := t.tools[e.CallID]
	if !ok || t.blocks[i].tool.Done {
		return false
	}
	t.blocks[i].tool.Call = e.Card
	t.changed(i)
	return true
}

func (t *Transcript) toolResult(d session.ToolResult) {
	i, ok := t.tools[d.CallID]
	if !ok {
		i = t.add(&block{kind: kindTool, turn: d.Turn, step: d.Step, tool: cards.Tool{Name: d.Name}})
		t.tools[d.CallID] = i
	}
	b := t.blocks[i]
	b.tool.Result, b.tool.Done, b.tool.Failed, b.tool.Output = d.Card, true, d.IsError, d.Text
	b.finished = true
	t.changed(i)
	delete(t.tools, d.CallID) // a call has one result
}

// stepEnd gives the step's reasoning line its duration and adds the
// step's time to its turn's.
func (t *Transcript) stepEnd(d session.StepEnd) bool {
	if t.worked.turn != d.Turn {
		t.worked = turnTime{turn: d.Turn}
	}
	s := &t.worked.StepTiming
	s.ModelWait += d.Timing.ModelWait
	s.Thinking += d.Timing.Thinking
	s.Response += d.Timing.Response
	s.Tools += d.Timing.Tools
	i, ok := t.steps[[2]int{d.Turn, d.Step}]
	if !ok || d.Timing.Thinking <= 0 {
		return false
	}
	t.blocks[i].thinking = time.Duration(d.Timing.Thinking) * time.Millisecond
	t.changed(i)
	return true
}

// turnEnd closes what the turn left streaming, says how long a long turn
// worked, and explains every stop other than completion.
func (t *Transcript) turnEnd(d session.TurnEnd) bool {
	for _, i := range t.open {
		if b := t.blocks[i]; !b.finished {
			b.finished = true
			b.calls = nil
			t.changed(i)
		}
	}
	t.open = t.open[:0]
	for key := range t.steps {
		if key[0] == d.Turn {
			delete(t.steps, key) // no step of an ended turn grows again
		}
	}
	if t.worked.turn == d.Turn {
		if text := worked(t.worked.StepTiming); text != "" {
			t.add(&block{kind: kindTiming, turn: d.Turn, text: text, finished: true})
		}
		t.worked = turnTime{}
	}
	text, tone := TurnEndNotice(d)
	if text == "" {
		return true
	}
	t.AddNotice(text, tone)
	return true
}

// maxStepsText explains a turn stopped by print mode's --max-turns.
const maxStepsText = "The turn reached its limit of model requests (--max-turns) with work left to do."

// TurnEndNotice is the notice that explains why a turn stopped, or "" for
// a completed turn.
func TurnEndNotice(d session.TurnEnd) (string, NoticeKind) {
	switch d.Reason {
	case session.StopCompleted:
		return "", NoticeInfo
	case session.StopAborted:
		return "Turn cancelled.", NoticeWarning
	case session.StopMaxTokens:
		return "The model reached its output-token limit.", NoticeWarning
	case session.StopInterrupted:
		return "The previous process ended during this turn.", NoticeWarning
	case session.StopMaxSteps:
		return maxStepsText, NoticeWarning
	case session.StopError:
		if d.Error != nil && d.Error.Message != "" {
			return d.Error.Message, NoticeError
		}
		return "The turn failed.", NoticeError
	}
	return "Turn ended: " + string(d.Reason) + ".", NoticeWarning
}

func retryText(d session.Retry) string {
	limit := strconv.Itoa(d.Max)
	if d.Max <= 0 {
		limit = "∞"
	}
	return "Retrying model request (" + strconv.Itoa(d.Attempt) + "/" + limit + ") in " +
		textfmt.Delay(time.Duration(d.DelayMs)*time.Millisecond) + ": " + d.Failure.Message
}

func discardText(n int) string {
	if n == 1 {
		return "Discarded 1 queued message."
	}
	return "Discarded " + strconv.Itoa(n) + " queued messages."
}

// WorkedAtLeast is the shortest turn that gets a timing line: a quicker
// one says nothing a reader needs.
const WorkedAtLeast = 10 * time.Second

// worked is a turn's timing line, `Worked for 1m05s · model 40s · tools
// 25s`, or "" for a turn shorter than WorkedAtLeast. The split between the
// model and the tools shows only when each took a second or more: "model
// 0s" or "tools 0s" says nothing the total does not.
func worked(s session.StepTiming) string {
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	model, tools := ms(s.ModelWait+s.Thinking+s.Response), ms(s.Tools)
	total := model + tools
	if total < WorkedAtLeast {
		return ""
	}
	text := "Worked for " + textfmt.Seconds(total)
	if model >= time.Second && tools >= time.Second {
		text += " · model " + textfmt.Seconds(model) + " · tools " + textfmt.Seconds(tools)
	}
	return text
}

// commandDone shows a command's result: its text as a notice, then its
// cards as tool cards are shown.
func (t *Transcript) commandDone(d session.CommandDone) bool {
	if d.Text == "" && len(d.Cards) == 0 {
		return false
	}
	if d.Text != "" {
		tone := NoticeInfo
		if d.Outcome == "error" {
			tone = NoticeError
		}
		t.AddNotice(d.Text, tone)
	}
	for i := range d.Cards {
		c := d.Cards[i]
		t.add(&block{kind: kindTool, tool: cards.Tool{Name: string(c.Kind), Result: &c, Done: true}, finished: true})
	}
	return true
}
