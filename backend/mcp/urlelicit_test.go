package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/snapshots/testkit"
)

const bankURL = "https://bank.example.com/consent?client=tack&state=8d1f0a7e"

// goSDKBank is an MCP server made with the go-sdk, the protocol's Go
// implementation, over streamable HTTP. Its tool connect asks the user to
// open the bank's consent page (URL mode; its address and id are the
// arguments url and id, else bankURL and el-1), then says the pages named
// by complete are done (notifications/elicitation/complete), in order,
// and answers with what the client said. Its tool pay refuses to run
// until the user opened two pages (URLElicitationRequired, -32042); its
// tool finish says the pages named by complete are done.
func goSDKBank(t *testing.T) Server {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "bank", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "connect", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			args := struct {
				URL, ID  string
				Complete []string
			}{URL: bankURL, ID: "el-1"}
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Mode: "url", Message: "Let tack read your balance",
				URL: args.URL, ElicitationID: args.ID})
			if err != nil {
				return nil, err
			}
			for _, id := range args.Complete {
				if err := req.Session.NotifyElicitationComplete(ctx, &sdk.ElicitationCompleteParams{ElicitationID: id}); err != nil {
					return nil, err
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
				Text: fmt.Sprintf("action=%s content=%v", res.Action, res.Content)}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "pay", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return nil, sdk.URLElicitationRequiredError([]*sdk.ElicitParams{
				{Mode: "url", URL: bankURL, Message: "Sign in to your bank first", ElicitationID: "el-signin"},
				{Mode: "url", URL: "https://cards.example.com/3ds?tx=91", Message: "Confirm the card", ElicitationID: "el-3ds"},
				{Mode: "url", URL: "file:///etc/passwd", Message: "Not a web page", ElicitationID: "el-file"},
			})
		})
	s.AddTool(&sdk.Tool{Name: "finish", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Complete []string }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			for _, id := range args.Complete {
				if err := req.Session.NotifyElicitationComplete(ctx, &sdk.ElicitationCompleteParams{ElicitationID: id}); err != nil {
					return nil, err
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "said so"}}}, nil
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

// queue is a user who answers each question with the next choice.
type queue struct {
	mu      sync.Mutex
	choices []string
}

func (q *queue) Ask(_ context.Context, qs []interact.Question) ([]interact.Answer, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	c := q.choices[0]
	q.choices = q.choices[1:]
	if c == esc {
		return nil, interact.ErrInterrupted
	}
	return []interact.Answer{{ID: qs[0].ID, Selected: []string{c}}}, nil
}

// esc is a queue's choice to press Esc.
const esc = "Esc"

// realPage is the address the scenario asks the everything server to
// send the user to.
const realPage = "https://example.com/consent?client=tack&state=c0ffee"

// pagesScenario has the everything server send the user to a page
// (trigger-url-elicitation) three times, and refuse a call until they
// open another: the user opens the first in the browser, declines the
// second, presses Esc at the third; the server's results say it took
// each answer, and the refusal names its page.
func pagesScenario(t *testing.T, srv Server) {
	t.Helper()
	var opened []string
	user := &queue{choices: []string{elicit.OpenLabel, elicit.DeclinePageLabel, esc}}
	s := startWith(t, Options{Servers: []Server{srv}, Cwd: freeWorkspace(t),
		Elicit: func(ctx context.Context, r elicit.Request) elicit.Result {
			return elicit.Visit(ctx, user, func(url string) error { opened = append(opened, url); return nil }, r)
		}})
	args := `{"url":"` + realPage + `","message":"Approve tack's access","elicitationId":"%s"}`
	for _, c := range []struct{ id, want string }{
		{"el-open", "✅ User completed the URL elicitation flow.\nElicitation ID: el-open"},
		{"el-decline", "❌ User declined to open the URL (Elicitation ID: el-decline)."},
		{"el-esc", "⚠️ User cancelled the URL elicitation (Elicitation ID: el-esc)."},
	} {
		if res := s.call(t, "trigger-url-elicitation", fmt.Sprintf(args, c.id)); res.IsError || !strings.Contains(res.Text, c.want) {
			t.Errorf("trigger-url-elicitation answered %+v, want %q", res, c.want)
		}
	}
	res := s.call(t, "trigger-url-elicitation", `{"url":"`+realPage+`","errorPath":true}`)
	want := "Error: MCP server everything needs the user to open this page in a browser before trigger-url-elicitation can run:\n" +
		"- https://modelcontextprotocol.io\n  Open this link to satisfy the prerequisite, then retry the request.\n" +
		"Ask the user to open it, then call trigger-url-elicitation again once they say they are done."
	if res.Text != want {
		t.Errorf("the refused call answered %q, want\n%s", res.Text, want)
	}
	if len(opened) != 1 || opened[0] != realPage {
		t.Errorf("the browser was asked to open %q, want %s once", opened, realPage)
	}
}

// TestRecordedURLElicitation replays the everything server sending the
// user to pages: what tack answers now must be what the real server took
// when it was recorded.
func TestRecordedURLElicitation(t *testing.T) {
	srv, log := sentToPagesBy.replayed(t)
	pagesScenario(t, srv)
	took, answered := replayedAnswers(t, sentToPagesBy, log)
	if len(took) != 3 || !reflect.DeepEqual(answered, took) {
		t.Errorf("tack answered the pages with %v, want what the real server took: %v", answered, took)
	}
}

// TestGoSDKServerSaysThePageIsDone pins notifications/elicitation/complete:
// the user hears once that they are done with a page they agreed to open,
// told as text and as the server and page id, and nothing of a page they
// declined or one tack never showed, which the protocol says to ignore.
func TestGoSDKServerSaysThePageIsDone(t *testing.T) {
	var mu sync.Mutex
	var notices []string
	var pages []elicit.Done
	user := &queue{choices: []string{elicit.DeclinePageLabel, elicit.MyselfLabel, elicit.MyselfLabel}}
	s := startWith(t, Options{Servers: []Server{goSDKBank(t)}, Cwd: freeWorkspace(t),
		Elicit: func(ctx context.Context, r elicit.Request) elicit.Result { return elicit.Visit(ctx, user, nil, r) },
		PageDone: func(done elicit.Done, text string) {
			mu.Lock()
			notices, pages = append(notices, text), append(pages, done)
			mu.Unlock()
		}})
	for _, c := range []struct{ args, want string }{
		{`{"id":"el-1","url":"https://declined.example.com/x"}`, "action=decline"},
		{`{"id":"el-2","url":"https://accounts.example.com/consent?s=1","complete":["el-9","el-1","el-2"]}`, "action=accept"},
		// The server's notices come in order: el-2's second is heard
		// before el-3's first.
		{`{"id":"el-3","url":"https://cards.example.com/consent","complete":["el-2","el-3"]}`, "action=accept"},
	} {
		if res := s.call(t, "connect", c.args); !strings.Contains(res.Text, c.want) {
			t.Fatalf("connect %s answered %+v, want %s", c.args, res, c.want)
		}
	}
	want := []string{"MCP server bank: finished at accounts.example.com (the page you were asked to open).",
		"MCP server bank: finished at cards.example.com (the page you were asked to open)."}
	got := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(notices) }
	testkit.Eventually(t, "the notices that the pages are done", func() bool { return len(got()) >= 2 },
		func() string { return fmt.Sprint(got()) })
	if !slices.Equal(got(), want) {
		t.Errorf("the user was told %q, want only %q", got(), want)
	}
	wantPages := []elicit.Done{{Server: "bank", ElicitationID: "el-2"}, {Server: "bank", ElicitationID: "el-3"}}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(pages, wantPages) {
		t.Errorf("the pages done were reported as %+v, want %+v", pages, wantPages)
	}
}

// TestGoSDKServerRefusesUntilPagesAreOpened pins a call refused with
// URLElicitationRequired (-32042): the model and the user read which
// pages to open, plainly, and what to do next, not a JSON-RPC error; an
// address that is no web page is left out.
func TestGoSDKServerRefusesUntilPagesAreOpened(t *testing.T) {
	notices := make(chan string, 4)
	s := startWith(t, Options{Servers: []Server{goSDKBank(t)}, Cwd: freeWorkspace(t), PageDone: func(_ elicit.Done, text string) { notices <- text }})
	res := s.call(t, "pay", "{}")
	want := "Error: MCP server bank needs the user to open these pages in a browser before pay can run:\n" +
		"- " + bankURL + "\n  Sign in to your bank first\n" +
		"- https://cards.example.com/3ds?tx=91\n  Confirm the card\n" +
		"Ask the user to open them, then call pay again once they say they are done."
	if !res.IsError || res.Text != want {
		t.Errorf("pay answered %q, want\n%s", res.Text, want)
	}
	s.call(t, "finish", `{"complete":["el-file","el-3ds"]}`)
	select {
	case n := <-notices:
		if n != "MCP server bank: finished at cards.example.com (the page you were asked to open)." {
			t.Errorf("when the server said the card's page was done, the user was told %q", n)
		}
	case <-time.After(15 * time.Second):
		t.Error("the server said the card's page was done, and the user was not told")
	}
}
