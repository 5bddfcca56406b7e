package elicit

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/tack-agent/tack/backend/interact"
)

// The choices of a web page to open (URL mode).
const (
	OpenLabel        = "Open it in my browser"
	MyselfLabel      = "I'll open it myself"
	DeclinePageLabel = "Decline"
)

// Done is a server's word (notifications/elicitation/complete) that the
// user is finished with the web page it asked them to open and they
// agreed to: the server, and its id for the page (Request.ElicitationID).
type Done struct {
	Server        string
	ElicitationID string
}

// Visit puts r's web page to the user: the server, its message and the
// whole address, to open in their browser with open (nil where there is
// no browser to open), to open themselves, or to decline. Either way of
// opening is Accept: what the user does on the page happens between them
// and the server, which may tell when it is done. Esc, or nobody there to
// answer, is Cancel. tack opens nothing the user did not choose to, and
// only web (http, https) addresses: any other scheme would hand the
// system's opener a file or another program; such a request is declined
// unasked.
func Visit(ctx context.Context, a Asker, open func(url string) error, r Request) Result {
	u, ok := WebAddress(r.URL)
	if !ok {
		return Result{Action: Decline}
	}
	addr := u.String()
	problem := ""
	for {
		answers, err := a.Ask(ctx, []interact.Question{page(r, u, addr, open != nil, problem)})
		if err != nil || len(answers) == 0 || len(answers[0].Selected) != 1 {
			return Result{Action: Cancel}
		}
		switch choice := answers[0].Selected[0]; {
		case choice == MyselfLabel:
			return Result{Action: Accept}
		case choice == OpenLabel && open != nil:
			if err := open(addr); err != nil {
				open, problem = nil, fmt.Sprintf("The browser did not open (%v): open the address yourself, or decline.", err)
				continue
			}
			return Result{Action: Accept}
		}
		return Result{Action: Decline}
	}
}

// WebAddress is addr read as a web page's address (http or https, with a
// host); false for anything else.
func WebAddress(addr string) (*url.URL, bool) {
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return nil, false
	}
	return u, true
}

// page asks about the address addr (u's) of r: the whole of it in the
// question, where it wraps without an indent, so that a copy from the
// terminal pastes whole into a browser's address bar; the server's
// message and what to know of the host in the detail.
func page(r Request, u *url.URL, addr string, canOpen bool, problem string) interact.Question {
	q := interact.Question{ID: "url", Header: r.Server + " · web page", Server: r.Server,
		Question: "Open this address from MCP server " + r.Server + "?\n" + addr}
	detail := []string{fmt.Sprintf("MCP server %s asks: %s", r.Server, cmp.Or(strings.TrimSpace(r.Message), "(no message)"))}
	host := "It leads to " + u.Hostname() // no emphasis: line mode shows the detail as written
	if u.Scheme == "http" {
		host += ", unencrypted (http)"
	}
	detail = append(detail, host+". Nothing is opened unless you choose to; what you do there stays between you and the server.")
	if strings.Contains(u.Hostname(), "xn--") {
		detail = append(detail, "The host's name is written in punycode (xn--): it may imitate a name you know.")
	}
	if canOpen {
		q.Options = append(q.Options, interact.Option{Label: OpenLabel})
	} else {
		detail = append(detail, "tack cannot open a browser here: open the address on a machine that has one.")
	}
	q.Options = append(q.Options,
		interact.Option{Label: MyselfLabel, Description: "The server is told you agreed; open the address above yourself."},
		interact.Option{Label: DeclinePageLabel})
	if problem != "" {
		detail = append(detail, "✗ "+problem)
	}
	q.Detail = strings.Join(detail, "\n\n")
	return q
}
