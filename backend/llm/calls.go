package llm

import (
	"encoding/json"
	"strconv"
	"strings"
)

// callAssembler turns the tool-call fragments of one response, in the
// shapes servers send them, into deltas with one Index per call, an ID on
// each call's first fragment and that call's name:
//
//   - a call without an id (vLLM, llama.cpp) gets one made from seed and
//     its position, so its result can answer it;
//   - a new id at an index a call already used starts a new call (servers
//     that restart a second parallel call at index 0);
//   - a call whose id an earlier call of the response took gets a made-up
//     one, so the history never holds two calls with one id;
//   - a name repeated in every fragment (vLLM) is taken once, and a
//     different name, or a new object after a complete one, at the same
//     index starts a new call;
//   - indexes may start anywhere (LiteLLM starts at 1) or be missing.
//
// The seed is made from the request (see Client.Stream), so a retry of the
// same request makes the same ids and different requests different ones.
type callAssembler struct {
	seed  string
	calls []wireCall // in the order they began
	ids   map[string]bool
}

type wireCall struct {
	index    int    // the index the server gave
	serverID string // the id the server gave, "" for none
	id       string
	name     string
	// args is a []byte, not a strings.Builder: calls grows by append,
	// which copies its elements, and a copied Builder panics on its next
	// write (two parallel calls whose fragments interleave).
	args []byte
}

// add folds one fragment in and returns the delta to emit, if any.
func (a *callAssembler) add(tc wireToolCall) (ToolCallDelta, bool) {
	index := 0
	if tc.Index != nil {
		index = *tc.Index
	}
	name, args, extra := tc.Function.Name, string(tc.Function.Arguments), extraOf(tc)
	if tc.ID == "" && name == "" && args == "" && extra == nil {
		return ToolCallDelta{}, false
	}
	cur := a.current(index)
	if cur < 0 || a.calls[cur].startedBy(tc.ID, name, args) {
		if cur >= 0 && tc.ID == "" && name == "" {
			name = a.calls[cur].name // an unnamed object after a complete one: the same tool again
		}
		cur = a.begin(index, tc.ID, name)
		a.calls[cur].args = append(a.calls[cur].args, args...)
		return ToolCallDelta{Index: cur, ID: a.calls[cur].id, Name: name, Arguments: args, Extra: extra}, true
	}
	c := &a.calls[cur]
	d := ToolCallDelta{Index: cur, Arguments: args, Extra: extra}
	if c.name == "" && name != "" {
		c.name, d.Name = name, name
	}
	c.args = append(c.args, args...)
	if d.Name == "" && args == "" && extra == nil {
		return ToolCallDelta{}, false
	}
	return d, true
}

// extraOf is a fragment's extra_content, nil when it has none.
func extraOf(tc wireToolCall) json.RawMessage {
	if len(tc.ExtraContent) == 0 || string(tc.ExtraContent) == "null" {
		return nil
	}
	return tc.ExtraContent
}

// current is the latest call at the server's index, or -1.
func (a *callAssembler) current(index int) int {
	for i := len(a.calls) - 1; i >= 0; i-- {
		if a.calls[i].index == index {
			return i
		}
	}
	return -1
}

// startedBy reports whether a fragment at c's index begins another call:
// a new id, a new name, or a new object after c's complete one. Servers
// restart parallel calls at index 0 with new ids (ai-dynamo/dynamo#4723),
// send every call at index 0 without ids (LiteLLM#21331) and name every
// fragment of one call (vLLM), so only the end of a complete object tells
// id-less calls apart (unsloth#10059 settled on the same boundary).
func (c *wireCall) startedBy(id, name, args string) bool {
	switch {
	case id != "" && c.serverID != "" && id != c.serverID:
		return true
	case name != "" && c.name != "" && name != c.name:
		return true
	}
	return strings.HasPrefix(strings.TrimLeft(args, " \t\r\n"), "{") && len(c.args) > 0 && json.Valid(c.args)
}

// begin starts a call at the server's index with the server's id, or a
// made-up one when that is empty or taken.
func (a *callAssembler) begin(index int, serverID, name string) int {
	if a.ids == nil {
		a.ids = map[string]bool{}
	}
	n := len(a.calls)
	id := serverID
	if id == "" || a.ids[id] {
		id = a.madeUp(n)
	}
	a.ids[id] = true
	a.calls = append(a.calls, wireCall{index: index, serverID: serverID, id: id, name: name})
	return n
}

func (a *callAssembler) madeUp(n int) string {
	for k := n; ; k++ {
		id := "call_" + a.seed + "_" + strconv.Itoa(k)
		if !a.ids[id] {
			return id
		}
	}
}

func (a *callAssembler) any() bool { return len(a.calls) > 0 }
