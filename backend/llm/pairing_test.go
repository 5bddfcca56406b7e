package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestHandEditedHistoriesBecomeValidRequests sends histories a session log
// edited by hand (or cut short) can hold, and checks what goes on the
// wire: the fake server's validation, which knows nothing of the repair,
// must accept each, and the repair must be the expected one.
func TestHandEditedHistoriesBecomeValidRequests(t *testing.T) {
	user := func(s string) Message { return Message{Role: RoleUser, Content: s} }
	calls := func(ids ...string) Message {
		m := Message{Role: RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Name: "bash", Arguments: `{}`})
		}
		return m
	}
	result := func(id, text string) Message { return Message{Role: RoleTool, ToolCallID: id, Content: text} }
	tests := []struct {
		name    string
		history []Message
		want    string // role:id:content per message
	}{
		{"a valid history is sent as it is",
			[]Message{user("go"), calls("a", "b"), result("a", "1"), result("b", "2"), user("next")},
			"user::go assistant:a,b: tool:a:1 tool:b:2 user::next"},
		{"a result without its call is left out",
			[]Message{user("go"), result("ghost", "boo"), user("next")},
			"user::go user::next"},
		{"a call without its result gets one",
			[]Message{user("go"), calls("a", "b"), result("b", "2"), user("next")},
			"user::go assistant:a,b: tool:b:2 tool:a:" + noResultText + " user::next"},
		{"a result after the next user message answers nothing",
			[]Message{user("go"), calls("a"), user("wait"), result("a", "late")},
			"user::go assistant:a: tool:a:" + noResultText + " user::wait"},
		{"an id used again gets a fresh one, with its results",
			[]Message{user("go"), calls("call_0"), result("call_0", "1"), calls("call_0"), result("call_0", "2")},
			"user::go assistant:call_0: tool:call_0:1 assistant:call_tack_2: tool:call_tack_2:2"},
		{"an empty id and two calls sharing one",
			[]Message{user("go"), calls("", "d", "d"), result("", "1"), result("d", "2"), result("d", "3")},
			"user::go assistant:call_tack_1,d,call_tack_3: tool:call_tack_1:1 tool:d:2 tool:call_tack_3:3"},
		{"a made-up id never takes one the history uses",
			[]Message{user("go"), calls(""), result("", "1"), calls("call_tack_1"), result("call_tack_1", "2")},
			"user::go assistant:call_tack_2: tool:call_tack_2:1 assistant:call_tack_1: tool:call_tack_1:2"},
		{"a trailing call without a result is answered",
			[]Message{user("go"), calls("a")},
			"user::go assistant:a: tool:a:" + noResultText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.ReplyText("ok"))
			if _, err := Collect(must(newTestClient(srv).Stream(context.Background(), Request{Model: "m", Messages: tt.history}))); err != nil {
				t.Fatalf("want the repaired request accepted, got %v", err)
			}
			srv.AssertConsumed(t)
			var got []string
			for _, m := range srv.Requests()[0].Messages {
				var ids []string
				for _, c := range m.ToolCalls {
					ids = append(ids, c.ID)
				}
				got = append(got, m.Role+":"+strings.Join(ids, ",")+m.ToolCallID+":"+m.Content)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("\nwant %s\ngot  %s", tt.want, strings.Join(got, " "))
			}
		})
	}
}
