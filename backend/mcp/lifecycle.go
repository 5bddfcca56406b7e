package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/redact"
	"github.com/tack-agent/tack/backend/tools"
)

// relistTimeout bounds re-reading a tool list after list_changed.
const relistTimeout = 10 * time.Second

// conn is one configured server across its attempts: each start (and
// restart) is a generation; what an older generation's goroutines find
// out after a newer one began is dropped.
type conn struct {
	m   *Manager
	srv Server
	// redact removes the server's credentials from every message about it.
	redact redact.Redactor
	stderr *stderrTail
	// progress routes the progress the server reports to its calls.
	progress progressWatch

	mu        sync.Mutex
	gen       int
	state     State
	err       string
	link      *link
	list      []*Tool
	prompts   []Prompt
	relisting int
	// listingPrompts counts the reads of the prompt list under way.
	listingPrompts int
	cancelRun      context.CancelFunc
	// signing is the sign-in under way, if any.
	signing *pendingSignIn
	// retired is set once the connection left its manager (Replace): it
	// never starts again, whoever held on to it.
	retired bool
	// pages are the hosts of the web pages the user agreed to open (URL
	// elicitation), by the server's id for each, until it says they are
	// done.
	pages map[string]string
}

// begin starts a new generation in the starting state; false, and
// nothing begins, once the connection is retired.
func (c *conn) begin() (int, bool) {
	c.mu.Lock()
	if c.retired {
		c.mu.Unlock()
		return 0, false
	}
	c.gen++
	gen := c.gen
	c.state, c.err, c.list, c.prompts = StateStarting, "", nil, nil
	c.mu.Unlock()
	c.stderr.Reset()
	c.m.notify()
	return gen, true
}

// retire stops the connection for good.
func (c *conn) retire() {
	c.mu.Lock()
	c.retired = true
	c.mu.Unlock()
	c.shutdown()
}

// run connects, reads the tools and then watches the session until it
// ends.
func (c *conn) run(parent context.Context, gen int) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	c.mu.Lock()
	if c.gen != gen {
		c.mu.Unlock()
		return
	}
	c.cancelRun = cancel
	c.mu.Unlock()
	sctx, stop := context.WithTimeout(ctx, c.srv.StartupTimeout)
	l, err := dial(sctx, c.srv, c.m.dialConfig(c, gen))
	if err == nil {
		var list []*Tool
		if list, err = c.listTools(sctx, l); err != nil {
			l.stop()
			err = fmt.Errorf("listing its tools failed: %v", err)
		} else if !c.attach(gen, l, list) {
			l.stop()
			stop()
			return
		}
	}
	stop()
	switch {
	case errors.Is(err, errSignIn):
		c.needSignIn(gen)
		return
	case err != nil:
		if ctx.Err() == nil { // not stopped on purpose
			c.fail(gen, "failed to start: "+err.Error())
		}
		return
	}
	_ = l.session.Wait()
	c.lost(gen, l)
}

func (m *Manager) dialConfig(c *conn, gen int) dialConfig {
	return dialConfig{
		version: m.opts.Version, cwd: m.opts.Cwd, environ: m.opts.Environ, http: m.opts.HTTPClient, relay: m.opts.Relay,
		stderr: c.stderr, roots: &m.roots, progress: c.progress.notify, changed: func() { c.relist(gen) },
		promptsChanged: func() { c.relistPrompts(gen) },
		oauth:          m.oauthHandler(c), elicit: c.elicitation(m.opts.Elicit), pageDone: c.pageDone,
	}
}

// attach makes l the running link of generation gen, unless a newer one
// began.
func (c *conn) attach(gen int, l *link, list []*Tool) bool {
	c.mu.Lock()
	if c.gen != gen {
		c.mu.Unlock()
		return false
	}
	c.link, c.list, c.state = l, list, StateReady
	// Counted as it turns ready, so that no one waiting for the prompts
	// (SettlePrompts) sees it ready with none being read.
	prompts := l.offersPrompts()
	if prompts {
		c.listingPrompts++
	}
	c.mu.Unlock()
	c.m.notify()
	if prompts {
		c.listPromptsLater(gen, l)
	}
	return true
}

// fail records a failure of generation gen and reports it once.
func (c *conn) fail(gen int, msg string) {
	c.mu.Lock()
	if c.gen != gen || c.state == StateFailed {
		c.mu.Unlock()
		return
	}
	msg = c.redact.Text(clean(msg))
	c.state, c.err, c.list, c.prompts = StateFailed, msg, nil, nil
	c.mu.Unlock()
	// Reported before Settle is woken, so a step that waited for the
	// server comes after the report.
	c.m.report(c.failureReport(msg))
	c.m.notify()
}

// lost records a session that ended without tack closing it: the server
// exited or the connection broke.
func (c *conn) lost(gen int, l *link) {
	c.mu.Lock()
	closing := l.closing
	c.mu.Unlock()
	if closing {
		return
	}
	why := l.exitText()
	if why == "" {
		why = "closed the connection"
	}
	c.fail(gen, "stopped: "+why)
}

func (c *conn) failureReport(msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MCP server %s %s", c.srv.Name, msg)
	if lines := c.stderr.Lines(5); len(lines) > 0 {
		b.WriteString("\n  stderr: " + strings.Join(lines, "\n          "))
	}
	fmt.Fprintf(&b, "\n  Its tools are unavailable; /mcp restart %s tries again.", c.srv.Name)
	return b.String()
}

// shutdown stops the current generation, waiting for its process to end.
func (c *conn) shutdown() {
	c.mu.Lock()
	c.gen++
	l, cancel := c.link, c.cancelRun
	c.link, c.list, c.prompts, c.cancelRun = nil, nil, nil, nil
	if l != nil {
		l.closing = true
	}
	if c.state != StateDenied {
		c.state = StateStopped
	}
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if l != nil {
		l.stop()
	}
	c.m.notify()
}

func (c *conn) busy() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == StateStarting || c.relisting > 0
}

func (c *conn) currentState() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

func (c *conn) setState(s State, msg string) {
	c.mu.Lock()
	c.state, c.err = s, msg
	c.mu.Unlock()
	c.m.notify()
}

func (c *conn) tools() []tools.Tool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != StateReady {
		return nil
	}
	out := make([]tools.Tool, len(c.list))
	for i, t := range c.list {
		out[i] = t
	}
	return out
}

// offersResources reports whether the server is ready and said it has
// resources to read.
func (c *conn) offersResources() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != StateReady || c.link == nil {
		return false
	}
	init := c.link.session.InitializeResult()
	return init != nil && init.Capabilities != nil && init.Capabilities.Resources != nil
}

func (c *conn) status() ServerStatus {
	c.mu.Lock()
	st := ServerStatus{Name: c.srv.Name, Origin: c.srv.Origin, Transport: c.srv.Transport(), State: c.state, Error: c.err,
		SigningIn: c.signing != nil}
	for _, t := range c.list {
		st.Tools = append(st.Tools, t.name)
	}
	c.mu.Unlock()
	if st.State == StateFailed {
		st.Stderr = c.stderr.Lines(5)
	}
	return st
}

// relist re-reads the tool list after the server said it changed; the new
// list is offered from the next step on.
func (c *conn) relist(gen int) {
	c.mu.Lock()
	l := c.link
	if c.gen != gen || l == nil {
		c.mu.Unlock()
		return // still starting: the first listing comes after
	}
	c.relisting++
	c.mu.Unlock()
	c.m.notify()
	c.m.wg.Add(1)
	go func() {
		defer c.m.wg.Done()
		ctx, cancel := context.WithTimeout(c.m.ctx, relistTimeout)
		defer cancel()
		list, err := c.listTools(ctx, l)
		c.mu.Lock()
		if c.gen == gen && err == nil {
			c.list = list
		}
		c.relisting--
		c.mu.Unlock()
		c.m.notify()
	}()
}

// listTools reads every page of the server's tool list and makes the
// offered tools.
func (c *conn) listTools(ctx context.Context, l *link) ([]*Tool, error) {
	var out []*Tool
	seen := map[string]bool{}
	for t, err := range l.session.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if t == nil || t.Name == "" || !c.srv.offers(t.Name) {
			continue
		}
		tool := c.newTool(t)
		if seen[tool.spec.Name] {
			continue
		}
		seen[tool.spec.Name] = true
		out = append(out, tool)
		if len(out) == maxToolsPerServer {
			break
		}
	}
	return out, nil
}

// call runs one tool call on the server's current session, asking for
// progress notifications under progressToken. When the connection broke
// during it, the server is marked failed before call returns, so the next
// step no longer offers its tools.
func (c *conn) call(ctx context.Context, name string, args json.RawMessage, progressToken string) (*sdk.CallToolResult, error) {
	l, gen, err := c.running()
	if err != nil {
		return nil, err
	}
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(progressToken)
	res, err := l.session.CallTool(ctx, params)
	switch {
	case errors.Is(err, errSignIn):
		c.needSignIn(gen)
		return nil, c.signInError()
	case connectionLost(err):
		c.lost(gen, l)
	}
	return res, err
}

// running is the link of the ready server and its generation, or why
// there is none.
func (c *conn) running() (*link, int, error) {
	c.mu.Lock()
	l, state, msg, gen := c.link, c.state, c.err, c.gen
	c.mu.Unlock()
	if state == StateSignIn {
		return nil, gen, c.signInError()
	}
	if state != StateReady || l == nil {
		why := string(state)
		if msg != "" {
			why += ": " + msg
		}
		return nil, gen, fmt.Errorf("MCP server %s is not running (%s); the user can restart it with /mcp restart %s", c.srv.Name, why, c.srv.Name)
	}
	return l, gen, nil
}

func connectionLost(err error) bool {
	return errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF)
}
