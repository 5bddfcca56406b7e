package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// The resource tools' names; Claude Code calls them ListMcpResourcesTool
// and ReadMcpResourceTool.
const (
	ListResourcesName = "list_mcp_resources"
	ReadResourceName  = "read_mcp_resource"
)

// maxListedResources caps the resources listed of one server.
const maxListedResources = 200

// resourceTool is list_mcp_resources or read_mcp_resource, offered while
// a ready server offers resources: a resource link in a tool result
// points to something the model can only read through them.
type resourceTool struct {
	m    *Manager
	spec tools.Spec
	run  func(ctx context.Context, args resourceArgs, env *tools.Env) tools.Result
}

type resourceArgs struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

func (m *Manager) resourceTools() []tools.Tool {
	list := &resourceTool{m: m, spec: tools.Spec{
		Name: ListResourcesName,
		Description: "Lists the resources the MCP servers offer (documents, files, records a server makes readable): " +
			"each one's URI, name, MIME type and description, at most 200 of a server. server narrows the list to one " +
			"server. Read one with " + ReadResourceName + ".",
		Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string",` +
			`"description":"The MCP server whose resources to list; all of them when left out."}}}`),
	}}
	list.run = list.list
	read := &resourceTool{m: m, spec: tools.Spec{
		Name: ReadResourceName,
		Description: "Reads a resource of an MCP server by its URI, as " + ListResourcesName + " or a tool's resource link " +
			"names it. Text comes back as it is; images and other binary contents are saved to files to read.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"server":{"type":"string","description":"The MCP server that offers the resource."},` +
			`"uri":{"type":"string","description":"The resource's URI."}},"required":["server","uri"]}`),
	}}
	read.run = read.read
	for _, t := range []*resourceTool{list, read} {
		t.spec.Access, t.spec.ReadOnlyHint, t.spec.ParallelSafe = tools.AccessExternal, true, true
	}
	return []tools.Tool{list, read}
}

func (t *resourceTool) Spec() tools.Spec { return t.spec }

func (t *resourceTool) Present(args json.RawMessage) card.Card {
	var a resourceArgs
	json.Unmarshal(args, &a)
	title := "MCP resources"
	if t.spec.Name == ReadResourceName {
		title = "MCP resource"
	}
	if a.Server != "" {
		title += " · " + clean(a.Server)
	}
	return card.Card{Kind: card.Generic, Title: title, Label: title, Body: clean(a.URI)}
}

func (t *resourceTool) Run(ctx context.Context, call tools.Call) tools.Result {
	var a resourceArgs
	if err := json.Unmarshal(call.Args, &a); err != nil {
		return tools.Errorf("invalid arguments: %v", err)
	}
	r := t.run(ctx, a, call.Env)
	if r.Card != nil { // the facts the run found, on the call's card
		c := t.Present(call.Args)
		c.Listed, c.Contents = r.Card.Listed, r.Card.Contents
		r.Card = &c
	}
	return r
}

// serving are the ready servers that offer resources, or the one named.
func (m *Manager) serving(name string) ([]*conn, error) {
	var out, all []*conn
	for _, c := range m.conns() {
		if c.offersResources() {
			all = append(all, c)
			if name == "" || c.srv.Name == name {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 && name != "" {
		var names []string
		for _, c := range all {
			names = append(names, c.srv.Name)
		}
		return nil, fmt.Errorf("no running MCP server %q offers resources; those that do: %s", name, strings.Join(names, ", "))
	}
	return out, nil
}

// list answers with the resources of the servers, as text and, on its
// card, as data.
func (t *resourceTool) list(ctx context.Context, a resourceArgs, _ *tools.Env) tools.Result {
	conns, err := t.m.serving(a.Server)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	listed := &card.ResourceList{Resources: []card.Resource{}}
	var b strings.Builder
	for _, c := range conns {
		fmt.Fprintf(&b, "%s:\n", c.srv.Name)
		found, more, err := c.listResources(ctx)
		for _, r := range found {
			b.WriteString(resourceLine(r) + "\n")
		}
		switch {
		case more:
			b.WriteString("  … more not listed\n")
		case err != nil:
			fmt.Fprintf(&b, "  (listing failed: %s)\n", c.redact.Text(clean(err.Error())))
		case len(found) == 0:
			b.WriteString("  (no resources)\n")
		}
		listed.Resources = append(listed.Resources, found...)
	}
	return tools.Result{Text: strings.TrimSuffix(b.String(), "\n"), Card: &card.Card{Listed: listed}}
}

// listResources is the server's resources, at most maxListedResources of
// them; more says it offers others.
func (c *conn) listResources(ctx context.Context) (found []card.Resource, more bool, err error) {
	l, _, err := c.running()
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.srv.ToolTimeout)
	defer cancel()
	for r, err := range l.session.Resources(ctx, nil) {
		if err != nil {
			return found, false, err
		}
		if len(found) == maxListedResources {
			return found, true, nil
		}
		found = append(found, card.Resource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType,
			Description: strings.TrimSpace(r.Description), Server: c.srv.Name})
	}
	return found, false, nil
}

// resourceLine is a resource as the list's text shows it.
func resourceLine(r card.Resource) string {
	line := "  " + r.URI
	if r.Name != "" && r.Name != r.URI {
		line += " (" + r.Name + ")"
	}
	if r.MIMEType != "" {
		line += ", " + r.MIMEType
	}
	if r.Description != "" {
		line += " — " + r.Description
	}
	return clean(line)
}

func (t *resourceTool) read(ctx context.Context, a resourceArgs, env *tools.Env) tools.Result {
	if a.Server == "" || a.URI == "" {
		return tools.Errorf("give the server and the uri of the resource, as %s names them", ListResourcesName)
	}
	conns, err := t.m.serving(a.Server)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	c := conns[0]
	l, _, err := c.running()
	if err != nil {
		return tools.Errorf("%v", err)
	}
	rctx, cancel := context.WithTimeout(ctx, c.srv.ToolTimeout)
	defer cancel()
	res, err := l.session.ReadResource(rctx, &sdk.ReadResourceParams{URI: a.URI})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return tools.Errorf("reading %s was cancelled", a.URI)
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		return tools.Errorf("MCP server %s did not return %s within %s (tool_timeout_ms)", c.srv.Name, a.URI, c.srv.ToolTimeout)
	default:
		return tools.Errorf("MCP server %s: %s", c.srv.Name, c.redact.Text(clean(err.Error())))
	}
	k := keeperIn(env, c.srv.Name, "resource "+a.URI)
	var parts []string
	contents := &card.ResourceContents{Contents: []card.ResourceContent{}}
	for _, rc := range res.Contents {
		if rc != nil {
			saved := len(k.saved)
			parts = append(parts, k.contentText(&sdk.EmbeddedResource{Resource: rc}))
			content := card.ResourceContent{URI: rc.URI, MIMEType: rc.MIMEType, Text: rc.Text}
			switch {
			case len(k.saved) > saved:
				content.SavedTo = k.saved[saved]
			case rc.Blob != nil && blobIsText(rc):
				content.Text = string(rc.Blob)
			}
			contents.Contents = append(contents.Contents, content)
		}
	}
	contents.Contents = keptText(contents.Contents)
	if len(parts) == 0 {
		return tools.Result{Text: "(the resource has no contents)", Card: &card.Card{Contents: contents}}
	}
	return tools.Result{Text: strings.Join(parts, "\n"), Images: k.images, Card: &card.Card{Contents: contents}}
}

// keptText is contents with their text left out when, together, it is
// more than card.ResourceTextLimit.
func keptText(contents []card.ResourceContent) []card.ResourceContent {
	size := 0
	for _, c := range contents {
		size += len(c.Text)
	}
	if size > card.ResourceTextLimit {
		for i := range contents {
			contents[i].Text = ""
		}
	}
	return contents
}
