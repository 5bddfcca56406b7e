package permission

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/tools"
)

// fetchTool reaches the host of its "url" argument, as web_fetch does.
type fetchTool struct{}

func (fetchTool) Spec() tools.Spec {
	return tools.Spec{Name: "web_fetch", Access: tools.AccessNetwork}
}

func (fetchTool) Present(args json.RawMessage) card.Card {
	var a struct{ URL string }
	_ = json.Unmarshal(args, &a)
	return card.Card{Kind: card.Read, Title: "Fetch " + a.URL}
}

func (fetchTool) Scope(args json.RawMessage) string {
	var a struct{ URL string }
	_ = json.Unmarshal(args, &a)
	u, _ := url.Parse(a.URL)
	return u.Hostname()
}

func (fetchTool) Run(context.Context, tools.Call) tools.Result { return tools.Result{} }

var searchTool = fakeTool{name: "web_search", access: tools.AccessWebSearch}

func fetchArgs(u string) string { return `{"url":"` + u + `"}` }

func TestNetworkModeTable(t *testing.T) {
	want := map[Mode]map[string]string{
		ReadOnly:   {"web_search": "runs", "web_fetch": "asks"},
		Ask:        {"web_search": "asks", "web_fetch": "asks"},
		Auto:       {"web_search": "runs", "web_fetch": "asks"},
		FullAccess: {"web_search": "runs", "web_fetch": "runs"},
	}
	for _, mode := range Modes() {
		for _, tool := range []tools.Tool{searchTool, fetchTool{}} {
			p, a := answeredPolicy(t, mode, interact.Decision{Verdict: interact.Allow})
			_, err := p.Authorize(context.Background(), tool, call(&log{}, fetchArgs("https://go.dev/doc")))
			got := "runs"
			if a.count() == 1 {
				got = "asks"
			}
			if err != nil || got != want[mode][tool.Spec().Name] {
				t.Errorf("%s mode, %s: want it %s, got %s (err %v)", mode, tool.Spec().Name, want[mode][tool.Spec().Name], got, err)
			}
		}
	}
}

func TestFetchAllowedForTheSessionCoversItsDomainOnly(t *testing.T) {
	b := interact.NewBroker()
	a := mountAnswerer(t, b,
		interact.Decision{Verdict: interact.AllowSession},
		interact.Decision{Verdict: interact.Allow},
		interact.Decision{Verdict: interact.Deny})
	p := newPolicy(Auto, b)
	l := &log{}
	ctx := context.Background()
	if _, err := p.Authorize(ctx, fetchTool{}, call(l, fetchArgs("https://go.dev/doc"))); err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; got.Remember != "web_fetch go.dev" || got.Summary != "Fetch https://go.dev/doc" {
		t.Fatalf("want the first fetch of go.dev to ask, remembering web_fetch go.dev, got %+v", got)
	}
	if _, err := p.Authorize(ctx, fetchTool{}, call(l, fetchArgs("https://go.dev/ref/spec"))); err != nil || a.count() != 0 {
		t.Fatalf("want a second page of go.dev to run without asking, got err %v and %d questions", err, a.count())
	}
	if _, err := p.Authorize(ctx, fetchTool{}, call(l, fetchArgs("https://pkg.go.dev/net/http"))); err != nil {
		t.Fatalf("want pkg.go.dev allowed once, got %v", err)
	}
	if got := <-a.asked; got.Remember != "web_fetch pkg.go.dev" {
		t.Fatalf("want another domain to ask for itself, got %+v", got)
	}
	_, err := p.Authorize(ctx, fetchTool{}, call(l, fetchArgs("https://pkg.go.dev/io")))
	if err == nil || err.Error() != "the user denied this call" {
		t.Fatalf("want a domain allowed once to ask again (and be denied), got %v", err)
	}
}

func TestAskModeAsksBeforeEveryFetch(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.Allow})
	_, err := p.Authorize(context.Background(), fetchTool{}, call(&log{}, fetchArgs("https://go.dev/doc")))
	if err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; got.Remember != "" {
		t.Fatalf("want no 'allow for this session' in ask mode, got Remember %q", got.Remember)
	}
}

func TestPlanModeLeavesWebToTheMode(t *testing.T) {
	p := newPolicy(Auto, nil)
	p.SetPlan(true)
	if _, err := p.Authorize(context.Background(), searchTool, call(&log{}, `{"query":"x"}`)); err != nil {
		t.Fatalf("want web_search to run while planning, got %v", err)
	}
}
