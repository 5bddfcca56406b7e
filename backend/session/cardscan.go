package session

import (
	"bytes"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// The scanner's decoders for the values event payloads hold: cards, tool
// calls, usage, timings, failures and spans.

func (s *scanner) span(d *Span) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "start":
			d.Start = s.Int64()
		case "end":
			d.End = s.Int64()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) llmToolCall(d *llm.ToolCall) {
	arguments := 0
	s.Object(func(key []byte) {
		switch string(key) {
		case "id":
			d.ID = s.Str()
		case "name":
			d.Name = s.Str()
		case "arguments":
			d.Arguments = s.body(&arguments)
		case "extra":
			d.Extra = bytes.Clone(s.Raw())
		default:
			s.Fail()
		}
	})
	s.measured += arguments
}

func (s *scanner) usage(d *llm.Usage) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "input":
			d.Input = s.Int()
		case "cache_read":
			d.CacheRead = s.Int()
		case "output":
			d.Output = s.Int()
		case "reasoning":
			d.Reasoning = s.Int()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) stepTiming(d *StepTiming) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "model_wait":
			d.ModelWait = s.Int64()
		case "thinking":
			d.Thinking = s.Int64()
		case "response":
			d.Response = s.Int64()
		case "tools":
			d.Tools = s.Int64()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) failure(d *Failure) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "kind":
			d.Kind = s.Str()
		case "message":
			d.Message = s.Str()
		case "status":
			d.Status = s.Int()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) card(d *card.Card) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "kind":
			d.Kind = card.Kind(s.Str())
		case "title":
			d.Title = s.Str()
		case "description":
			d.Description = s.Str()
		case "body":
			d.Body = s.body(nil)
		case "terminal":
			pointer(s, &d.Terminal, s.terminal)
		case "diffs":
			list(s, &d.Diffs, s.fileDiff)
		case "todos":
			list(s, &d.Todos, s.todoItem)
		case "truncated":
			d.Truncated = s.Bool()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) terminal(d *card.TerminalView) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "command":
			d.Command = s.Str()
		case "cwd":
			d.Cwd = s.Str()
		case "output":
			d.Output = s.body(nil)
		case "exit_code":
			pointer(s, &d.ExitCode, func(code *int) { *code = s.Int() })
		case "signal":
			d.Signal = s.Str()
		case "timed_out":
			d.TimedOut = s.Bool()
		case "interrupted":
			d.Interrupted = s.Bool()
		case "background":
			d.Background = s.Str()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) fileDiff(d *card.FileDiff) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "path":
			d.Path = s.Str()
		case "created":
			d.Created = s.Bool()
		case "added":
			d.Added = s.Int()
		case "removed":
			d.Removed = s.Int()
		case "lines":
			list(s, &d.Lines, s.diffLine)
		case "approximate":
			d.Approximate = s.Bool()
		default:
			s.Fail()
		}
	})
}

func (s *scanner) diffLine(d *card.DiffLine) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "op":
			d.Op = card.DiffOp(s.Str())
		case "text":
			d.Text = s.body(nil)
		default:
			s.Fail()
		}
	})
}

func (s *scanner) todoItem(d *card.TodoItem) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "content":
			d.Content = s.Str()
		case "status":
			d.Status = card.TodoStatus(s.Str())
		default:
			s.Fail()
		}
	})
}
