package session

import (
	"time"

	"github.com/tack-agent/tack/backend/llm"
)

// Resuming a session decodes every line of its log, and a long session has
// hundreds of thousands. encoding/json spends most of that time on
// reflection, on validating each line before decoding it and on rescanning
// literals. The scanner below walks each line once and decodes the event
// types a turn is made of directly into their structs, which took the CPU
// time of loading and projecting a 100,000-event log (BenchmarkLoad) from
// about 1.1 s to 0.3 s. The rarer types, and every line the scanner cannot
// decode exactly as encoding/json would, go through decodeTyped. The
// TestScanEvent tests and FuzzScanEvent pin the two paths to each other.

// scanEvent decodes an event line of type t with the scanner. ok is false
// for a type it does not decode and for a line it cannot decode exactly as
// encoding/json would. The event's strings are written to text.
func scanEvent(t string, line []byte, text *textArena) (e Event, ok bool) {
	s := &scanner{b: line, text: text}
	switch t {
	case "turn/start":
		return scanAs(s, s.turnStart)
	case "user/message":
		return scanAs(s, s.userMessage)
	case "step/start":
		return scanAs(s, s.stepStart)
	case "assistant/message":
		return scanAs(s, s.assistantMessage)
	case "tool/call":
		return scanAs(s, s.toolCall)
	case "tool/result":
		return scanAs(s, s.toolResult)
	case "step/end":
		return scanAs(s, s.stepEnd)
	case "turn/end":
		return scanAs(s, s.turnEnd)
	case "todo/write":
		return scanAs(s, s.todoWrite)
	}
	return Event{}, false
}

// scanAs decodes the envelope of a line, its payload with payload; the
// same fields as typedLine, and the type and ignorable keys it skips.
func scanAs[T Data](s *scanner, payload func(*T)) (Event, bool) {
	var (
		d       T
		seq, ms int64
		hasSeq  bool
	)
	s.object(func(key []byte) {
		switch string(key) {
		case "type":
			if _, escaped := s.stringBody(); escaped {
				s.fail()
			}
		case "seq":
			seq, hasSeq = s.int64(), true
		case "time":
			ms = s.int64()
		case "data":
			payload(&d)
		case "ignorable":
			s.bool()
		default:
			s.fail()
		}
	})
	s.end()
	if s.failed || !hasSeq {
		return Event{}, false
	}
	return Event{Type: d.EventType(), Seq: seq, Time: time.UnixMilli(ms), Data: d}, true
}

func (s *scanner) turnStart(d *TurnStart) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		default:
			s.fail()
		}
	})
}

func (s *scanner) userMessage(d *UserMessage) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "kind":
			d.Kind = MessageKind(s.str())
		case "text":
			d.Text = s.str()
		case "origin":
			d.Origin = s.str()
		case "replace":
			pointer(s, &d.Replace, s.span)
		default:
			s.fail()
		}
	})
}

func (s *scanner) stepStart(d *StepStart) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "step":
			d.Step = s.int()
		case "model":
			d.Model = s.str()
		case "effort":
			d.Effort = llm.Effort(s.str())
		default:
			s.fail()
		}
	})
}

func (s *scanner) assistantMessage(d *AssistantMessage) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "step":
			d.Step = s.int()
		case "text":
			d.Text = s.str()
		case "reasoning":
			d.Reasoning = s.str()
		case "tool_calls":
			list(s, &d.ToolCalls, s.llmToolCall)
		case "usage":
			s.usage(&d.Usage)
		case "finish":
			d.Finish = llm.FinishReason(s.str())
		default:
			s.fail()
		}
	})
}

func (s *scanner) toolCall(d *ToolCall) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "step":
			d.Step = s.int()
		case "call_id":
			d.CallID = s.str()
		case "name":
			d.Name = s.str()
		case "arguments":
			d.Arguments = s.str()
		case "card":
			s.card(&d.Card)
		default:
			s.fail()
		}
	})
}

func (s *scanner) toolResult(d *ToolResult) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "step":
			d.Step = s.int()
		case "call_id":
			d.CallID = s.str()
		case "name":
			d.Name = s.str()
		case "text":
			d.Text = s.str()
		case "is_error":
			d.IsError = s.bool()
		case "code":
			d.Code = s.str()
		case "card":
			pointer(s, &d.Card, s.card)
		case "replace":
			pointer(s, &d.Replace, s.span)
		default:
			s.fail()
		}
	})
}

func (s *scanner) stepEnd(d *StepEnd) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "step":
			d.Step = s.int()
		case "timing":
			s.stepTiming(&d.Timing)
		default:
			s.fail()
		}
	})
}

func (s *scanner) turnEnd(d *TurnEnd) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "reason":
			d.Reason = StopReason(s.str())
		case "error":
			pointer(s, &d.Error, s.failure)
		default:
			s.fail()
		}
	})
}

func (s *scanner) todoWrite(d *TodoWrite) {
	s.object(func(key []byte) {
		switch string(key) {
		case "turn":
			d.Turn = s.int()
		case "todos":
			list(s, &d.Todos, s.todoItem)
		default:
			s.fail()
		}
	})
}
