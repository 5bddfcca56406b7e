package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/interact"
)

const bankURL = "https://bank.example.com/consent?client=tack&state=8d1f0a7e"

// goSDKBank is an MCP server made with the go-sdk, the protocol's Go
// implementation, over streamable HTTP. Its tool connect asks the user to
// open the bank's consent page (URL mode, elicitation el-1) and answers
// with what the client said.
func goSDKBank(t *testing.T) Server {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "bank", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "connect", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Mode: "url", Message: "Let tack read your balance",
				URL: bankURL, ElicitationID: "el-1"})
			if err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
				Text: fmt.Sprintf("action=%s content=%v", res.Action, res.Content)}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return Server{Name: "bank", Origin: "test", URL: ts.URL, StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}
}

// escapes is a user who presses Esc at every question.
type escapes struct{}

func (escapes) Ask(context.Context, []interact.Question) ([]interact.Answer, error) {
	return nil, interact.ErrInterrupted
}

// TestGoSDKServerSendsTheUserToAPage calls the go-sdk server's tool that
// asks the user to open a page: tack must have said it takes such
// requests (the server refuses to ask otherwise), puts the server, its
// message and the page to the user, opens it only when they choose to,
// and answers the server with their choice and no content.
func TestGoSDKServerSendsTheUserToAPage(t *testing.T) {
	for _, c := range []struct {
		name   string
		user   elicit.Asker
		want   string
		opened bool
	}{
		{"opened in the browser", userAnswers{"url": {selected: []string{elicit.OpenLabel}}}, "action=accept content=map[]", true},
		{"to be opened by the user", userAnswers{"url": {selected: []string{elicit.MyselfLabel}}}, "action=accept content=map[]", false},
		{"declined", userAnswers{"url": {selected: []string{elicit.DeclinePageLabel}}}, "action=decline content=map[]", false},
		{"Esc", escapes{}, "action=cancel content=map[]", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked elicit.Request
			var opened []string
			open := func(url string) error { opened = append(opened, url); return nil }
			s := startAnswering(t, goSDKBank(t), freeWorkspace(t), func(ctx context.Context, r elicit.Request) elicit.Result {
				asked = r
				return elicit.Visit(ctx, c.user, open, r)
			})
			res := s.call(t, "connect", "{}")
			if res.IsError || !strings.Contains(res.Text, c.want) {
				t.Errorf("connect answered %+v, want %q", res, c.want)
			}
			want := elicit.Request{Server: "bank", Message: "Let tack read your balance", URL: bankURL, ElicitationID: "el-1"}
			if asked.Server != want.Server || asked.Message != want.Message || asked.URL != want.URL || asked.ElicitationID != want.ElicitationID {
				t.Errorf("the user was asked %+v, want %+v", asked, want)
			}
			if c.opened != (len(opened) == 1 && opened[0] == bankURL) || !c.opened && len(opened) > 0 {
				t.Errorf("opened %q, want the page opened: %v", opened, c.opened)
			}
		})
	}
}
