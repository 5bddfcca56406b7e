package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/mcp/mcptest"
)

// programServer is a fake stdio server the program driving tack names.
func programServer(name string, extra ...string) Server {
	s := stdioServer(name, extra...)
	s.Origin, s.Program = "the Agent SDK", true
	return s
}

// replace replaces the program's servers and waits for those it started.
func replace(t *testing.T, m *Manager, servers ...Server) Replacement {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return m.Connected(ctx, m.Replace(servers))
}

// toolNames are the tools the model is offered now.
func toolNames(m *Manager) []string {
	var out []string
	for _, tl := range m.Tools() {
		out = append(out, tl.Spec().Name)
	}
	return out
}

// pidOf is the process of the named stdio server.
func pidOf(t *testing.T, m *Manager, name string) int {
	t.Helper()
	c := m.find(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.link == nil || c.link.cmd == nil || c.link.cmd.Process == nil {
		t.Fatalf("server %s runs no process (%s)", name, c.state)
	}
	return c.link.cmd.Process.Pid
}

func wantReplacement(t *testing.T, what string, got Replacement, added, removed []string) {
	t.Helper()
	if !slices.Equal(got.Added, added) || !slices.Equal(got.Removed, removed) || len(got.Errors) != 0 {
		t.Fatalf("%s: want added %v, removed %v and no errors, got %+v", what, added, removed, got)
	}
}

// The program's set replaces the last one it gave: a server named again
// as it was keeps its process, one named with another configuration
// starts anew, one left out stops, its process gone and its tools no
// longer offered; servers of the configuration files stay.
func TestReplaceAddsReplacesAndRemovesTheProgramsServers(t *testing.T) {
	m, _ := startManager(t, stdioServer("conf"))
	wantReplacement(t, "the first set", replace(t, m, programServer("one"), programServer("two")), []string{"one", "two"}, nil)
	if got := toolNames(m); !slices.Contains(got, "mcp__one__echo") || !slices.Contains(got, "mcp__two__echo") {
		t.Fatalf("the set's tools are not offered: %v", got)
	}
	one, two := pidOf(t, m, "one"), pidOf(t, m, "two")

	wantReplacement(t, "a set without one", replace(t, m, programServer("two"), programServer("three")), []string{"three"}, []string{"one"})
	if processAlive(one) {
		t.Errorf("the process of the server left out (pid %d) still runs", one)
	}
	if pidOf(t, m, "two") != two {
		t.Error("a server named again as it was was restarted")
	}
	if got := toolNames(m); slices.Contains(got, "mcp__one__echo") || !slices.Contains(got, "mcp__three__echo") {
		t.Fatalf("after removing one and adding three, the tools are %v", got)
	}

	wantReplacement(t, "two changed", replace(t, m, programServer("two", mcptest.EnvPrefix+"=new_"), programServer("three")), []string{"two"}, nil)
	if processAlive(two) {
		t.Errorf("the process of the server replaced (pid %d) still runs", two)
	}
	if got := toolNames(m); slices.Contains(got, "mcp__two__echo") || !slices.Contains(got, "mcp__two__new_echo") {
		t.Fatalf("the changed server's tools are %v", got)
	}

	wantReplacement(t, "an empty set", replace(t, m), nil, []string{"three", "two"})
	if got := toolNames(m); len(got) == 0 || slices.ContainsFunc(got, func(n string) bool { return !strings.HasPrefix(n, "mcp__conf__") }) {
		t.Errorf("after an empty set want only the configured server's tools, got %v", got)
	}
}

// A configured server the program names is replaced by the program's, and
// is the program's from then on: a later set that leaves it out removes
// it. A project server named so waits for no approval.
func TestAConfiguredServerTheProgramNamesBecomesItsOwn(t *testing.T) {
	project := stdioServer("conf")
	project.Project = true
	m := New(Options{Servers: []Server{project}, Cwd: t.TempDir(), Environ: os.Environ(), Version: "test"})
	m.Start()
	t.Cleanup(m.Close)
	wantReplacement(t, "naming conf", replace(t, m, programServer("conf", mcptest.EnvPrefix+"=p_")), []string{"conf"}, nil)
	if got := toolNames(m); !slices.Contains(got, "mcp__conf__p_echo") || slices.Contains(got, "mcp__conf__echo") {
		t.Fatalf("the program's conf offers %v", got)
	}
	wantReplacement(t, "leaving conf out", replace(t, m), nil, []string{"conf"})
	if len(m.Status()) != 0 {
		t.Errorf("left out, the server is still listed: %+v", m.Status())
	}
}

// A server of the set that cannot start is an error under its name; the
// others start and run.
func TestAServerOfTheSetThatFailsDoesNotStopTheOthers(t *testing.T) {
	m, _ := startManager(t)
	missing := programServer("missing")
	missing.Command = filepath.Join(t.TempDir(), "no-such-server")
	broken := programServer("broken", mcptest.EnvBadJSON+"=1")
	got := replace(t, m, missing, programServer("good"), broken)
	if !slices.Equal(got.Added, []string{"good"}) || !strings.Contains(got.Errors["missing"], "cannot start") ||
		!strings.Contains(got.Errors["broken"], "handshake failed") {
		t.Fatalf("want good added and errors for missing and broken, got %+v", got)
	}
	if res := run(t, toolByName(t, m, "mcp__good__echo"), `{"text":"still"}`, nil); res.Text != "echo: still" {
		t.Errorf("the good server answered %+v", res)
	}
}

// ProgramServers reads the entries as the TypeScript Agent SDK sends
// them (sdk.d.ts, McpServerConfigForProcessTransport): the values as
// written, and a bad entry an error of its own.
func TestProgramServersReadsTheSDKsEntries(t *testing.T) {
	entries := map[string]json.RawMessage{
		"files": json.RawMessage(`{"command":"node","args":["files.js","${HOME}"],"env":{"ROOT":"/srv"}}`),
		"docs": json.RawMessage(`{"type":"http","url":"https://docs.example.com/mcp","headers":{"Authorization":"Bearer t"},` +
			`"tools":[{"name":"drop","permission_policy":"always_deny"},{"name":"read","permission_policy":"always_ask"}]}`),
		"feed":  json.RawMessage(`{"type":"sse","url":"https://feed.example.com/sse"}`),
		"calc":  json.RawMessage(`{"type":"sdk","name":"calc"}`),
		"odd":   json.RawMessage(`{"type":"websocket","url":"wss://x"}`),
		"empty": json.RawMessage(`{"type":"stdio"}`),
	}
	servers, problems := ProgramServers(entries, "the Agent SDK")
	byName := map[string]Server{}
	for _, s := range servers {
		if !s.Program || s.Project || s.Origin != "the Agent SDK" {
			t.Errorf("server %s is not the program's: %+v", s.Name, s)
		}
		byName[s.Name] = s
	}
	if s := byName["files"]; s.Command != "node" || !slices.Equal(s.Args, []string{"files.js", "${HOME}"}) || s.Env["ROOT"] != "/srv" {
		t.Errorf("files = %+v", s)
	}
	if s := byName["docs"]; s.Transport() != "http" || s.Headers["Authorization"] != "Bearer t" || !reflect.DeepEqual(s.DisabledTools, []string{"drop"}) {
		t.Errorf("docs = %+v", s)
	}
	if byName["feed"].Transport() != "sse" {
		t.Errorf("feed = %+v", byName["feed"])
	}
	// As the SDK's initialize names it, so naming it again leaves it be.
	if !reflect.DeepEqual(byName["calc"], SDKServer("calc", "the Agent SDK")) {
		t.Errorf("calc = %+v, want the in-process server of initialize", byName["calc"])
	}
	if len(servers) != 4 || !strings.Contains(problems["odd"], `unknown type "websocket"`) || !strings.Contains(problems["empty"], "set command") {
		t.Errorf("want 4 servers and problems for odd and empty, got %d and %q", len(servers), problems)
	}
}

// A connection a set replaced never starts again, though something held
// on to it: Start's goroutine holds the servers it was to start after
// its delay, and a set may replace one of them before then.
func TestAReplacedServerNeverStartsAgain(t *testing.T) {
	m := New(Options{Servers: []Server{stdioServer("conf")}, Cwd: t.TempDir(), Environ: os.Environ(), Version: "test",
		StartAfter: time.Hour})
	m.Start()
	t.Cleanup(m.Close)
	held := m.find("conf")
	wantReplacement(t, "naming conf", replace(t, m, programServer("conf", mcptest.EnvPrefix+"=p_")), []string{"conf"}, nil)
	m.launch(held)
	held.mu.Lock()
	state, link := held.state, held.link
	held.mu.Unlock()
	if state == StateStarting || link != nil {
		t.Fatalf("the replaced connection started again: %s", state)
	}
}

// A server the program set before ~/.claude.json's servers joined (they
// are read once the servers start) stays the program's when that file
// names it too.
func TestTheProgramsServerWinsOverOneThatJoinsLater(t *testing.T) {
	m := New(Options{Cwd: t.TempDir(), Environ: os.Environ(), Version: "test", StartAfter: time.Hour,
		Later: func() ([]Server, []string) { return []Server{stdioServer("foo")}, nil }})
	m.Start()
	t.Cleanup(m.Close)
	wantReplacement(t, "setting foo", replace(t, m, programServer("foo", mcptest.EnvPrefix+"=p_")), []string{"foo"}, nil)
	settle(m)
	if got := toolNames(m); !slices.Contains(got, "mcp__foo__p_echo") || slices.Contains(got, "mcp__foo__echo") {
		t.Errorf("want the program's foo to stay, got the tools %v", got)
	}
}
