package linemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tack-agent/tack/backend/elicit"
)

// SDKChannel carries print mode's requests to the Agent SDK that drives
// it over stream-json: can_use_tool, mcp_message for the SDK's
// in-process MCP servers ("type": "sdk"), and elicitation for MCP
// servers' forms. It is made before the session
// opens, so the session's MCP servers can relay through it (RelayMCP),
// and carries requests once Print binds it to stdout, until Print ends.
type SDKChannel struct {
	mu      sync.Mutex
	out     io.Writer
	next    int
	waiting map[string]chan sdkResponse // the requests sent, by id
	bound   chan struct{}
	ended   chan struct{}
	once    sync.Once
}

// sdkResponse is the response object of a control_response line.
type sdkResponse struct {
	Subtype  string          `json:"subtype"` // "success" or "error"
	Error    string          `json:"error"`
	Response json.RawMessage `json:"response"`
}

// NewSDKChannel makes a channel for Print to bind.
func NewSDKChannel() *SDKChannel {
	return &SDKChannel{waiting: map[string]chan sdkResponse{}, bound: make(chan struct{}), ended: make(chan struct{})}
}

// bind starts carrying requests to w; done ends them, failing those still
// waiting.
func (c *SDKChannel) bind(w io.Writer) (done func()) {
	c.mu.Lock()
	c.out = w
	c.mu.Unlock()
	close(c.bound)
	return func() { c.once.Do(func() { close(c.ended) }) }
}

// errSDKGone fails a request the SDK can no longer answer.
var errSDKGone = errors.New("the Agent SDK's stream ended before it answered")

// request writes a control_request of subtype with fields and waits for
// the SDK's response to it.
func (c *SDKChannel) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	select {
	case <-c.bound:
	case <-c.ended:
		return nil, errSDKGone
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ch := make(chan sdkResponse, 1)
	c.mu.Lock()
	c.next++
	id := fmt.Sprintf("tack_%s_%d", subtype, c.next)
	c.waiting[id] = ch
	out := c.out
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
	}()
	req := map[string]any{"subtype": subtype}
	for k, v := range fields {
		req[k] = v
	}
	writeJSON(out, map[string]any{"type": "control_request", "request_id": id, "request": req})
	select {
	case r := <-ch:
		if r.Subtype == "error" {
			return nil, fmt.Errorf("the Agent SDK's %s failed: %s", subtype, r.Error)
		}
		return r.Response, nil
	case <-c.ended:
		return nil, errSDKGone
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands a control_response line to the request it answers.
func (c *SDKChannel) deliver(line []byte) {
	var m struct {
		Response struct {
			sdkResponse
			RequestID string `json:"request_id"`
		} `json:"response"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	c.mu.Lock()
	ch := c.waiting[m.Response.RequestID]
	c.mu.Unlock()
	if ch != nil {
		select {
		case ch <- m.Response.sdkResponse:
		default: // answered twice: the first answer stands
		}
	}
}

// RelayMCP carries a JSON-RPC message to the SDK's in-process MCP server
// of that name (an mcp_message request) and returns the server's answer.
func (c *SDKChannel) RelayMCP(ctx context.Context, server string, message json.RawMessage) (json.RawMessage, error) {
	resp, err := c.request(ctx, "mcp_message", map[string]any{"server_name": server, "message": message})
	if err != nil {
		return nil, err
	}
	var r struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if err := json.Unmarshal(resp, &r); err != nil || len(r.MCPResponse) == 0 {
		return nil, fmt.Errorf("the Agent SDK answered mcp_message without an mcp_response: %s", resp)
	}
	return r.MCPResponse, nil
}

// Elicit puts an MCP server's form, or its web page to open (URL mode),
// to the Agent SDK (its onElicitation callback) as Claude Code does, with
// an elicitation request; an answer the SDK fails, or one that is none of
// the protocol's actions, cancels it, as it does there.
func (c *SDKChannel) Elicit(ctx context.Context, r elicit.Request) elicit.Result {
	req := map[string]any{"mcp_server_name": r.Server, "message": r.Message, "mode": r.Mode()}
	if r.Mode() == elicit.ModeURL {
		req["url"], req["elicitation_id"] = r.URL, r.ElicitationID
	} else {
		req["requested_schema"] = r.Schema
	}
	resp, err := c.request(ctx, "elicitation", req)
	var res elicit.Result
	var answer struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	switch {
	case err != nil, json.Unmarshal(resp, &answer) != nil:
		return elicit.Result{Action: elicit.Cancel}
	case answer.Action == elicit.Accept:
		res = elicit.Result{Action: elicit.Accept, Content: answer.Content}
		if res.Content == nil {
			res.Content = map[string]any{}
		}
	case answer.Action == elicit.Decline:
		res.Action = elicit.Decline
	default:
		res.Action = elicit.Cancel
	}
	return res
}
