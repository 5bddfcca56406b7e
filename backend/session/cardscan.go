package session

import (
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// The scanner's decoders for the values event payloads hold: cards, tool
// calls, usage, timings, failures and spans.

func (s *scanner) span(d *Span) {
	s.object(func(key []byte) {
		switch string(key) {
		case "start":
			d.Start = s.int64()
		case "end":
			d.End = s.int64()
		default:
			s.fail()
		}
	})
}

func (s *scanner) llmToolCall(d *llm.ToolCall) {
	s.object(func(key []byte) {
		switch string(key) {
		case "id":
			d.ID = s.str()
		case "name":
			d.Name = s.str()
		case "arguments":
			d.Arguments = s.str()
		default:
			s.fail()
		}
	})
}

func (s *scanner) usage(d *llm.Usage) {
	s.object(func(key []byte) {
		switch string(key) {
		case "input":
			d.Input = s.int()
		case "cache_read":
			d.CacheRead = s.int()
		case "output":
			d.Output = s.int()
		case "reasoning":
			d.Reasoning = s.int()
		default:
			s.fail()
		}
	})
}

func (s *scanner) stepTiming(d *StepTiming) {
	s.object(func(key []byte) {
		switch string(key) {
		case "model_wait":
			d.ModelWait = s.int64()
		case "thinking":
			d.Thinking = s.int64()
		case "response":
			d.Response = s.int64()
		case "tools":
			d.Tools = s.int64()
		default:
			s.fail()
		}
	})
}

func (s *scanner) failure(d *Failure) {
	s.object(func(key []byte) {
		switch string(key) {
		case "kind":
			d.Kind = s.str()
		case "message":
			d.Message = s.str()
		case "status":
			d.Status = s.int()
		default:
			s.fail()
		}
	})
}

func (s *scanner) card(d *card.Card) {
	s.object(func(key []byte) {
		switch string(key) {
		case "kind":
			d.Kind = card.Kind(s.str())
		case "title":
			d.Title = s.str()
		case "description":
			d.Description = s.str()
		case "body":
			d.Body = s.str()
		case "terminal":
			pointer(s, &d.Terminal, s.terminal)
		case "diffs":
			list(s, &d.Diffs, s.fileDiff)
		case "todos":
			list(s, &d.Todos, s.todoItem)
		case "truncated":
			d.Truncated = s.bool()
		default:
			s.fail()
		}
	})
}

func (s *scanner) terminal(d *card.TerminalView) {
	s.object(func(key []byte) {
		switch string(key) {
		case "command":
			d.Command = s.str()
		case "cwd":
			d.Cwd = s.str()
		case "output":
			d.Output = s.str()
		case "exit_code":
			pointer(s, &d.ExitCode, func(code *int) { *code = s.int() })
		case "signal":
			d.Signal = s.str()
		case "timed_out":
			d.TimedOut = s.bool()
		case "background":
			d.Background = s.str()
		default:
			s.fail()
		}
	})
}

func (s *scanner) fileDiff(d *card.FileDiff) {
	s.object(func(key []byte) {
		switch string(key) {
		case "path":
			d.Path = s.str()
		case "created":
			d.Created = s.bool()
		case "added":
			d.Added = s.int()
		case "removed":
			d.Removed = s.int()
		case "lines":
			list(s, &d.Lines, s.diffLine)
		case "approximate":
			d.Approximate = s.bool()
		default:
			s.fail()
		}
	})
}

func (s *scanner) diffLine(d *card.DiffLine) {
	s.object(func(key []byte) {
		switch string(key) {
		case "op":
			d.Op = card.DiffOp(s.str())
		case "text":
			d.Text = s.str()
		default:
			s.fail()
		}
	})
}

func (s *scanner) todoItem(d *card.TodoItem) {
	s.object(func(key []byte) {
		switch string(key) {
		case "content":
			d.Content = s.str()
		case "status":
			d.Status = card.TodoStatus(s.str())
		default:
			s.fail()
		}
	})
}
