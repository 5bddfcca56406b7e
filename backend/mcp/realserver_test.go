package mcp

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// The real servers' versions the recordings in testdata come from, which
// make mcpreal installs.
const (
	everythingPkg  = "@modelcontextprotocol/server-everything@2026.8.31"
	filesystemPkg  = "@modelcontextprotocol/server-filesystem@2026.8.31"
	npmDirVariable = "TACK_MCP_NPM_DIR"
)

var recordReal = flag.Bool("record", false, "with "+npmDirVariable+": record the real servers to testdata/*.jsonl")

// realServer is a server of the scenarios: a recording in testdata, or
// the real one from npm.
type realServer struct {
	name      string
	pkg       string
	recording string
	// args start the real server after node and its entry point.
	args []string
	// toolTimeout is the server's tool_timeout_ms.
	toolTimeout time.Duration
	// claim is client capabilities tack has not, claimed to the real
	// server (mcptest.EnvRecordClaim) so that it asks what tack refuses.
	claim string
}

// everythingTimeout is shorter than the everything server's long-running
// operation in the scenario (4 s), which reports progress every second.
const everythingTimeout = 2500 * time.Millisecond

var (
	everything = realServer{name: "everything", pkg: everythingPkg, recording: "testdata/everything.jsonl",
		args: []string{"stdio"}, toolTimeout: everythingTimeout}
	// refusedBy is the everything server told tack takes sampling
	// requests, which it refuses.
	refusedBy = realServer{name: "everything", pkg: everythingPkg, recording: "testdata/everything-refusals.jsonl",
		args: []string{"stdio"}, toolTimeout: everythingTimeout, claim: `{"sampling":{}}`}
	// elicitedBy is the everything server asking tack's user to fill in
	// its form.
	elicitedBy = realServer{name: "everything", pkg: everythingPkg, recording: "testdata/everything-elicitation.jsonl",
		args: []string{"stdio"}, toolTimeout: everythingTimeout}
	// sentToPagesBy is the everything server sending tack's user to web
	// pages (URL elicitation), asking and refusing.
	sentToPagesBy = realServer{name: "everything", pkg: everythingPkg, recording: "testdata/everything-url-elicitation.jsonl",
		args: []string{"stdio"}, toolTimeout: everythingTimeout}
	// promptedBy is the everything server's prompts, listed and got.
	promptedBy = realServer{name: "everything", pkg: everythingPkg, recording: "testdata/everything-prompts.jsonl",
		args: []string{"stdio"}, toolTimeout: everythingTimeout}
	filesystem = realServer{name: "filesystem", pkg: filesystemPkg, recording: "testdata/filesystem.jsonl",
		toolTimeout: 20 * time.Second}
)

// entry is the real server's entry point under npmDir.
func (r realServer) entry(npmDir string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(r.pkg, "@"), "@")
	return filepath.Join(npmDir, "node_modules", "@"+name, "dist", "index.js")
}

// live is the real server under npmDir, recorded to testdata with -record.
func (r realServer) live(t *testing.T, npmDir string) Server {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the real MCP servers run on it")
	}
	args := append([]string{r.entry(npmDir)}, r.args...)
	cmd, env := node, []string(nil)
	if *recordReal || r.claim != "" {
		note := fmt.Sprintf("%s (node %s) as it answered tack's client: recorded by `make mcpreal RECORD=1` (go test ./backend/mcp -run TestRealServers -record)",
			r.pkg, nodeVersion(node))
		if r.claim != "" {
			note += ", told the client's capabilities include " + r.claim
		}
		path := filepath.Join(t.TempDir(), "recording.jsonl")
		if *recordReal {
			path, _ = filepath.Abs(r.recording)
		}
		cmd, args, env = mcptest.RecordCommand(path, note, node, args...)
		env = append(env, mcptest.EnvRecordClaim+"="+r.claim)
	}
	return r.withTimeout(commandServer(r.name, cmd, args, env))
}

// replayed is the recording of the real server, replayed; what tack's
// client sent lands in the returned log.
func (r realServer) replayed(t *testing.T) (Server, string) {
	log := filepath.Join(t.TempDir(), "client.jsonl")
	path, err := filepath.Abs(r.recording)
	if err != nil {
		t.Fatal(err)
	}
	cmd, args, env := mcptest.ReplayCommand(path, log)
	return r.withTimeout(commandServer(r.name, cmd, args, env)), log
}

func (r realServer) withTimeout(s Server) Server {
	s.ToolTimeout = r.toolTimeout
	return s
}

func nodeVersion(node string) string {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// npmDir is where make mcpreal installed the real servers, or a skip.
func npmDir(t *testing.T) string {
	dir := testkit.NPMDir(t, npmDirVariable, everythingPkg+" and "+filesystemPkg, "mcpreal")
	for _, r := range []realServer{everything, filesystem} {
		if _, err := os.Stat(r.entry(dir)); err != nil {
			t.Skipf("%s is not installed in %s=%s (npm install %s there)", r.pkg, npmDirVariable, dir, r.pkg)
		}
	}
	return dir
}

// realSession is a manager of one server whose roots are a fresh workspace.
type realSession struct {
	m   *Manager
	cwd string
	// tools by the server's names for them, and the resource tools.
	tools map[string]tools.Tool
	spill string
}

func startSession(t *testing.T, srv Server, cwd string) *realSession {
	t.Helper()
	return startAnswering(t, srv, cwd, nil)
}

// startAnswering is startSession with the server's forms answered by ask.
func startAnswering(t *testing.T, srv Server, cwd string, ask func(context.Context, elicit.Request) elicit.Result) *realSession {
	t.Helper()
	return startWith(t, Options{Servers: []Server{srv}, Cwd: cwd, Elicit: ask})
}

// startWith is startSession with the options o, of one server.
func startWith(t *testing.T, o Options) *realSession {
	t.Helper()
	srv, cwd := o.Servers[0], o.Cwd
	r := &reports{news: make(chan struct{}, 1)}
	o.Report, o.Environ, o.Version = r.add, os.Environ(), "test"
	m := New(o)
	m.Start()
	t.Cleanup(m.Close)
	settle(m)
	if st := m.Status()[0]; st.State != StateReady {
		t.Fatalf("server %s is %s, want ready: %s %v; reports %q", srv.Name, st.State, st.Error, st.Stderr, r.all())
	}
	s := &realSession{m: m, cwd: cwd, tools: map[string]tools.Tool{}, spill: t.TempDir()}
	for _, tl := range m.Tools() {
		name := tl.Spec().Name // list_mcp_resources, read_mcp_resource
		if mt, ok := tl.(*Tool); ok {
			name = mt.name
		}
		s.tools[name] = tl
	}
	return s
}

func (s *realSession) call(t *testing.T, tool, args string) tools.Result {
	t.Helper()
	return s.callIn(t, &tools.Env{SpillDir: s.spill}, tool, args)
}

// callIn calls the tool in env.
func (s *realSession) callIn(t *testing.T, env *tools.Env, tool, args string) tools.Result {
	t.Helper()
	tl := s.tools[tool]
	if tl == nil {
		t.Fatalf("the server offers no tool %s", tool)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return tl.Run(ctx, tools.Call{Args: json.RawMessage(args), Env: env})
}

// callUntil calls the tool until its answer holds: a server that reads the
// roots as it starts (filesystem, everything) applies them a moment after
// it answers tack's first requests.
func (s *realSession) callUntil(t *testing.T, tool, args, what string, holds func(string) bool) string {
	t.Helper()
	var last string
	testkit.Eventually(t, tool+" to answer "+what, func() bool {
		last = s.call(t, tool, args).Text
		return holds(last)
	}, func() string { return last })
	return last
}

func freeWorkspace(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRealServers runs the scenarios against the real npm servers, the
// oracle the recordings in testdata come from.
func TestRealServers(t *testing.T) {
	dir := npmDir(t)
	t.Run("filesystem", func(t *testing.T) {
		ws := freeWorkspace(t)
		s := startSession(t, filesystem.live(t, dir), ws)
		other := filesystemScenario(t, s)
		listed := s.call(t, "list_allowed_directories", "{}").Text
		for _, d := range []string{ws, other} {
			if !strings.Contains(listed, d) {
				t.Errorf("the filesystem server allows %q, want %s among them (the roots tack gave)", listed, d)
			}
		}
	})
	t.Run("everything", func(t *testing.T) {
		ws := freeWorkspace(t)
		s := startSession(t, everything.live(t, dir), ws)
		roots := everythingScenario(t, s)
		if !strings.Contains(roots, "file://"+ws) {
			t.Errorf("the everything server got roots %q, want file://%s", roots, ws)
		}
	})
	t.Run("everything asking what tack refuses", func(t *testing.T) {
		refusalScenario(t, startSession(t, refusedBy.live(t, dir), freeWorkspace(t)))
	})
	t.Run("everything asking the user", func(t *testing.T) {
		s := startAnswering(t, elicitedBy.live(t, dir), freeWorkspace(t), formAnswers.ask)
		elicitationScenario(t, s)
	})
	t.Run("everything sending the user to pages", func(t *testing.T) {
		pagesScenario(t, sentToPagesBy.live(t, dir))
	})
	t.Run("everything's prompts", func(t *testing.T) {
		promptsScenario(t, promptedBy.live(t, dir))
	})
	t.Run("everything over streamable HTTP", func(t *testing.T) {
		if *recordReal {
			t.Skip("only the stdio exchange is recorded")
		}
		url := startHTTPEverything(t, dir)
		ws := freeWorkspace(t)
		s := startSession(t, Server{Name: "everything", Origin: "test", URL: url, StartupTimeout: 30 * time.Second,
			ToolTimeout: everythingTimeout}, ws)
		everythingScenario(t, s)
	})
}

// startHTTPEverything runs the everything server's streamable-HTTP mode
// on a free port until the test ends.
func startHTTPEverything(t *testing.T, dir string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", everything.entry(dir), "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	testkit.Eventually(t, "the everything server to listen on "+addr, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return "http://" + addr + "/mcp"
}
