package mcp

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/tools"
)

// Options configure a Manager.
type Options struct {
	// Servers are the configured servers, the project's among them.
	Servers []Server
	// Skipped are the server definitions that could not be read, each
	// with its file and line, for /mcp.
	Skipped []string
	// Approve asks the user whether the project's servers may start. It
	// is asked at the first step (when a front door is there to answer),
	// bounded by the step's ctx; an error with ctx done leaves the
	// question for the next step. Nil never starts project servers.
	Approve func(ctx context.Context, servers []Server) (bool, error)
	// Report tells the user of a server that failed to start or stopped,
	// once per failure, and of a sign-in that failed.
	Report func(text string)
	// Elicit puts a server's form, or its web page to open
	// (elicitation/create), to the user and returns their answer; nil
	// declines every request.
	Elicit func(ctx context.Context, r elicit.Request) elicit.Result
	// Inform tells the user what needs them but is no failure: a server
	// that asks to sign in, a sign-in done.
	Inform func(text string)
	// PageDone tells the user that a server is finished with a web page
	// they agreed to open (notifications/elicitation/complete): which
	// page, and text that says so.
	PageDone func(done elicit.Done, text string)
	// TokenFile keeps the sign-ins to remote servers (TokenFile under
	// TACK_HOME). Empty, a server that asks to sign in fails as any
	// other and /mcp login refuses.
	TokenFile string
	// Browser opens the authorization address of a sign-in in the user's
	// browser (OpenBrowser); nil, or an error, leaves it to the user, who
	// is shown the address either way.
	Browser func(url string) error
	// Getenv reads the environment at /mcp login: MCP_CLIENT_SECRET, the
	// secret of a server's oauth.clientId.
	Getenv func(string) string
	// SignInTimeout bounds the wait for the browser's answer to a
	// sign-in; zero is DefaultSignInTimeout.
	SignInTimeout time.Duration
	// Cwd is the session's directory: stdio servers start there.
	Cwd string
	// Roots are the directories, absolute, the servers may work in, which
	// they learn by asking (roots/list): the session's directory and
	// those added to it (--add-dir). None is Cwd alone.
	Roots []string
	// Environ is the environment stdio servers inherit (provider keys
	// already removed); each server's env is added on top.
	Environ []string
	// Relay reaches the servers of type "sdk", which live in the program
	// driving tack through an Agent SDK; nil where there is none.
	Relay Relay
	// SpillDir keeps images and other binary results, which the model
	// reads through their files.
	SpillDir   string
	Version    string
	HTTPClient *http.Client
	// StartAfter delays starting the servers, so the programs they run
	// (often node or python, which take a core for a while) do not compete
	// with the front door's first frame. They count as starting meanwhile;
	// a step that waits for them (Settle) starts them at once.
	StartAfter time.Duration
	// StartWhen, when set, replaces StartAfter: the servers start once it
	// is closed (the front door's start has settled: its user paused
	// typing), or when a step needs them.
	StartWhen <-chan struct{}
	// Later, when set, reads more servers whose configuration is slow to
	// read (~/.claude.json runs to megabytes), in the background when the
	// others start, and the definitions it skipped. A step that waits
	// for the servers waits for it too. Its servers are the user's own.
	Later func() ([]Server, []string)
}

// Manager runs the MCP servers of one session and is the tool source their
// tools come from. Its methods are safe for concurrent use.
type Manager struct {
	opts   Options
	tokens *tokenStore // nil without Options.TokenFile
	roots  roots
	ctx    context.Context
	cancel context.CancelFunc
	// servers, sorted by name, and skipped are replaced, never changed,
	// under mu when Later's servers join; read them through conns.
	servers []*conn
	skipped []string
	// loaded is closed once Later's servers joined (at once without it).
	loaded chan struct{}
	wg     sync.WaitGroup
	// hurry is closed when a step needs the servers before StartAfter.
	hurry     chan struct{}
	hurryOnce sync.Once

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when any state changes
	// asking is held while the user is asked to approve project servers.
	asking sync.Mutex
	// replacing is held while Replace changes the program's servers.
	replacing sync.Mutex
	// watchMu is held while watch is told of the prompts (WatchPrompts).
	watchMu sync.Mutex
	watch   func([]Prompt)
}

var _ tools.Source = (*Manager)(nil)

// New makes a manager of the servers; nothing starts before Start.
func New(o Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: o, ctx: ctx, cancel: cancel, changed: make(chan struct{}), hurry: make(chan struct{}),
		loaded: make(chan struct{}), skipped: o.Skipped}
	m.servers = m.join(nil, o.Servers, StateStopped)
	m.roots.dirs = slices.Clone(o.Roots)
	if len(o.Roots) == 0 && o.Cwd != "" {
		m.roots.dirs = []string{o.Cwd}
	}
	if o.TokenFile != "" {
		m.tokens = &tokenStore{path: o.TokenFile}
	}
	if o.Later == nil {
		close(m.loaded)
	}
	return m
}

// join is conns with a connection in state for each of servers, sorted
// by name.
func (m *Manager) join(conns []*conn, servers []Server, state State) []*conn {
	out := slices.Clone(conns)
	for _, s := range servers {
		r := s.redactor()
		out = append(out, &conn{m: m, srv: s, redact: r, state: state, stderr: &stderrTail{redact: r}})
	}
	slices.SortFunc(out, func(a, b *conn) int { return strings.Compare(a.srv.Name, b.srv.Name) })
	return out
}

// conns are the servers now, sorted by name.
func (m *Manager) conns() []*conn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers
}

// takeLater adds Later's servers, reports what it skipped, and returns
// the servers it added. A name the program driving tack took already
// (Replace) stays the program's.
func (m *Manager) takeLater() []*conn {
	defer close(m.loaded)
	servers, skipped := m.opts.Later()
	for _, text := range skipped {
		m.report(text)
	}
	m.replacing.Lock()
	defer m.replacing.Unlock()
	servers = slices.DeleteFunc(servers, func(s Server) bool {
		c := m.find(s.Name)
		return c != nil && c.srv.Program
	})
	return m.add(servers, skipped)
}

// add joins servers to the manager's, in place of any of their names
// (which have not started: Start takes Later's servers before it starts
// any), and skipped to what it skipped, and returns the connections it
// made, which count as starting from now on: a Settle that sees them
// before the caller launches them must wait for them.
func (m *Manager) add(servers []Server, skipped []string) []*conn {
	m.mu.Lock()
	before := m.servers
	after := m.join(slices.DeleteFunc(slices.Clone(before), func(c *conn) bool {
		return slices.ContainsFunc(servers, func(s Server) bool { return s.Name == c.srv.Name })
	}), servers, StateStarting)
	m.servers = after
	m.skipped = append(slices.Clone(m.skipped), skipped...)
	m.mu.Unlock()
	var added []*conn
	for _, c := range after {
		if !slices.Contains(before, c) {
			added = append(added, c)
		}
	}
	m.notify()
	return added
}

// Add starts more of the user's servers at once: the in-process servers
// an Agent SDK names as it initializes. A name taken already is skipped,
// and what it returns says so.
func (m *Manager) Add(servers []Server) []string {
	var fresh []Server
	var skipped []string
	for _, s := range servers {
		if c := m.find(s.Name); c != nil {
			skipped = append(skipped, fmt.Sprintf("%s: server %q is also in %s, which wins", s.Origin, s.Name, c.srv.Origin))
			continue
		}
		fresh = append(fresh, s)
	}
	for _, c := range m.add(fresh, skipped) {
		m.launch(c)
	}
	return skipped
}

// AddRoot adds dir, absolute, to the directories the servers may work
// in, telling the running ones (notifications/roots/list_changed), as a
// directory added to the session mid-way must reach the filesystem server.
func (m *Manager) AddRoot(dir string) { m.roots.add(dir) }

// Start begins starting every configured server in the background and
// returns at once. Project servers wait for the user's approval, which
// the first Settle asks for.
func (m *Manager) Start() {
	var now []*conn
	for _, c := range m.conns() {
		if c.srv.Project {
			c.setState(StateApproval, "")
			continue
		}
		c.setState(StateStarting, "")
		now = append(now, c)
	}
	if len(now) == 0 && m.opts.Later == nil {
		return
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		var timer <-chan time.Time // nil, never ready, when StartWhen is set
		if m.opts.StartWhen == nil {
			t := time.NewTimer(m.opts.StartAfter)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-timer:
		case <-m.opts.StartWhen:
		case <-m.hurry:
		case <-m.ctx.Done():
			return
		}
		if m.opts.Later != nil {
			added := m.takeLater()
			now = append(slices.DeleteFunc(now, func(c *conn) bool { return !slices.Contains(m.conns(), c) }), added...)
		}
		for _, c := range now {
			m.launch(c)
		}
	}()
}

// approve asks the user about the project servers still awaiting approval
// and starts or denies them. When ctx ends first they stay waiting.
func (m *Manager) approve(ctx context.Context) {
	m.asking.Lock()
	defer m.asking.Unlock()
	var waiting []*conn
	var servers []Server
	for _, c := range m.conns() {
		if c.currentState() == StateApproval {
			waiting = append(waiting, c)
			servers = append(servers, c.srv)
		}
	}
	if len(waiting) == 0 {
		return
	}
	ok := false
	if m.opts.Approve != nil {
		var err error
		ok, err = m.opts.Approve(ctx, servers)
		if err != nil && ctx.Err() != nil {
			return
		}
	}
	for _, c := range waiting {
		if ok {
			m.launch(c)
		} else {
			c.setState(StateDenied, "")
		}
	}
}

func (m *Manager) launch(c *conn) {
	if m.ctx.Err() != nil {
		return
	}
	gen, ok := c.begin()
	if !ok {
		return
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		c.run(m.ctx, gen)
	}()
}

// Restart stops the named server and starts it again (a project server
// the user did not approve starts too: naming it is the approval).
func (m *Manager) Restart(name string) error {
	c := m.find(name)
	if c == nil {
		return fmt.Errorf("no MCP server %q; /mcp lists them", name)
	}
	c.shutdown()
	m.launch(c)
	return nil
}

// SetEnabled turns the named server off, stopping it and taking its
// tools away from the next step on, or back on, starting it again. A
// server that is on already stays as it is.
func (m *Manager) SetEnabled(name string, on bool) error {
	c := m.find(name)
	if c == nil {
		return fmt.Errorf("no MCP server %q; /mcp lists them", name)
	}
	switch {
	case !on:
		c.shutdown()
		c.setState(StateDisabled, "")
	case c.currentState() == StateDisabled:
		m.launch(c)
	}
	return nil
}

func (m *Manager) find(name string) *conn {
	for _, c := range m.conns() {
		if c.srv.Name == name || safeName(c.srv.Name) == name {
			return c
		}
	}
	return nil
}

// Close stops every server and waits for their goroutines.
func (m *Manager) Close() {
	m.cancel()
	retireAll(m.conns())
	m.wg.Wait()
}

// Tools is every ready server's tools and, while one of them offers
// resources, list_mcp_resources and read_mcp_resource, sorted by name.
func (m *Manager) Tools() []tools.Tool {
	var out []tools.Tool
	resources := false
	for _, c := range m.conns() {
		out = append(out, c.tools()...)
		resources = resources || c.offersResources()
	}
	if resources {
		out = append(out, m.resourceTools()...)
	}
	slices.SortFunc(out, func(a, b tools.Tool) int { return strings.Compare(a.Spec().Name, b.Spec().Name) })
	return out
}

// Settle asks for the approval of project servers, then waits until no
// server is starting or re-reading its tool list, or until ctx ends.
func (m *Manager) Settle(ctx context.Context) {
	m.hurryOnce.Do(func() { close(m.hurry) })
	select {
	case <-m.loaded:
	case <-ctx.Done():
		return
	}
	m.approve(ctx)
	m.waitWhile(ctx, m.busy)
}

// waitWhile waits until busy reports false, checking it again after every
// change, or until ctx ends.
func (m *Manager) waitWhile(ctx context.Context, busy func() bool) {
	for {
		m.mu.Lock()
		ch := m.changed
		m.mu.Unlock()
		if !busy() {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

func (m *Manager) busy() bool {
	for _, c := range m.conns() {
		if c.busy() {
			return true
		}
	}
	return false
}

// notify wakes Settle and tells the prompts' watcher.
func (m *Manager) notify() {
	m.mu.Lock()
	close(m.changed)
	m.changed = make(chan struct{})
	m.mu.Unlock()
	m.tellPrompts()
}

func (m *Manager) report(text string) {
	if m.opts.Report != nil {
		m.opts.Report(text)
	}
}

func (m *Manager) inform(text string) {
	if m.opts.Inform != nil {
		m.opts.Inform(text)
	}
}

// ServerStatus is one server as /mcp shows it.
type ServerStatus struct {
	Name      string
	Origin    string
	Transport string
	State     State
	Tools     []string
	// Error is why it failed, cleaned for display.
	Error string
	// Stderr is the last lines it wrote to stderr, cleaned.
	Stderr []string
	// SigningIn is set while a sign-in waits for the user's browser.
	SigningIn bool
}

// Status lists the servers, sorted by name.
func (m *Manager) Status() []ServerStatus {
	conns := m.conns()
	out := make([]ServerStatus, 0, len(conns))
	for _, c := range conns {
		out = append(out, c.status())
	}
	return out
}
