package elicit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
)

// browser is an opener that keeps what it was asked to open, failing
// with err.
type browser struct {
	opened []string
	err    error
}

func (b *browser) open(url string) error {
	b.opened = append(b.opened, url)
	return b.err
}

const payURL = "https://pay.example.com/checkout/7f3a9c?session=4a1e5b0c9d&return=https%3A%2F%2Fshop.example.com%2Fdone"

var payPage = Request{Server: "shop", Message: "Confirm the payment of 12 EUR", URL: payURL, ElicitationID: "el-7"}

func labels(q interact.Question) []string {
	var out []string
	for _, o := range q.Options {
		out = append(out, o.Label)
	}
	return out
}

func TestVisitShowsTheServerItsMessageAndTheWholeAddress(t *testing.T) {
	a := &scripted{replies: []reply{pick(MyselfLabel)}}
	Visit(context.Background(), a, (&browser{}).open, payPage)
	q := a.asked[0]
	if q.Server != "shop" || !strings.Contains(q.Header, "shop") || !strings.HasSuffix(q.Question, "\n"+payURL) {
		t.Errorf("asked %q (header %q, server %q), want the server named and the whole address on a line of its own", q.Question, q.Header, q.Server)
	}
	for _, want := range []string{"MCP server shop asks: Confirm the payment of 12 EUR", "It leads to pay.example.com."} {
		if !strings.Contains(q.Detail, want) {
			t.Errorf("the detail %q does not say %q", q.Detail, want)
		}
	}
	if got := labels(q); !slices.Equal(got, []string{OpenLabel, MyselfLabel, DeclinePageLabel}) {
		t.Errorf("the choices are %q, want open, open myself, decline", got)
	}
}

func TestVisitOpensThePageOnlyWhenTheUserSaysSo(t *testing.T) {
	for _, c := range []struct {
		name   string
		reply  reply
		want   string
		opened int
	}{
		{"open it", pick(OpenLabel), Accept, 1},
		{"open it myself", pick(MyselfLabel), Accept, 0},
		{"decline", pick(DeclinePageLabel), Decline, 0},
		{"Esc", reply{err: interact.ErrInterrupted}, Cancel, 0},
		{"stdin closed", reply{err: interact.ErrStdinClosed}, Cancel, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &browser{}
			got := Visit(context.Background(), &scripted{replies: []reply{c.reply}}, b.open, payPage)
			if got.Action != c.want || got.Content != nil || len(b.opened) != c.opened {
				t.Errorf("Visit = %+v with %q opened, want %s and %d opened", got, b.opened, c.want, c.opened)
			}
			if c.opened == 1 && b.opened[0] != payURL {
				t.Errorf("opened %q, want the address shown, %q", b.opened[0], payURL)
			}
		})
	}
}

func TestVisitAsksAgainWhenTheBrowserDoesNotOpen(t *testing.T) {
	b := &browser{err: errors.New(`exec: "xdg-open": executable file not found in $PATH`)}
	a := &scripted{replies: []reply{pick(OpenLabel), pick(MyselfLabel)}}
	got := Visit(context.Background(), a, b.open, payPage)
	if got.Action != Accept || len(a.asked) != 2 {
		t.Fatalf("Visit = %+v after %d questions, want accept at the second", got, len(a.asked))
	}
	if again := a.asked[1]; slices.Contains(labels(again), OpenLabel) || !strings.Contains(again.Detail, "The browser did not open") {
		t.Errorf("asked again with %q and %q, want why the browser did not open and no choice to open it", labels(again), again.Detail)
	}
}

func TestVisitWithoutABrowserLeavesTheAddressToTheUser(t *testing.T) {
	a := &scripted{replies: []reply{pick(MyselfLabel)}}
	if got := Visit(context.Background(), a, nil, payPage); got.Action != Accept {
		t.Errorf("Visit = %+v, want accept", got)
	}
	if q := a.asked[0]; slices.Contains(labels(q), OpenLabel) || !strings.Contains(q.Detail, "cannot open a browser here") {
		t.Errorf("without a browser: %q, %q; want no choice to open it, and why", labels(q), q.Detail)
	}
}

func TestVisitDeclinesWhatIsNoWebPageUnasked(t *testing.T) {
	for _, addr := range []string{"file:///etc/passwd", "javascript:alert(1)", "ms-settings:privacy", "https://", "://nothing"} {
		r := payPage
		r.URL = addr
		a, b := &scripted{}, &browser{}
		if got := Visit(context.Background(), a, b.open, r); got.Action != Decline || len(a.asked) != 0 || len(b.opened) != 0 {
			t.Errorf("Visit(%q) = %+v after %d questions, %d opened; want decline, unasked", addr, got, len(a.asked), len(b.opened))
		}
	}
}

func TestVisitWarnsOfPlainHTTPAndPunycode(t *testing.T) {
	r := payPage
	r.URL = "http://xn--pypal-4ve.com/login"
	a := &scripted{replies: []reply{pick(DeclinePageLabel)}}
	Visit(context.Background(), a, nil, r)
	for _, want := range []string{"unencrypted (http)", "punycode"} {
		if !strings.Contains(a.asked[0].Detail, want) {
			t.Errorf("the detail %q does not warn of %q", a.asked[0].Detail, want)
		}
	}
}
