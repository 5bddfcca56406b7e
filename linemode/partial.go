package linemode

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/tools"
)

// partials turns one step's streamed deltas into the Messages API's stream
// events (message_start, content_block_start/delta/stop, message_delta,
// message_stop) for --include-partial-messages. It is not safe for
// concurrent use.
//
// A tool_use block's input arrives whole, in one input_json_delta when
// the block closes: the model may name a file relative to the workspace,
// and the input the assistant message then shows has it absolute
// (toolInput), which fragments already written could not become.
type partials struct {
	w           io.Writer
	sessionID   string
	noReasoning bool
	cwd         string
	args        strings.Builder // the open tool_use block's input so far

	started  bool // message_start was written for the step
	block    int  // index of the open block; -1 when none
	kind     llm.ChunkKind
	tool     int // the open tool_use block's call index
	next     int // index of the next block
	turnStep [2]int
}

func newPartials(w io.Writer, sessionID string, noReasoning bool, cwd string) *partials {
	return &partials{w: w, sessionID: sessionID, noReasoning: noReasoning, cwd: cwd, block: -1}
}

// delta writes the events one streamed piece brings.
// reply is the ReplyID of the step's reply, its message's id.
func (p *partials) delta(d agent.Delta, model, reply string) {
	c := d.Chunk
	if c.Kind == llm.ChunkReasoning && p.noReasoning {
		return
	}
	if c.Kind != llm.ChunkText && c.Kind != llm.ChunkReasoning && c.Kind != llm.ChunkToolCall {
		return
	}
	if !p.started || p.turnStep != [2]int{d.Turn, d.Step} {
		p.start(d.Turn, d.Step, model, reply)
	}
	switch c.Kind {
	case llm.ChunkText:
		p.open(llm.ChunkText, 0, map[string]any{"type": "text", "text": ""})
		p.emit("content_block_delta", map[string]any{"index": p.block, "delta": map[string]any{"type": "text_delta", "text": c.Text}})
	case llm.ChunkReasoning:
		p.open(llm.ChunkReasoning, 0, map[string]any{"type": "thinking", "thinking": ""})
		p.emit("content_block_delta", map[string]any{"index": p.block, "delta": map[string]any{"type": "thinking_delta", "thinking": c.Text}})
	case llm.ChunkToolCall:
		tc := c.ToolCall
		if tc == nil {
			return
		}
		if p.block < 0 || p.kind != llm.ChunkToolCall || p.tool != tc.Index || tc.ID != "" {
			p.open(llm.ChunkToolCall, tc.Index, map[string]any{"type": "tool_use", "id": tc.ID, "name": tools.ClaudeName(tc.Name), "input": map[string]any{}})
		}
		p.args.WriteString(tc.Arguments)
	}
}

// start writes message_start for a new step.
func (p *partials) start(turn, step int, model, reply string) {
	p.stop()
	p.started, p.turnStep, p.next, p.block = true, [2]int{turn, step}, 0, -1
	p.emit("message_start", map[string]any{"message": map[string]any{
		"id": "msg_" + reply, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "usage": claudemsg.Usage{},
	}})
}

// open starts a block of kind unless one of it is open.
func (p *partials) open(kind llm.ChunkKind, tool int, block map[string]any) {
	if p.block >= 0 && p.kind == kind && kind != llm.ChunkToolCall {
		return
	}
	p.closeBlock()
	p.block, p.kind, p.tool = p.next, kind, tool
	p.next++
	p.emit("content_block_start", map[string]any{"index": p.block, "content_block": block})
}

func (p *partials) closeBlock() {
	if p.block < 0 {
		return
	}
	if args := p.args.String(); p.kind == llm.ChunkToolCall && args != "" {
		input := args
		if json.Valid([]byte(args)) {
			input = string(toolInput(args, p.cwd))
		}
		p.emit("content_block_delta", map[string]any{"index": p.block, "delta": map[string]any{"type": "input_json_delta", "partial_json": input}})
	}
	p.args.Reset()
	p.emit("content_block_stop", map[string]any{"index": p.block})
	p.block = -1
}

// end finishes the step's message: the open block, message_delta with why
// the model stopped and its output tokens, message_stop.
func (p *partials) end(finish llm.FinishReason, usage llm.Usage) {
	if !p.started {
		return
	}
	p.closeBlock()
	p.emit("message_delta", map[string]any{"delta": map[string]any{"stop_reason": finish.StopReason(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": usage.Output}})
	p.emit("message_stop", map[string]any{})
	p.started = false
}

// stop ends a step whose message never arrived (a retried or cancelled
// request) without a message_delta.
func (p *partials) stop() {
	if p.started {
		p.closeBlock()
		p.emit("message_stop", map[string]any{})
		p.started = false
	}
}

func (p *partials) emit(kind string, fields map[string]any) {
	fields["type"] = kind
	writeJSON(p.w, streamEvent{Type: "stream_event", Event: fields, SessionID: p.sessionID, UUID: newUUID()})
}
