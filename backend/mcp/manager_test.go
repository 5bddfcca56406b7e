package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestMain(m *testing.M) {
	mcptest.RunIfServer()
	os.Exit(m.Run())
}

// reports collects what a Manager reports.
type reports struct {
	mu   sync.Mutex
	list []string
	news chan struct{}
}

func (r *reports) add(s string) {
	r.mu.Lock()
	r.list = append(r.list, s)
	r.mu.Unlock()
	select {
	case r.news <- struct{}{}:
	default:
	}
}

// wait waits for the first report.
func (r *reports) wait(t *testing.T) {
	t.Helper()
	if len(r.all()) > 0 {
		return
	}
	select {
	case <-r.news:
	case <-time.After(30 * time.Second):
		t.Fatal("no report in 30s")
	}
}
func (r *reports) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.list...)
}

func stdioServer(name string, extra ...string) Server {
	cmd, args, env := mcptest.Command(extra...)
	return commandServer(name, cmd, args, env)
}

// commandServer is a stdio server that runs cmd with args and env.
func commandServer(name, cmd string, args, env []string) Server {
	envMap := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		envMap[k] = v
	}
	return Server{Name: name, Origin: "test", Command: cmd, Args: args, Env: envMap,
		StartupTimeout: 20 * time.Second, ToolTimeout: 20 * time.Second}
}

func startManager(t *testing.T, servers ...Server) (*Manager, *reports) {
	t.Helper()
	r := &reports{news: make(chan struct{}, 1)}
	m := New(Options{Servers: servers, Report: r.add, Cwd: t.TempDir(), Environ: os.Environ(), Version: "test"})
	m.Start()
	t.Cleanup(m.Close)
	settle(m)
	return m, r
}

// settle is m.Settle bounded by 30 seconds: no server still starting or
// re-reading its tool list.
func settle(m *Manager) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.Settle(ctx)
}

func toolByName(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Spec().Name == name {
			return tl
		}
	}
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Spec().Name)
	}
	t.Fatalf("no tool %s; tools: %v (status: %s)", name, names, m.StatusText())
	return nil
}

func run(t *testing.T, tl tools.Tool, args string, env *tools.Env) tools.Result {
	t.Helper()
	return tl.Run(context.Background(), tools.Call{ID: "c1", Args: json.RawMessage(args), Env: env})
}

func TestStdioServerToolsAreOfferedAndCalled(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	m, r := startManager(t, stdioServer("fake", mcptest.EnvLog+"="+log))
	echo := toolByName(t, m, "mcp__fake__echo")
	spec := echo.Spec()
	if spec.Access != tools.AccessExternal || !spec.ReadOnlyHint || spec.Description != "Echo the text back." {
		t.Errorf("spec = %+v", spec)
	}
	if got := string(spec.Schema); got != `{"properties":{"text":{"description":"what to echo","type":"string"}},"required":["text"],"type":"object"}` {
		t.Errorf("schema = %s", got)
	}
	res := run(t, echo, `{"text":"hello"}`, nil)
	if res.IsError || res.Text != "echo: hello" {
		t.Fatalf("result = %+v", res)
	}
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), `"tool":"echo"`) || !strings.Contains(string(calls), `"text":"hello"`) {
		t.Errorf("the server did not record the call: %q", calls)
	}
	card := echo.Present(json.RawMessage(`{"text":"hello"}`))
	if card.Title != "fake · echo" || card.Body != "text: hello" || card.Description != "Echo" {
		t.Errorf("card = %+v", card)
	}
	if len(r.all()) != 0 {
		t.Errorf("reports = %q", r.all())
	}
}

func TestErrorResultsImagesAndLinks(t *testing.T) {
	m, _ := startManager(t, stdioServer("fake"))
	if res := run(t, toolByName(t, m, "mcp__fake__fail"), `{}`, nil); !res.IsError || res.Text != "Error: it went wrong" {
		t.Errorf("fail = %+v", res)
	}
	spill := t.TempDir()
	res := run(t, toolByName(t, m, "mcp__fake__image"), `{}`, &tools.Env{SpillDir: spill})
	lines := strings.Split(res.Text, "\n")
	if len(lines) != 3 || lines[0] != "a pixel:" || !strings.HasPrefix(lines[1], "[image image/png, 0.1 KB, saved to "+spill) ||
		lines[2] != "[resource link: file:///tmp/pixel.png (pixel), image/png]" {
		t.Fatalf("image result = %q", res.Text)
	}
	saved, _ := filepath.Glob(filepath.Join(spill, "mcp-fake-image-*.png"))
	if len(saved) != 1 {
		t.Fatalf("saved images: %v", saved)
	}
	if b, _ := os.ReadFile(saved[0]); !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("saved file is not the PNG: %q", b[:min(8, len(b))])
	}
}

func TestCrashMidCallIsAnErrorResultAndReportedOnce(t *testing.T) {
	m, r := startManager(t, stdioServer("fake"))
	res := run(t, toolByName(t, m, "mcp__fake__crash"), `{}`, nil)
	if !res.IsError || !strings.Contains(res.Text, "MCP server fake stopped during the call to crash") {
		t.Fatalf("result = %+v", res)
	}
	r.wait(t)
	got := r.all()
	if len(got) != 1 || !strings.Contains(got[0], "MCP server fake stopped") || !strings.Contains(got[0], "crashing on purpose") ||
		!strings.Contains(got[0], "/mcp restart fake") {
		t.Fatalf("reports = %q", got)
	}
	if len(m.Tools()) != 0 {
		t.Error("a stopped server still offers tools")
	}
	res = run(t, toolByName2(m, "mcp__fake__echo", res), `{"text":"x"}`, nil)
	if !res.IsError || !strings.Contains(res.Text, "not running") {
		t.Errorf("call after the crash = %+v", res)
	}
	if err := m.Restart("fake"); err != nil {
		t.Fatal(err)
	}
	settle(m)
	if res := run(t, toolByName(t, m, "mcp__fake__echo"), `{"text":"again"}`, nil); res.Text != "echo: again" {
		t.Errorf("after restart: %+v", res)
	}
	if len(r.all()) != 1 {
		t.Errorf("reports after restart = %q", r.all())
	}
}

// toolByName2 returns a stale tool value from before the crash: a model
// may still call a tool it saw in the previous request.
func toolByName2(m *Manager, name string, _ tools.Result) tools.Tool {
	c := m.find("fake")
	return &Tool{conn: c, name: strings.TrimPrefix(name, "mcp__fake__"), spec: tools.Spec{Name: name}}
}

func TestHangingCallTimesOutAndCancels(t *testing.T) {
	srv := stdioServer("fake")
	srv.ToolTimeout = 200 * time.Millisecond
	m, _ := startManager(t, srv)
	hang := toolByName(t, m, "mcp__fake__hang")
	res := run(t, hang, `{}`, nil)
	if !res.IsError || !strings.Contains(res.Text, "did not answer hang, nor report progress, within 200ms") {
		t.Errorf("timeout result = %+v", res)
	}
	srv.ToolTimeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tools.Result)
	go func() { done <- hang.Run(ctx, tools.Call{Args: json.RawMessage(`{}`)}) }()
	cancel()
	if res := <-done; !strings.Contains(res.Text, "cancelled") {
		t.Errorf("cancelled result = %+v", res)
	}
	if res := run(t, toolByName(t, m, "mcp__fake__echo"), `{"text":"still here"}`, nil); res.Text != "echo: still here" {
		t.Errorf("server unusable after a hang: %+v", res)
	}
}

// A step that needs the servers does not wait out the delay that leaves
// the front door its first frame.
func TestSettleStartsDelayedServersAtOnce(t *testing.T) {
	m := New(Options{Servers: []Server{stdioServer("fake")}, Cwd: t.TempDir(), Environ: os.Environ(),
		Version: "test", StartAfter: time.Hour})
	m.Start()
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m.Settle(ctx)
	if ctx.Err() != nil {
		t.Fatal("Settle waited for the start delay")
	}
	toolByName(t, m, "mcp__fake__echo")
}

// A server that joins (from ~/.claude.json, after the others) counts as
// starting from the moment it joins: a step's Settle between its joining
// and its launch waits for its tools. CI once saw a turn go out without
// a local-scope server's tools through that gap.
func TestSettleWaitsForAServerThatJoinedBeforeItLaunches(t *testing.T) {
	m := New(Options{Cwd: t.TempDir(), Environ: os.Environ(), Version: "test"})
	t.Cleanup(m.Close)
	added := m.add([]Server{stdioServer("late")}, nil)
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m.Settle(short)
	if short.Err() == nil {
		t.Fatalf("Settle returned while the joined server had not launched (status: %s)", m.StatusText())
	}
	for _, c := range added {
		m.launch(c)
	}
	settle(m)
	toolByName(t, m, "mcp__late__echo")
}

// Servers held until the front door's start settles start when it does,
// without a step asking for them.
func TestServersStartWhenTheFrontDoorSettles(t *testing.T) {
	settled := make(chan struct{})
	m := New(Options{Servers: []Server{stdioServer("fake")}, Cwd: t.TempDir(), Environ: os.Environ(),
		Version: "test", StartAfter: time.Hour, StartWhen: settled})
	m.Start()
	t.Cleanup(m.Close)
	close(settled)
	deadline := time.After(30 * time.Second)
	for {
		m.mu.Lock()
		ch := m.changed
		m.mu.Unlock()
		if len(m.Tools()) > 0 {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatal("want the servers started once the front door settled, got none within 30s")
		}
	}
}

func TestToolListChangeIsSeenAfterSettle(t *testing.T) {
	m, _ := startManager(t, stdioServer("fake"))
	before := len(m.Tools())
	run(t, toolByName(t, m, "mcp__fake__change"), `{}`, nil)
	deadline := time.After(30 * time.Second)
	for {
		// Take the channel before looking, so a change between the look
		// and the wait still wakes the wait.
		m.mu.Lock()
		ch := m.changed
		m.mu.Unlock()
		if len(m.Tools()) == before+1 {
			break
		}
		select {
		case <-ch: // the relisting started or ended
		case <-deadline:
			t.Fatal("the changed tool list never arrived")
		}
	}
	toolByName(t, m, "mcp__fake__added")
}

func TestServerThatFailsToStartIsReportedAndOthersRun(t *testing.T) {
	garbage := stdioServer("garbage", mcptest.EnvGarbage+"=1")
	slow := stdioServer("slow", mcptest.EnvDelay+"=5000")
	slow.StartupTimeout = 300 * time.Millisecond
	missing := Server{Name: "missing", Origin: "test", Command: filepath.Join(t.TempDir(), "no-such-server"),
		StartupTimeout: time.Second, ToolTimeout: time.Second}
	broken := stdioServer("broken", mcptest.EnvBadJSON+"=1")
	m, r := startManager(t, garbage, slow, missing, broken, stdioServer("good"))
	toolByName(t, m, "mcp__good__echo")
	all := strings.Join(r.all(), "\n")
	for _, want := range []string{"MCP server slow failed to start: did not answer within 300ms",
		"MCP server missing failed to start: cannot start", "MCP server broken failed to start: handshake failed"} {
		if !strings.Contains(all, want) {
			t.Errorf("reports lack %q:\n%s", want, all)
		}
	}
	st := map[string]ServerStatus{}
	for _, s := range m.Status() {
		st[s.Name] = s
	}
	if st["good"].State != StateReady || st["slow"].State != StateFailed || st["missing"].State != StateFailed {
		t.Errorf("status = %+v", st)
	}
	// A server that prints a line that is not JSON-RPC on stdout keeps
	// working; the line is kept with its stderr.
	if res := run(t, toolByName(t, m, "mcp__garbage__echo"), `{"text":"ok"}`, nil); res.Text != "echo: ok" {
		t.Errorf("garbage server: %+v", res)
	}
	if tail := strings.Join(m.find("garbage").stderr.Lines(5), "\n"); !strings.Contains(tail, "stdout: this is not JSON-RPC") {
		t.Errorf("the stray stdout line is not kept: %q", tail)
	}
}

func TestStreamableHTTPServerWithHeaders(t *testing.T) {
	fake := mcptest.NewHTTP("web_")
	ts := httptest.NewServer(fake)
	defer ts.Close()
	srv := Server{Name: "web", Origin: "test", URL: ts.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer t0ken"},
		StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}
	m, r := startManager(t, srv)
	res := run(t, toolByName(t, m, "mcp__web__web_echo"), `{"text":"over http"}`, nil)
	if res.Text != "echo: over http" {
		t.Fatalf("result = %+v (reports %q)", res, r.all())
	}
	for _, h := range fake.Headers() {
		if h.Get("Authorization") != "Bearer t0ken" {
			t.Fatalf("a request lacked the configured header: %v", h)
		}
	}
}

// A server whose name is not an identifier ("My Docs", as a .mcp.json may
// call one) is served, and /mcp restart and its hints take the name as
// its tools spell it.
func TestAServerNamedWithSpacesIsRestartedByItsToolsSpelling(t *testing.T) {
	m, _ := startManager(t, stdioServer("My Docs"))
	if res := run(t, toolByName(t, m, "mcp__My_Docs__echo"), `{"text":"ok"}`, nil); res.Text != "echo: ok" {
		t.Errorf("got %+v", res)
	}
	if err := m.Restart("My_Docs"); err != nil {
		t.Error(err)
	}
	st := m.Status()
	st[0].State = StateFailed
	if text := statusText(st, Offering{}); !strings.Contains(text, "/mcp restart My_Docs tries again") {
		t.Errorf("status:\n%s", text)
	}
}

func TestToolNamesAreSafeAndBounded(t *testing.T) {
	if got := ToolName("my docs", "search.v2"); got != "mcp__my_docs__search_v2" {
		t.Errorf("got %q", got)
	}
	long := ToolName("server", strings.Repeat("x", 80))
	if len(long) != 64 || long == ToolName("server", strings.Repeat("x", 81)) {
		t.Errorf("long names: %q", long)
	}
}

// TestServerCredentialsAreRedacted: a stdio server that prints its token
// to stderr before crashing, and an HTTP server whose URL carries a key and
// cannot be reached; neither the reports, the status nor the tool result
// may carry the secret.
func TestServerCredentialsAreRedacted(t *testing.T) {
	const token, key, header = "ghp_t0ken5ecret99", "k3y-in-the-url-77", "s3cret-header-value"
	fake := stdioServer("fake", mcptest.EnvLeak+"=GITHUB_TOKEN", "GITHUB_TOKEN="+token)
	gone := Server{Name: "gone", Origin: "test", URL: "http://127.0.0.1:1/mcp?api_key=" + key,
		Headers: map[string]string{"X-Api-Key": header}, StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}
	m, r := startManager(t, fake, gone)
	res := run(t, toolByName(t, m, "mcp__fake__crash"), `{}`, nil)
	testkit.Eventually(t, "both servers reported", func() bool { return len(r.all()) == 2 },
		func() string { return strings.Join(r.all(), "\n") })
	texts := append([]string{res.Text, m.StatusText()}, r.all()...)
	all := strings.Join(texts, "\n")
	for _, secret := range []string{token, key, header} {
		if strings.Contains(all, secret) {
			t.Errorf("%q shown:\n%s", secret, all)
		}
	}
	if !strings.Contains(all, "GITHUB_TOKEN=[redacted]") {
		t.Errorf("want the leaked token shown as redacted:\n%s", all)
	}
}

// A server turned off stops offering its tools and its process ends; on
// again, it starts anew. Turning on a server that is on leaves it running.
func TestServerTurnedOffByNameIsGoneUntilTurnedOn(t *testing.T) {
	m, _ := startManager(t, stdioServer("fake"))
	toolByName(t, m, "mcp__fake__echo")
	if err := m.SetEnabled("fake", true); err != nil || m.find("fake").currentState() != StateReady {
		t.Fatalf("turning on a running server: %v, state %s", err, m.find("fake").currentState())
	}
	if err := m.SetEnabled("fake", false); err != nil {
		t.Fatal(err)
	}
	if st := m.Status()[0]; st.State != StateDisabled || len(m.Tools()) != 0 {
		t.Fatalf("turned off, the server is %s with tools %v", st.State, m.Tools())
	}
	if !strings.Contains(m.StatusText(), "turned off; /mcp restart fake starts it again") {
		t.Errorf("/mcp does not say how to start it again:\n%s", m.StatusText())
	}
	if err := m.SetEnabled("fake", true); err != nil {
		t.Fatal(err)
	}
	settle(m)
	if res := run(t, toolByName(t, m, "mcp__fake__echo"), `{"text":"back"}`, nil); res.Text != "echo: back" {
		t.Errorf("turned on again, the server answered %+v", res)
	}
	if err := m.SetEnabled("nope", false); err == nil || !strings.Contains(err.Error(), `no MCP server "nope"`) {
		t.Errorf("an unknown server: %v", err)
	}
}

// goSDKPrompts is an MCP server made with the go-sdk over streamable
// HTTP that offers prompts: review (pr required, focus optional), whose
// messages are a user's text naming its arguments, an assistant's text,
// an image and an embedded text resource; and broken, which the server
// refuses. The server is returned to change its prompts.
func goSDKPrompts(t *testing.T) (Server, *sdk.Server) {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "prompts", Version: "1"}, nil)
	s.AddPrompt(&sdk.Prompt{Name: "review", Title: "Review", Description: "Review a pull\nrequest",
		Arguments: []*sdk.PromptArgument{{Name: "pr", Description: "its number", Required: true}, {Name: "focus"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := req.Params.Arguments
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Review PR " + a["pr"] + ", focus: " + a["focus"]}},
				{Role: "assistant", Content: &sdk.TextContent{Text: "I will read it first."}},
				{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "pr://456/diff", Text: "+ added"}}},
			}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "broken"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return nil, fmt.Errorf("the repository is not configured")
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return Server{Name: "gh", Origin: "test", URL: ts.URL, StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}, s
}

// promptNames is each prompt as "server/name".
func promptNames(ps []Prompt) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Server+"/"+p.Name)
	}
	return out
}

// TestGoSDKServerPromptsAreListedAndGot pins prompts against the go-sdk's
// server: listed once the server is ready, with their arguments in order
// and descriptions on one line; got with the arguments, every message's
// text sent in order, the image saved to a file named in the text and the
// resource labelled; a refusal said as the server's.
func TestGoSDKServerPromptsAreListedAndGot(t *testing.T) {
	srv, _ := goSDKPrompts(t)
	spill := t.TempDir()
	m := New(Options{Servers: []Server{srv}, Cwd: t.TempDir(), Version: "test", SpillDir: spill})
	m.Start()
	t.Cleanup(m.Close)
	testkit.Eventually(t, "the server's prompts", func() bool { return len(m.Prompts()) == 2 },
		func() string { return fmt.Sprint(m.Prompts()) })
	want := Prompt{Server: "gh", Name: "review", Title: "Review", Description: "Review a pull request",
		Arguments: []PromptArgument{{Name: "pr", Description: "its number", Required: true}, {Name: "focus"}}}
	if got := m.Prompts()[1]; !reflect.DeepEqual(got, want) {
		t.Errorf("the second prompt is %+v, want %+v", got, want)
	}
	text, err := m.GetPrompt(context.Background(), "gh", "review", map[string]string{"pr": "456", "focus": "tests"})
	if err != nil {
		t.Fatal(err)
	}
	saved := savedFile.FindStringSubmatch(text)
	wantText := "Review PR 456, focus: tests\n\nI will read it first.\n\n[image image/png, 0.0 KB, saved to %s; read that file to see it]\n\n" +
		"[resource pr://456/diff]\n+ added"
	if saved == nil || text != fmt.Sprintf(wantText, saved[1]) || !strings.HasPrefix(saved[1], spill) {
		t.Errorf("the prompt's text is %q, want %q with the image saved under %s", text, wantText, spill)
	}
	_, err = m.GetPrompt(context.Background(), "gh", "broken", nil)
	if err == nil || !strings.Contains(err.Error(), "MCP server gh refused its prompt broken: ") ||
		!strings.Contains(err.Error(), "the repository is not configured") {
		t.Errorf("a prompt the server refuses: %v", err)
	}
}

// TestPromptsFollowTheServer pins when the prompts change: the watcher
// hears of a prompt the server adds and of one it removes
// (notifications/prompts/list_changed), none are left of a server turned
// off, and they are back once it is turned on.
func TestPromptsFollowTheServer(t *testing.T) {
	srv, s := goSDKPrompts(t)
	m := New(Options{Servers: []Server{srv}, Cwd: t.TempDir(), Version: "test"})
	var mu sync.Mutex
	var told []string
	m.WatchPrompts(func(ps []Prompt) { mu.Lock(); told = promptNames(ps); mu.Unlock() })
	m.Start()
	t.Cleanup(m.Close)
	heard := func(want ...string) {
		t.Helper()
		last := func() []string { mu.Lock(); defer mu.Unlock(); return told }
		testkit.Eventually(t, fmt.Sprintf("the watcher to hear of %v", want), func() bool { return slices.Equal(last(), want) },
			func() string { return fmt.Sprint(last()) })
	}
	heard("gh/broken", "gh/review")
	s.AddPrompt(&sdk.Prompt{Name: "triage"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	heard("gh/broken", "gh/review", "gh/triage")
	s.RemovePrompts("broken")
	heard("gh/review", "gh/triage")
	if err := m.SetEnabled("gh", false); err != nil {
		t.Fatal(err)
	}
	heard()
	if err := m.SetEnabled("gh", true); err != nil {
		t.Fatal(err)
	}
	heard("gh/review", "gh/triage")
}
