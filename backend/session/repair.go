package session

// Texts of the tool results that crash repair writes.
const (
	OutcomeUnknownText = "Error: the previous process ended while this tool was running; its outcome is unknown. Check its side effects before retrying."
	NotStartedText     = "Error: tool call was not started because the previous process ended"
)

// closers returns the events that close what a killed writer left open, in
// the order they must be appended: a result for every unanswered tool call
// (outcome unknown when its tool/call was logged, not started otherwise, in
// the model's order), then the open step's end, then the open turn's end.
// Calls of turns that ended are not revisited. It returns nothing for a
// log that was closed properly.
func closers(events []Event) []Data {
	// A closed turn answered its calls: only events after the last turn/end
	// matter, and a long log is mostly closed turns.
	for i := len(events) - 1; i >= 0; i-- {
		if _, ok := events[i].Data.(TurnEnd); ok {
			events = events[i+1:]
			break
		}
	}
	var (
		answered   = map[string]bool{}
		dispatched = map[string]ToolCall{}
		dispatch   []ToolCall // tool/call events in log order
		last       *AssistantMessage
		step       *StepStart
		turn       *TurnStart
	)
	for _, e := range events {
		switch d := e.Data.(type) {
		case AssistantMessage:
			last = &d
		case ToolCall:
			dispatched[d.CallID] = d
			dispatch = append(dispatch, d)
		case ToolResult:
			if d.Replace == nil {
				answered[d.CallID] = true
			}
		case StepStart:
			step = &d
		case StepEnd:
			step = nil
		case TurnStart:
			turn = &d
		}
	}
	var out []Data
	// Dispatched calls the last assistant message did not ask for come
	// first, in log order; that message's calls follow in the model's order.
	var lastCalls []ToolCall
	inLast := map[string]bool{}
	if last != nil {
		for _, c := range last.ToolCalls {
			inLast[c.ID] = true
			lastCalls = append(lastCalls, ToolCall{Turn: last.Turn, Step: last.Step, CallID: c.ID, Name: c.Name})
		}
	}
	for _, c := range dispatch {
		if !answered[c.CallID] && !inLast[c.CallID] {
			out = append(out, outcomeUnknown(c))
			answered[c.CallID] = true
		}
	}
	for _, c := range lastCalls {
		switch d, ok := dispatched[c.CallID]; {
		case answered[c.CallID]:
		case ok:
			out = append(out, outcomeUnknown(d))
		default:
			out = append(out, ToolResult{Turn: c.Turn, Step: c.Step, CallID: c.CallID, Name: c.Name,
				Text: NotStartedText, IsError: true, Code: CodeNotStarted})
		}
	}
	if step != nil {
		out = append(out, StepEnd{Turn: step.Turn, Step: step.Step})
	}
	if turn != nil {
		out = append(out, TurnEnd{Turn: turn.Turn, Reason: StopInterrupted})
	}
	return out
}

func outcomeUnknown(c ToolCall) ToolResult {
	return ToolResult{Turn: c.Turn, Step: c.Step, CallID: c.CallID, Name: c.Name,
		Text: OutcomeUnknownText, IsError: true, Code: CodeOutcomeUnknown}
}
