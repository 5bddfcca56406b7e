package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxPromptsPerServer bounds how many prompts one server may offer.
const maxPromptsPerServer = 256

// ErrPromptRefused is the error of a prompt the server answered with an
// error of its own, most often about the arguments it was given.
var ErrPromptRefused = errors.New("refused")

// Prompt is a prompt a ready server offers (prompts/list), which the user
// runs by name with its arguments filled in.
type Prompt struct {
	Server string
	// Name is the server's name for it.
	Name string
	// Title and Description are cleaned for display, one line each.
	Title       string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one argument a prompt declares, in its order.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// Prompts is every ready server's prompts, by server, in each server's
// order. A server without the prompts capability has none, and a server
// that leaves the ready state (stopped, failed, turned off, restarting)
// drops its prompts until its list is read again once it is ready.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, c := range m.conns() {
		c.mu.Lock()
		out = append(out, c.prompts...)
		c.mu.Unlock()
	}
	return out
}

// WatchPrompts calls tell with Prompts now and again after every change
// to the servers, one call at a time, each with the prompts as they are
// when it is made, so the last call has the latest. It replaces an
// earlier watcher. tell must not wait for the manager.
func (m *Manager) WatchPrompts(tell func([]Prompt)) {
	m.watchMu.Lock()
	m.watch = tell
	m.watchMu.Unlock()
	m.tellPrompts()
}

func (m *Manager) tellPrompts() {
	m.watchMu.Lock()
	defer m.watchMu.Unlock()
	if m.watch != nil {
		m.watch(m.Prompts())
	}
}

// GetPrompt asks the server for its prompt filled with args (prompts/get)
// and returns what the model reads of it: the text of its messages, in
// order and whatever their role, as Claude Code sends them as the user's
// message; images, audio and binary resources saved to files in the
// session's spill directory, named in the text so the model can read
// them; embedded text resources and links labelled, as in tool results.
// It is bounded by ctx and the server's tool timeout.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	c := m.find(server)
	if c == nil {
		return "", fmt.Errorf("no MCP server %q; /mcp lists them", server)
	}
	l, gen, err := c.running()
	if err != nil {
		return "", err
	}
	gctx, cancel := context.WithTimeout(ctx, c.srv.ToolTimeout)
	defer cancel()
	res, err := l.session.GetPrompt(gctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return "", ctx.Err()
	case errors.Is(gctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("MCP server %s did not return its prompt %s within %s (tool_timeout_ms); try again, or /mcp restart %s",
			c.srv.Name, name, c.srv.ToolTimeout, c.srv.Name)
	case connectionLost(err):
		c.lost(gen, l)
		return "", fmt.Errorf("MCP server %s stopped before it returned its prompt %s%s; /mcp restart %s starts it again",
			c.srv.Name, name, c.stderrNote(), c.srv.Name)
	default:
		return "", fmt.Errorf("MCP server %s %w its prompt %s: %s", c.srv.Name, ErrPromptRefused, name, c.redact.Text(clean(err.Error())))
	}
	k := &keeper{}
	if m.opts.SpillDir != "" {
		k.save = binarySaver(m.opts.SpillDir, c.srv.Name)
	}
	var parts []string
	for _, msg := range res.Messages {
		if msg != nil && msg.Content != nil {
			parts = append(parts, k.contentText(msg.Content))
		}
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("MCP server %s returned its prompt %s without messages; there is nothing to send", c.srv.Name, name)
	}
	return strings.Join(parts, "\n\n"), nil
}

// offersPrompts reports whether the server said it has prompts.
func (l *link) offersPrompts() bool {
	init := l.session.InitializeResult()
	return init != nil && init.Capabilities != nil && init.Capabilities.Prompts != nil
}

// relistPrompts reads the prompts of generation gen again in the
// background, when the server says they changed. A server that fails to
// list them offers none. Waiting for the servers (Settle) does not wait
// for their prompts, which no step needs; SettlePrompts does.
func (c *conn) relistPrompts(gen int) {
	c.mu.Lock()
	l := c.link
	if c.gen != gen || l == nil || !l.offersPrompts() {
		c.mu.Unlock()
		return
	}
	c.listingPrompts++
	c.mu.Unlock()
	c.listPromptsLater(gen, l)
}

// listPromptsLater reads l's prompts in the background for a read counted
// in listingPrompts, keeps them if l is still the running link of
// generation gen, and tells the watcher before the read stops counting.
func (c *conn) listPromptsLater(gen int, l *link) {
	c.m.wg.Add(1)
	go func() {
		defer c.m.wg.Done()
		ctx, cancel := context.WithTimeout(c.m.ctx, relistTimeout)
		defer cancel()
		list := c.listPrompts(ctx, l)
		c.mu.Lock()
		fresh := c.gen == gen && c.link == l
		if fresh {
			c.prompts = list
		}
		c.mu.Unlock()
		if fresh {
			c.m.notify()
		}
		c.mu.Lock()
		c.listingPrompts--
		c.mu.Unlock()
		c.m.notify()
	}()
}

// SettlePrompts waits as Settle does, then until no server is reading its
// prompt list, or until ctx ends: print mode's task that names a prompt's
// command looks for it then.
func (m *Manager) SettlePrompts(ctx context.Context) {
	m.Settle(ctx)
	m.waitWhile(ctx, func() bool { return slices.ContainsFunc(m.conns(), (*conn).readingPrompts) })
}

func (c *conn) readingPrompts() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listingPrompts > 0
}

// listPrompts reads every page of the server's prompt list, or as much
// of it as came before an error.
func (c *conn) listPrompts(ctx context.Context, l *link) []Prompt {
	var out []Prompt
	for p, err := range l.session.Prompts(ctx, nil) {
		if err != nil {
			break
		}
		if p == nil || p.Name == "" {
			continue
		}
		pr := Prompt{Server: c.srv.Name, Name: p.Name, Title: oneLine(p.Title), Description: oneLine(p.Description)}
		for _, a := range p.Arguments {
			if a != nil && a.Name != "" {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: oneLine(a.Description), Required: a.Required})
			}
		}
		out = append(out, pr)
		if len(out) == maxPromptsPerServer {
			break
		}
	}
	return out
}

// oneLine is text a server sent, cleaned and on one line, at most 200
// characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(clean(s)), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
