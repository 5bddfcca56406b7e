package session

import (
	"time"

	"github.com/tack-agent/tack/backend/jsonscan"
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
	c := codecs[t]
	if c.scan == nil {
		return Event{}, false
	}
	text.sc = scanner{Scanner: jsonscan.New(line, &text.Arena), fold: text.fold}
	return c.scan(&text.sc)
}

// scanAs decodes the envelope of a line, its payload with payload; the
// same fields as typedLine, and the type and ignorable keys it skips.
func scanAs[T Data](s *scanner, payload func(*scanner, *T)) (Event, bool) {
	var (
		d       T
		seq, ms int64
		hasSeq  bool
	)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			if s.Peek() != '"' {
				s.Fail()
			}
			s.Skip()
		case "seq":
			seq, hasSeq = s.Int64(), true
		case "time":
			ms = s.Int64()
		case "data":
			payload(s, &d)
		case "ignorable":
			s.Bool()
		default:
			s.Fail()
		}
	})
	s.End()
	if s.Failed() || !hasSeq {
		return Event{}, false
	}
	return Event{Type: d.EventType(), Seq: seq, Time: time.UnixMilli(ms), Data: d}, true
}

// place decodes the keys that say where in the conversation an event
// stands, "turn" and "step", and fails on any other key: the last case of
// an event's decoder. step is nil for an event that has no step.
func (s *scanner) place(key []byte, turn, step *int) {
	switch string(key) {
	case "turn":
		*turn = s.Int()
	case "step":
		if step == nil {
			s.Fail()
			return
		}
		*step = s.Int()
	default:
		s.Fail()
	}
}

func (s *scanner) turnStart(d *TurnStart) {
	s.Object(func(key []byte) { s.place(key, &d.Turn, nil) })
}

func (s *scanner) userMessage(d *UserMessage) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "kind":
			d.Kind = MessageKind(s.Str())
		case "text":
			d.Text = s.Str()
		case "origin":
			d.Origin = s.Str()
		case "typed":
			d.Typed = s.Str()
		case "replace":
			pointer(s, &d.Replace, s.span)
		default:
			s.place(key, &d.Turn, nil)
		}
	})
}

func (s *scanner) stepStart(d *StepStart) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "model":
			d.Model = s.Str()
		case "effort":
			d.Effort = llm.Effort(s.Str())
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
}

func (s *scanner) assistantMessage(d *AssistantMessage) {
	reasoning := 0
	s.Object(func(key []byte) {
		switch string(key) {
		case "text":
			d.Text = s.Str()
		case "reasoning":
			d.Reasoning = s.body(&reasoning)
		case "tool_calls":
			list(s, &d.ToolCalls, s.llmToolCall)
		case "usage":
			s.usage(&d.Usage)
		case "finish":
			d.Finish = llm.FinishReason(s.Str())
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
	s.measured += reasoning
}

func (s *scanner) toolCall(d *ToolCall) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "call_id":
			d.CallID = s.Str()
		case "name":
			d.Name = s.Str()
		case "arguments":
			d.Arguments = s.body(nil)
		case "card":
			s.card(&d.Card)
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
}

func (s *scanner) toolResult(d *ToolResult) {
	text := 0
	s.Object(func(key []byte) {
		switch string(key) {
		case "call_id":
			d.CallID = s.Str()
		case "name":
			d.Name = s.Str()
		case "text":
			d.Text = s.body(&text)
		case "is_error":
			d.IsError = s.Bool()
		case "code":
			d.Code = s.Str()
		case "card":
			pointer(s, &d.Card, s.card)
		case "replace":
			pointer(s, &d.Replace, s.span)
		case "duration_ms":
			d.DurationMs = s.Int64()
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
	s.measured += text
}

func (s *scanner) stepEnd(d *StepEnd) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "timing":
			s.stepTiming(&d.Timing)
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
}

func (s *scanner) turnEnd(d *TurnEnd) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "reason":
			d.Reason = StopReason(s.Str())
		case "error":
			pointer(s, &d.Error, s.failure)
		default:
			s.place(key, &d.Turn, nil)
		}
	})
}

func (s *scanner) todoWrite(d *TodoWrite) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "todos":
			list(s, &d.Todos, s.todoItem)
		default:
			s.place(key, &d.Turn, nil)
		}
	})
}

// checkpoint is the most frequent log-only event: two or three a turn.
func (s *scanner) checkpoint(d *Checkpoint) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "phase":
			d.Phase = CheckpointPhase(s.Str())
		case "id":
			d.ID = s.Str()
		case "store":
			d.Store = s.Str()
		case "changed":
			list(s, &d.Changed, func(p *string) { *p = s.Str() })
		case "skipped":
			list(s, &d.Skipped, s.skippedFile)
		case "error":
			d.Error = s.Str()
		case "notice":
			d.Notice = s.Str()
		default:
			s.place(key, &d.Turn, &d.Step)
		}
	})
}

func (s *scanner) skippedFile(d *SkippedFile) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "path":
			d.Path = s.Str()
		case "size":
			d.Size = s.Int64()
		case "reason":
			d.Reason = s.Str()
		default:
			s.Fail()
		}
	})
}
