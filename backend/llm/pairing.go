package llm

import "strconv"

// noToolOutput replaces an empty tool result, which some servers reject.
const noToolOutput = "(no output)"

// noResultText answers a call the history holds no result for.
const noResultText = "Error: no result of this tool call was recorded (the session log holds none); run it again if it is still needed."

// pairing makes a history every server accepts, whatever the session log
// holds, edited by hand or cut short: each tool result directly follows the
// assistant message whose call it answers, every call is answered before
// the next user or assistant message, and no two calls share an id.
//
//   - a call without an id, or with one an earlier call took, gets a made-up
//     one, and the results after it that name the old id answer it in order;
//   - a result that answers no open call is left out;
//   - a call left unanswered gets a result saying none was recorded.
//
// Made-up ids follow from the history's shape alone, so the same history
// makes the same request, and the provider's prompt cache keeps hitting.
type pairing struct {
	taken map[string]bool // every call id of the history, and those made up
	sent  map[string]bool // the ids of the calls sent so far
	open  []openCall      // the calls of the last assistant message
	calls int             // calls seen, for made-up ids
}

type openCall struct {
	asked, id string // the id the log holds, the id sent
	answered  bool
}

func newPairing(msgs []Message) *pairing {
	p := &pairing{taken: map[string]bool{}, sent: map[string]bool{}}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			p.taken[tc.ID] = true
		}
	}
	return p
}

// call opens a call of an assistant message and returns the id to send.
func (p *pairing) call(asked string) string {
	p.calls++
	id := asked
	if id == "" || p.sent[id] {
		for k := p.calls; id == "" || p.taken[id]; k++ {
			id = "call_tack_" + strconv.Itoa(k)
		}
	}
	p.taken[id], p.sent[id] = true, true
	p.open = append(p.open, openCall{asked: asked, id: id})
	return id
}

// result pairs a tool result with the first open call it names.
func (p *pairing) result(m Message) (wireMessage, bool) {
	for i := range p.open {
		c := &p.open[i]
		if !c.answered && c.asked == m.ToolCallID {
			c.answered = true
			content := m.Content
			if content == "" {
				content = noToolOutput
			}
			return wireMessage{Role: RoleTool, Content: content, ToolCallID: c.id}, true
		}
	}
	return wireMessage{}, false
}

// close answers the open calls no result answered and forgets them.
func (p *pairing) close(out []wireMessage) []wireMessage {
	for _, c := range p.open {
		if !c.answered {
			out = append(out, wireMessage{Role: RoleTool, Content: noResultText, ToolCallID: c.id})
		}
	}
	p.open = p.open[:0]
	return out
}
