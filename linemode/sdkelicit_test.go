package linemode

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/elicit"
)

// TestSDKAnswersServersForms pins the elicitation request Claude Code
// sends its Agent SDK for an MCP server's form (mcp_server_name,
// message, mode, requested_schema) or web page (mode "url", url,
// elicitation_id), and what the SDK's answers become.
func TestSDKAnswersServersForms(t *testing.T) {
	form := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	page := elicit.Request{Server: "bank", Message: "Sign in", URL: "https://bank.example.com/consent", ElicitationID: "el-1"}
	for _, c := range []struct {
		name, answer string
		want         elicit.Result
		page         bool
	}{
		{"accepted", `{"subtype":"success","response":{"action":"accept","content":{"name":"Ada"}}}`,
			elicit.Result{Action: elicit.Accept, Content: map[string]any{"name": "Ada"}}, false},
		{"declined", `{"subtype":"success","response":{"action":"decline","content":{"name":"Ada"}}}`, elicit.Result{Action: elicit.Decline}, false},
		{"failed", `{"subtype":"error","error":"no onElicitation callback"}`, elicit.Result{Action: elicit.Cancel}, false},
		{"no action", `{"subtype":"success","response":{}}`, elicit.Result{Action: elicit.Cancel}, false},
		{"page accepted", `{"subtype":"success","response":{"action":"accept"}}`,
			elicit.Result{Action: elicit.Accept, Content: map[string]any{}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := NewSDKChannel()
			r, w := io.Pipe()
			done := ch.bind(w)
			defer done()
			got := make(chan elicit.Result, 1)
			ask, want := elicit.Request{Server: "docs", Message: "Who?", Schema: form},
				map[string]any{"subtype": "elicitation", "mcp_server_name": "docs", "message": "Who?", "mode": "form", "requested_schema": form}
			if c.page {
				ask, want = page, map[string]any{"subtype": "elicitation", "mcp_server_name": "bank", "message": "Sign in", "mode": "url",
					"url": "https://bank.example.com/consent", "elicitation_id": "el-1"}
			}
			go func() { got <- ch.Elicit(context.Background(), ask) }()
			line, err := bufio.NewReader(r).ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			var req struct {
				Type      string         `json:"type"`
				RequestID string         `json:"request_id"`
				Request   map[string]any `json:"request"`
			}
			json.Unmarshal(line, &req)
			if req.Type != "control_request" || !reflect.DeepEqual(req.Request, want) {
				t.Errorf("tack asked the SDK %s, want a control_request of %v", line, want)
			}
			var resp map[string]any
			json.Unmarshal([]byte(c.answer), &resp)
			resp["request_id"] = req.RequestID
			b, _ := json.Marshal(map[string]any{"type": "control_response", "response": resp})
			ch.deliver(b)
			if res := <-got; !reflect.DeepEqual(res, c.want) {
				t.Errorf("the SDK answered %s; Elicit = %v, want %v", c.answer, res, c.want)
			}
		})
	}
}
