package linemode

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// SGR sequences for reasoning; only written when colour is on.
const (
	sgrDim   = "\x1b[2m"
	sgrReset = "\x1b[0m"
)

// reasoningTag opens reasoning on a line of its own when colour is off.
const reasoningTag = "[reasoning]"

// Prompt is what line mode prints when it waits for a line.
const Prompt = "> "

// Renderer writes a session's events in the line-mode grammar: turn
// headers, streamed text, reasoning (dimmed with colour, framed by a
// "[reasoning]" line and a blank line without), tool call and result lines, todo
// blocks and notices. Every externally sourced string is sanitised, so only
// the renderer itself ever writes an escape sequence. It is not safe for
// concurrent use; the front door owns it.
type Renderer struct {
	w     io.Writer
	color bool
	label string

	// HideReasoning drops reasoning deltas (/details reasoning off).
	HideReasoning bool
	// HideTools drops tool call and result lines (/details hidden).
	HideTools bool

	// terminal is set when liner owns the prompt line: it prints the
	// prompt itself, and a turn header overwrites the prompt it left.
	terminal bool

	inReasoning bool
	pendingCR   bool // a text delta ended in '\r'; it may start a CRLF
	lineStart   bool // the last thing written ended a line
	// overPrompt says the terminal's prompt was just drawn on a line of
	// its own (after a Ctrl+C the line editor prompts again at once): the
	// next write takes the prompt's place instead of leaving it behind.
	overPrompt bool
	openCalls  map[string]bool
	// checkpoint is the latest checkpoint, which decides what the next
	// one has to say.
	checkpoint session.Checkpoint
}

// NewRenderer renders to w. color turns on the dim SGR around reasoning
// (without it reasoning is framed in text); label names the session in turn
// headers ("main").
func NewRenderer(w io.Writer, color bool, label string) *Renderer {
	return &Renderer{w: w, color: color, label: label, openCalls: map[string]bool{}}
}

// reset forgets the stream state of the previous session's turns.
func (r *Renderer) reset() {
	r.endReasoning(true)
	r.pendingCR = false
	clear(r.openCalls)
}

// OpenCalls is how many rendered tool calls have no result yet. A question
// or approval comes from one of them.
func (r *Renderer) OpenCalls() int { return len(r.openCalls) }

// Banner writes the welcome line and the first prompt.
func (r *Renderer) Banner(welcome string) {
	if r.terminal {
		r.write(textfmt.SanitizeLine(welcome) + "\n")
		return
	}
	r.write(textfmt.SanitizeLine(welcome) + "\n" + Prompt)
}

// Write writes front-door text (command results, question prompts) as is;
// the caller sanitises what it did not write itself.
func (r *Renderer) Write(s string) {
	r.endReasoning(false)
	r.flushCR()
	if r.overPrompt && s != "" {
		r.overPrompt = false
		s = "\r\x1b[K" + strings.TrimPrefix(s, "\n")
	}
	r.write(s)
}

// PromptRedrawn says the line editor has drawn a fresh prompt on its own
// line, as it does after Ctrl+C.
func (r *Renderer) PromptRedrawn() { r.overPrompt = r.terminal }

// Notice writes front-door text (command results) on its own lines. At the
// prompt it takes the prompt's place and prints a fresh prompt after; during
// a turn it interrupts the stream.
func (r *Renderer) Notice(text string, atPrompt bool) {
	text = textfmt.Sanitize(strings.TrimRight(text, "\n"))
	switch {
	case !atPrompt:
		r.Write("\n" + text + "\n")
	case r.terminal:
		r.Write("\r\x1b[K" + text + "\n" + Prompt)
	default:
		r.Write(text + "\n" + Prompt)
	}
}

// Event renders one agent event. Status, inbox and phase changes draw
// nothing.
func (r *Renderer) Event(e agent.Event) {
	switch e := e.(type) {
	case agent.Delta:
		r.delta(e.Chunk)
	case agent.Logged:
		r.logged(e.Event)
	}
}

func (r *Renderer) delta(c llm.Chunk) {
	switch c.Kind {
	case llm.ChunkReasoning:
		if r.HideReasoning || c.Text == "" {
			return
		}
		if !r.inReasoning {
			r.flushCR()
			if r.color {
				r.write(sgrDim)
			} else {
				r.write(r.newLine() + reasoningTag + "\n")
			}
			r.inReasoning = true
		}
		r.write(textfmt.Sanitize(c.Text))
	case llm.ChunkText:
		if c.Text == "" {
			return
		}
		r.endReasoning(true)
		r.text(c.Text)
	}
}

// text writes a text delta. A CR that ends a delta is held back, so a CRLF
// split across two deltas reads as one line break.
func (r *Renderer) text(s string) {
	if r.pendingCR {
		s = "\r" + s
		r.pendingCR = false
	}
	if strings.HasSuffix(s, "\r") {
		s = s[:len(s)-1]
		r.pendingCR = true
	}
	r.write(textfmt.Sanitize(s))
}

func (r *Renderer) flushCR() {
	if r.pendingCR {
		r.pendingCR = false
		r.write(textfmt.Sanitize("\r"))
	}
}

// endReasoning closes a reasoning run; newline separates it from the text
// that follows. Without colour a blank line ends it, as "[reasoning]"
// began it, so a reader can tell it from the answer; front-door text, which
// starts with a line break of its own, completes the blank line.
func (r *Renderer) endReasoning(newline bool) {
	if !r.inReasoning {
		return
	}
	r.inReasoning = false
	if r.color {
		r.write(sgrReset)
		if newline {
			r.write("\n")
		}
		return
	}
	r.write(r.newLine())
	if newline {
		r.write("\n") // front-door text brings its own line break
	}
}

func (r *Renderer) logged(e session.Event) {
	switch d := e.Data.(type) {
	case session.TurnStart:
		start := "\n"
		if r.terminal {
			start = "\r\x1b[K"
		}
		r.Write(fmt.Sprintf("%s[%s turn %d] ", start, r.label, d.Turn))
	case session.ToolCall:
		r.openCalls[d.CallID] = true
		if !r.HideTools {
			r.Write("\n" + tagIndent + CallText(d.Name, d.Arguments, d.Card))
		}
	case session.ToolResult:
		if d.Replace != nil {
			return // a replacement of an earlier result: already shown once
		}
		delete(r.openCalls, d.CallID)
		if !r.HideTools {
			r.Write("\n" + tagIndent + ResultText(d.Text) + "\n" + tagIndent)
		}
	case session.AssistantMessage:
		for _, n := range d.Notes {
			r.Write(r.newLine() + "[note] " + textfmt.SanitizeLine(n) + "\n")
		}
	case session.TodoWrite:
		r.Write(todoBlock(d.Todos))
	case session.Retry:
		r.Write(r.newLine() + RetryNotice(d) + "\n")
	case session.CompactEnd:
		if d.Error != "" {
			r.Write("\nCompaction failed: " + textfmt.SanitizeLine(d.Error) + "\n")
		}
	case session.HookRun:
		if n := d.Notice(); n != "" {
			r.Write(r.newLine() + textfmt.Sanitize(n) + "\n")
		}
	case session.Checkpoint:
		if note := session.CheckpointNote(r.checkpoint, d); note != "" {
			r.Write(r.newLine() + textfmt.SanitizeLine(note) + "\n")
		}
		r.checkpoint = d
	case session.TurnEnd:
		clear(r.openCalls)
		if n := StopNotice(d); n != "" {
			r.Write("\n" + n)
		}
		r.Write("\n" + Prompt)
	}
}

func todoBlock(todos []card.TodoItem) string {
	var b strings.Builder
	b.WriteString("\n  [todos]\n")
	for _, t := range todos {
		mark := "[ ]"
		switch t.Status {
		case card.TodoCompleted:
			mark = "[x]"
		case card.TodoInProgress:
			mark = "[~]"
		}
		b.WriteString("    " + mark + " " + textfmt.SanitizeLine(t.Content) + "\n")
	}
	b.WriteString("  ")
	return b.String()
}

// RetryNotice is the line shown before a model request is retried.
func RetryNotice(d session.Retry) string {
	limit := fmt.Sprint(d.Max)
	if d.Max <= 0 {
		limit = "∞"
	}
	return fmt.Sprintf("Retrying model request (%d/%s) in %s: %s", d.Attempt, limit,
		textfmt.Delay(time.Duration(d.DelayMs)*time.Millisecond), textfmt.SanitizeLine(d.Failure.Message))
}

// StopNotice says why a turn ended, or nothing for a completed turn.
func StopNotice(d session.TurnEnd) string {
	switch d.Reason {
	case session.StopCompleted:
		return ""
	case session.StopAborted:
		return "Turn cancelled."
	case session.StopMaxTokens:
		return "The model reached its output-token limit."
	case session.StopInterrupted:
		return "The previous process ended during this turn."
	case session.StopMaxSteps:
		return "The turn reached its limit of model requests (--max-turns) with work left to do."
	case session.StopError:
		if d.Error != nil && d.Error.Message != "" {
			return textfmt.SanitizeLine(d.Error.Message)
		}
		return "The turn failed."
	}
	return "Turn ended: " + textfmt.SanitizeLine(string(d.Reason)) + "."
}

// newLine is what starts a new line: nothing when one has just ended.
func (r *Renderer) newLine() string {
	if r.lineStart {
		return ""
	}
	return "\n"
}

func (r *Renderer) write(s string) {
	if s != "" {
		_, _ = io.WriteString(r.w, s)
		r.lineStart = strings.HasSuffix(s, "\n")
	}
}
