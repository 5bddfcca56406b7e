package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/elicit"
)

// elicitation answers a server's elicitation/create: its form, or the web
// page it asks the user to open (URL mode), put to the user by ask
// (Options.Elicit), the calls to the server holding their timeouts
// meanwhile. The SDK has checked the form's schema before and checks the
// answer against it after (filling in the defaults of fields left out); a
// web page's answer carries no content.
func (c *conn) elicitation(ask func(context.Context, elicit.Request) elicit.Result) func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		p := req.Params
		if ask == nil {
			return &sdk.ElicitResult{Action: elicit.Decline}, nil
		}
		r := elicit.Request{Server: c.srv.Name, Message: clean(p.Message)}
		if p.Mode == elicit.ModeURL {
			r.URL, r.ElicitationID = p.URL, p.ElicitationID
		} else {
			r.Schema, _ = p.RequestedSchema.(map[string]any)
		}
		release := c.progress.hold()
		defer release()
		res := ask(ctx, r)
		if res.Action == elicit.Accept && r.Mode() == elicit.ModeURL && r.ElicitationID != "" {
			c.awaitPage(r.ElicitationID, r.URL)
		}
		if res.Action != elicit.Accept || r.Mode() == elicit.ModeURL {
			res.Content = nil
		}
		return &sdk.ElicitResult{Action: res.Action, Content: res.Content}, nil
	}
}

// awaitPage remembers the web page at addr the user agreed to open, by
// the server's id for it, for the server's word that they are done there.
func (c *conn) awaitPage(id, addr string) {
	host := addr
	if u, err := url.Parse(addr); err == nil {
		host = u.Hostname()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string]string{}
	}
	c.pages[id] = host
}

// pageDone tells the user that they are done with the page the server
// names by id (notifications/elicitation/complete), once, through
// Options.PageDone; an id of no page the user agreed to open is ignored,
// as the protocol asks.
func (c *conn) pageDone(id string) {
	c.mu.Lock()
	host, ok := c.pages[id]
	delete(c.pages, id)
	c.mu.Unlock()
	if ok && c.m.opts.PageDone != nil {
		c.m.opts.PageDone(elicit.Done{Server: c.srv.Name, ElicitationID: id},
			fmt.Sprintf("MCP server %s: finished at %s (the page you were asked to open).", c.srv.Name, host))
	}
}

// pagesRequired is what the model and the user read of a call to tool the
// server refused until the user opens web pages (URLElicitationRequired,
// -32042, with the pages in its data): their addresses, plain, each with
// the server's message, and what to do next. The server's word that one
// is done is told as for a page it asked to open. False for any other
// error.
func (c *conn) pagesRequired(tool string, err error) (string, bool) {
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != sdk.CodeURLElicitationRequired {
		return "", false
	}
	var data struct {
		Elicitations []*sdk.ElicitParams `json:"elicitations"`
	}
	_ = json.Unmarshal(rpc.Data, &data)
	var pages []string
	for _, p := range data.Elicitations {
		if p == nil {
			continue
		}
		u, ok := elicit.WebAddress(p.URL)
		if !ok {
			continue
		}
		page := "- " + u.String()
		if msg := strings.TrimSpace(clean(p.Message)); msg != "" {
			page += "\n  " + strings.ReplaceAll(msg, "\n", "\n  ")
		}
		pages = append(pages, page)
		if p.ElicitationID != "" {
			c.awaitPage(p.ElicitationID, u.String())
		}
	}
	if len(pages) == 0 {
		return fmt.Sprintf("MCP server %s needs the user to open a web page before %s can run, but named no web address (%s); tell the user, who may ask the server's maker",
			c.srv.Name, tool, clean(rpc.Message)), true
	}
	what, it := "this page", "it"
	if len(pages) > 1 {
		what, it = "these pages", "them"
	}
	return fmt.Sprintf("MCP server %s needs the user to open %s in a browser before %s can run:\n%s\nAsk the user to open %s, then call %s again once they say they are done.",
		c.srv.Name, what, tool, strings.Join(pages, "\n"), it, tool), true
}

// elicitationCapability is what tack tells servers it takes: forms, web
// pages to send the user to, and the roots they ask for (see roots.go),
// which naming any capability means naming too.
var elicitationCapability = &sdk.ClientCapabilities{
	//lint:ignore SA1019 roots stay in use through their deprecation window (roots.go)
	RootsV2: &sdk.RootCapabilities{ListChanged: true},
	Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{},
		URL: &sdk.URLElicitationCapabilities{}},
}
