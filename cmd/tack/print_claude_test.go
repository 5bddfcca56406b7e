package main

// The flags of claude -p that scripts pass beyond the basics: settings
// and their permission rules, sessions named and forked, structured
// answers, budgets, the tools and agents offered, the system prompt,
// added directories, and stream-json's echo.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// claude -p scripts pass --settings, a file or the JSON itself: its
// permission rules (and hooks) count as the user's own.
func TestPrintSettingsBringClaudeCodesPermissionRules(t *testing.T) {
	srv := echoThenRemove(t)
	file := filepath.Join(t.TempDir(), "deny.json")
	if err := os.WriteFile(file, []byte(`{"permissions": {"deny": ["Bash(rm *)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startTack(t, srv, "-p", "go", "--permission-mode", "ask",
		"--settings", `{"permissions": {"allow": ["Bash(echo *)"]}}`, "--settings", file)
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1 for the refused rm, got %d (stderr %q)", code, r.stderr.String())
	}
	// No --allowed-tools lifts a deny rule, so stderr suggests none.
	if got := r.stderr.String(); !strings.Contains(got, "tack: refused bash (rm -f nothing)") || strings.Contains(got, "--allowed-tools") {
		t.Errorf("stderr = %q", got)
	}
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "allowed-ran") {
		t.Errorf("want the allowed echo to run without asking, got %q", got)
	}
	if got := srv.Requests()[1].ToolResult("call_2"); !strings.Contains(got, "deny rule Bash(rm *) in --settings "+file) {
		t.Errorf("want rm refused naming the rule and its file, got %q", got)
	}
}

// What the full screen shows as a notice at start (here a --settings
// file that is not there) goes to stderr, leaving stdout to the answer.
func TestPrintSaysOnStderrWhatItSkipped(t *testing.T) {
	r := startTack(t, answerServer(t), "-p", "what is 2+2?", "--settings", "/no/such/settings.json")
	r.closeStdin()
	if code := r.exitCode(); code != 0 {
		t.Fatalf("exit %d (stderr %q)", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "The answer is 4.\n" {
		t.Errorf("stdout = %q", got)
	}
	if got := r.stderr.String(); !strings.Contains(got, "tack: --settings /no/such/settings.json: no such file") {
		t.Errorf("stderr = %q", got)
	}
}

// A session named with /rename is resumed by its name, as with claude
// --resume NAME.
func TestPrintResumesASessionByTheNameItWasGiven(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."))
	home, dir := t.TempDir(), t.TempDir()
	r := startTackIn(t, srv, home, dir, "-p", "one")
	r.closeStdin()
	r.wantExit(0)
	r = startTackIn(t, srv, home, dir, "-p", "/rename Nightly build", "--continue")
	r.closeStdin()
	r.wantExit(0)
	r = startTackIn(t, srv, home, dir, "-p", "two", "--resume", "nightly  BUILD")
	r.closeStdin()
	r.wantExit(0)
	if msgs := srv.Requests()[1].Messages; len(msgs) < 3 || !strings.Contains(msgs[len(msgs)-3].Content, "one") {
		t.Errorf("want the run to continue the named session, sent %+v", msgs)
	}
	r = startTackIn(t, srv, home, dir, "-p", "three", "--resume", "Weekly build")
	r.closeStdin()
	if code := r.exitCode(); code != 1 || !strings.Contains(r.stderr.String(), "no session Weekly build") {
		t.Errorf("want an unknown name refused, got exit %d, %q", code, r.stderr.String())
	}
}

// A script names its session with --session-id and continues it with
// --resume, or in a copy with --fork-session, as with claude -p; an id
// cannot be taken twice.
func TestPrintSessionIDNamesTheSessionToResume(t *testing.T) {
	const id = "123e4567-e89b-42d3-a456-426614174000"
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."), llmtest.ReplyText("Third."), llmtest.ReplyText("Fourth."))
	home, dir := t.TempDir(), t.TempDir()
	r := startTackIn(t, srv, home, dir, "-p", "one", "--output-format", "json", "--session-id", strings.ToUpper(id))
	r.closeStdin()
	r.wantExit(0)
	var rec printRecord
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil || rec.SessionID != id {
		t.Fatalf("want session_id %s, got %q (%v)", id, r.stdout.String(), err)
	}
	r = startTackIn(t, srv, home, dir, "-p", "two", "--resume", id)
	r.closeStdin()
	r.wantExit(0)
	if msgs := srv.Requests()[1].Messages; len(msgs) < 3 || !strings.Contains(msgs[len(msgs)-3].Content, "one") {
		t.Errorf("want the second run to continue the first's conversation, sent %+v", msgs)
	}
	r = startTackIn(t, srv, home, dir, "-p", "again", "--session-id", id)
	r.closeStdin()
	if code := r.exitCode(); code != 1 || !strings.Contains(r.stdout.String()+r.stderr.String(), "already exists: continue it with --resume "+id) {
		t.Errorf("want a taken id refused with what to do, got exit %d, %q %q", code, r.stdout.String(), r.stderr.String())
	}
	// --fork-session goes on in a copy with the id given, which holds the
	// conversation so far; the original keeps its own.
	const fork = "223e4567-e89b-42d3-a456-426614174000"
	r = startTackIn(t, srv, home, dir, "-p", "three", "--resume", id, "--fork-session", "--session-id", fork, "--output-format", "json")
	r.closeStdin()
	r.wantExit(0)
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil || rec.SessionID != fork {
		t.Fatalf("want the fork's session_id %s, got %q (%v)", fork, r.stdout.String(), err)
	}
	if msgs := srv.Requests()[2].Messages; !strings.Contains(msgs[len(msgs)-3].Content, "two") {
		t.Errorf("want the fork to continue the conversation, sent %+v", msgs)
	}
	r = startTackIn(t, srv, home, dir, "-p", "four", "--resume", id, "--output-format", "json")
	r.closeStdin()
	r.wantExit(0)
	for _, m := range srv.Requests()[3].Messages {
		if m.Role == "user" && m.Content == "three" {
			t.Errorf("the fork's turn reached the original session: %+v", srv.Requests()[3].Messages)
		}
	}
	r = startTack(t, srv, "-p", "four", "--session-id", "not-a-uuid")
	r.closeStdin()
	if code := r.exitCode(); code != 2 || !strings.Contains(r.stderr.String(), "use a UUID") {
		t.Errorf("want exit 2 for a malformed id, got %d, %q", code, r.stderr.String())
	}
}

// printStructured is a printRecord with the structured answer.
type printStructured struct {
	printRecord
	Structured json.RawMessage `json:"structured_output"`
}

const verdictSchema = `{"type":"object","properties":{"verdict":{"type":"string","enum":["pass","fail"]}},"required":["verdict"]}`

// With --json-schema the model answers through structured_output, held to
// the schema: a call that does not match is an error it reads and fixes,
// and the result carries the answer as structured_output (in text, the
// answer is that JSON).
func TestPrintJSONSchemaTakesTheAnswerThroughStructuredOutput(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "structured_output", `{"verdict":"maybe"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "structured_output", `{"verdict":"pass"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Done."),
	)
	r := startTack(t, srv, "-p", "judge", "--output-format", "json", "--json-schema", verdictSchema)
	r.closeStdin()
	r.wantExit(0)
	if got := srv.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "does not match the schema") {
		t.Errorf("want the bad answer refused, got %q", got)
	}
	var rec printStructured
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil || string(rec.Structured) != `{"verdict":"pass"}` || rec.IsError {
		t.Errorf("want structured_output {\"verdict\":\"pass\"}, got %s (%v)", r.stdout.String(), err)
	}

	nudged := llmtest.New(t,
		llmtest.ReplyText("It passes."),
		llmtest.Reply(llmtest.ToolCall("call_1", "structured_output", `{"verdict":"pass"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Done."),
	)
	r = startTack(t, nudged, "-p", "judge", "--json-schema", verdictSchema)
	r.closeStdin()
	r.wantExit(0)
	if got := r.stdout.String(); got != "{\"verdict\":\"pass\"}\n" {
		t.Errorf("want the structured answer on stdout, got %q", got)
	}
	if msgs := nudged.Requests()[1].Messages; !strings.Contains(msgs[len(msgs)-1].Content, "Call structured_output now") {
		t.Errorf("want the model asked for its structured answer, sent %q", msgs[len(msgs)-1].Content)
	}

	never := llmtest.New(t, llmtest.ReplyText("It passes."), llmtest.ReplyText("Really."), llmtest.ReplyText("Truly."))
	r = startTack(t, never, "-p", "judge", "--output-format", "json", "--json-schema", verdictSchema)
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1 without a structured answer, got %d", code)
	}
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil || rec.Subtype != "error_max_structured_output_retries" || !rec.IsError {
		t.Errorf("want error_max_structured_output_retries, got %s", r.stdout.String())
	}

	r = startTack(t, never, "-p", "judge", "--json-schema", `{"type":"array"}`)
	r.closeStdin()
	if code := r.exitCode(); code != 2 || !strings.Contains(r.stderr.String(), "must describe an object") {
		t.Errorf("want exit 2 for a schema of no object, got %d, %q", code, r.stderr.String())
	}
}

// --max-budget-usd stops the run once it has cost more: the turn is
// cancelled, the result says error_max_budget_usd, and stdin's next task
// never runs.
func TestPrintMaxBudgetStopsTheRun(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"sleep 5","description":"Wait"}`, 1),
			llmtest.Usage(0, 200000, 1000, 0), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Never."),
	)
	r := startTack(t, srv, "-p", "go", "--output-format", "json", "--permission-mode", "full-access", "--max-budget-usd", "0.001")
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1 over budget, got %d (stderr %q)", code, r.stderr.String())
	}
	var rec printRecord
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil || rec.Subtype != "error_max_budget_usd" || !rec.IsError ||
		rec.TotalCostUSD == nil || *rec.TotalCostUSD <= 0.001 {
		t.Errorf("want error_max_budget_usd with the cost, got %s (%v)", r.stdout.String(), err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("want no request after the budget ran out, got %d", n)
	}
}

// claude's --tools keeps the built-in tools to those it names, in Claude
// Code's names or tack's; --agents adds subagents the task tool offers.
func TestPrintToolsAndAgentsShapeWhatTheModelIsOffered(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("a"), llmtest.ReplyText("b"), llmtest.ReplyText("c"))
	r := startTack(t, srv, "-p", "x", "--tools", "Read,bash,Task",
		"--agents", `{"reviewer": {"description": "Reviews diffs for bugs", "prompt": "You review diffs.", "tools": ["Read", "Grep"], "model": "sonnet"}}`)
	r.closeStdin()
	r.wantExit(0)
	if got := strings.Join(srv.Requests()[0].ToolNames(), " "); got != "read bash task" {
		t.Errorf("want read, bash and task offered, got %q", got)
	}
	if task := srv.Requests()[0].Tools[2]; !strings.Contains(string(task.Function.Parameters)+task.Function.Description, "reviewer") {
		t.Errorf("want the task tool to offer the reviewer agent, got %s %s", task.Function.Description, task.Function.Parameters)
	}
	r = startTack(t, srv, "-p", "x", "--tools", "")
	r.closeStdin()
	r.wantExit(0)
	if got := srv.Requests()[1].ToolNames(); len(got) != 0 {
		t.Errorf(`want no tools with --tools "", got %q`, got)
	}
	r = startTack(t, srv, "-p", "x", "--agents", `{"reviewer": {"prompt": "no description"}}`)
	r.closeStdin()
	if code := r.exitCode(); code != 2 || !strings.Contains(r.stderr.String(), `agent "reviewer" needs a "description"`) {
		t.Errorf("want exit 2 naming what the agent lacks, got %d %q", code, r.stderr.String())
	}
}

// claude -p's system prompt flags: --append-system-prompt ends tack's
// system prompt; --system-prompt-file opens it in place of tack's brief,
// and the tools' guidance still follows.
func TestPrintTakesClaudesSystemPromptFlags(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Oui."), llmtest.ReplyText("Aye."))
	r := startTack(t, srv, "-p", "hi", "--append-system-prompt", "Answer in French.")
	r.closeStdin()
	r.wantExit(0)
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "pirate.md"), "You are a pirate.\n")
	r = startTack(t, srv, "-p", "hi", "--system-prompt-file", filepath.Join(dir, "pirate.md"))
	r.closeStdin()
	r.wantExit(0)
	reqs := srv.Requests()
	if sys := reqs[0].Messages[0]; sys.Role != "system" || !strings.HasPrefix(sys.Content, "You are tack") || !strings.HasSuffix(sys.Content, "\n\nAnswer in French.") {
		t.Errorf("--append-system-prompt: want tack's prompt ending in the text, got %q", sys.Content)
	}
	if sys := reqs[1].Messages[0].Content; !strings.HasPrefix(sys, "You are a pirate.\n\n# Tools") || strings.Contains(sys, "You are tack") {
		t.Errorf("--system-prompt-file: want the file's text in place of tack's brief, then the tools, got %q", sys)
	}
	r = startTack(t, srv, "-p", "hi", "--system-prompt-file", filepath.Join(dir, "missing.md"))
	r.wantExit(2)
	if !strings.Contains(r.stderr.String(), "cannot read --system-prompt-file") {
		t.Errorf("want the unreadable file named, got %q", r.stderr.String())
	}
}

// The output style the settings choose ends the system prompt, before
// --append-system-prompt's text, and the init line names it as claude
// -p's does.
func TestPrintTakesTheSettingsOutputStyle(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Done."))
	r := startTack(t, srv, "-p", "hi", "--settings", `{"outputStyle": "Concise"}`, "--append-system-prompt", "Answer in French.",
		"--output-format", "stream-json", "--verbose")
	r.closeStdin()
	r.wantExit(0)
	var init struct {
		OutputStyle string `json:"output_style"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(r.stdout.String(), "\n", 2)[0]), &init); err != nil || init.OutputStyle != "Concise" {
		t.Errorf("want the init line to name the style Concise, got %q (%v)", init.OutputStyle, err)
	}
	sys := srv.Requests()[0].Messages[0].Content
	if !strings.Contains(sys, "# Output style: Concise\n\nLead with the result.") || !strings.HasSuffix(sys, "\n\nAnswer in French.") {
		t.Errorf("want the style's text, then the appended text, at the end of the system prompt, got %q", sys)
	}
}

// claude -p's --add-dir: the model's edits and sandboxed commands reach
// the added directory as they reach the workspace, unasked in auto mode
// (print mode denies what would ask); a directory that does not exist is
// a usage error.
func TestPrintAddDirLetsTheModelWorkThere(t *testing.T) {
	other := t.TempDir()
	note, out := filepath.Join(other, "note.txt"), filepath.Join(other, "cmd.txt")
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("w", "write", fmt.Sprintf(`{"file_path":%q,"content":"noted\n"}`, note), 1)),
		llmtest.Reply(llmtest.ToolCall("b", "bash", fmt.Sprintf(`{"command":"echo ran > %s","description":"Write there"}`, out), 1)),
		llmtest.ReplyText("Done."),
	)
	r := startTack(t, srv, "-p", "note it", "--add-dir", other)
	r.closeStdin()
	r.wantExit(0)
	for path, want := range map[string]string{note: "noted\n", out: "ran\n"} {
		if got, err := os.ReadFile(path); err != nil || string(got) != want {
			t.Errorf("%s: want %q, got %q (%v); %s", path, want, got, err, r.output())
		}
	}
	r = startTack(t, srv, "-p", "x", "--add-dir", filepath.Join(other, "missing"))
	r.wantExit(2)
	if !strings.Contains(r.stderr.String(), "--add-dir "+filepath.Join(other, "missing")+": not a directory") {
		t.Errorf("want the missing directory named, got %q", r.stderr.String())
	}
}

// --replay-user-messages writes each stream-json user message back before
// its turn's output; --disable-slash-commands sends a task that starts
// with a slash to the model as text.
func TestPrintReplaysUserMessagesAndCanLeaveSlashesAlone(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("One."), llmtest.ReplyText("Two."))
	r := startTack(t, srv, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--replay-user-messages")
	r.write(`{"type":"user","message":{"role":"user","content":"first"}}` + "\n")
	r.closeStdin()
	r.wantExit(0)
	lines := strings.Split(strings.TrimSpace(r.stdout.String()), "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], `"type":"user"`) || !strings.Contains(lines[1], `"text":"first"`) {
		t.Errorf("want the user message replayed after init, got %q", lines)
	}

	r = startTack(t, srv, "-p", "/review 42", "--disable-slash-commands")
	r.closeStdin()
	r.wantExit(0)
	if msgs := srv.Requests()[1].Messages; msgs[len(msgs)-1].Content != "/review 42" {
		t.Errorf("want the task sent as text, sent %q", msgs[len(msgs)-1].Content)
	}
}

// A script or Agent SDK written for Claude Code passes Claude's model
// names, which no provider of tack's serves: the session's own model runs,
// and stderr says so.
func TestPrintRunsItsOwnModelForClaudesModelNames(t *testing.T) {
	srv := answerServer(t)
	r := startTack(t, srv, "-p", "x", "--model", "sonnet")
	r.closeStdin()
	r.wantExit(0)
	if got := srv.Requests()[0].Model; got != "deepseek-flash" {
		t.Errorf("the request named model %q", got)
	}
	if got := r.stderr.String(); !strings.Contains(got, "--model sonnet is one of Claude Code's models") {
		t.Errorf("stderr = %q", got)
	}
}

// stream-json writes a hook_started and a hook_response line for each
// SessionStart hook run, as claude does, and with --include-hook-events
// for every hook; the hooks come from ~/.claude/settings.json.
func TestPrintStreamsHookEvents(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, home, map[string]string{".claude/settings.json": `{"hooks": {
  "SessionStart": [{"hooks": [{"type": "command", "command": "echo started-notes"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no bash today >&2; exit 2"}]}]
}}`})
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"ls","description":"List"}`, 1)), llmtest.ReplyText("Done."),
		llmtest.ReplyText("Again."))
	type line struct{ Type, Subtype, HookName, HookEvent, Outcome, Stdout, Stderr, ExitCode string }
	hookLines := func(out string) []line {
		var got []line
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var m struct {
				Type, Subtype, Outcome, Stdout, Stderr string
				HookName                               string `json:"hook_name"`
				HookEvent                              string `json:"hook_event"`
				HookID                                 string `json:"hook_id"`
				ExitCode                               *int   `json:"exit_code"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
			if strings.HasPrefix(m.Subtype, "hook_") {
				if m.HookID == "" {
					t.Errorf("a hook line without hook_id: %s", l)
				}
				code := "none"
				if m.ExitCode != nil {
					code = fmt.Sprint(*m.ExitCode)
				}
				got = append(got, line{m.Type, m.Subtype, m.HookName, m.HookEvent, m.Outcome, m.Stdout, m.Stderr, code})
			}
		}
		return got
	}
	r := startTackIn(t, srv, home, dir, "-p", "list", "--output-format", "stream-json", "--include-hook-events")
	r.closeStdin()
	r.wantExit(1) // the hook refused a call
	want := []line{
		{"system", "hook_started", "SessionStart:startup", "SessionStart", "", "", "", "none"},
		{"system", "hook_response", "SessionStart:startup", "SessionStart", "success", "started-notes", "", "0"},
		{"system", "hook_started", "PreToolUse:Bash", "PreToolUse", "", "", "", "none"},
		{"system", "hook_response", "PreToolUse:Bash", "PreToolUse", "error", "", "no bash today", "2"},
	}
	if got := hookLines(r.stdout.String()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("hook lines:\n got %+v\nwant %+v", got, want)
	}
	r = startTackIn(t, srv, home, dir, "-p", "again", "--output-format", "stream-json")
	r.closeStdin()
	r.wantExit(0)
	if got := hookLines(r.stdout.String()); len(got) != 2 || got[0].HookName != "SessionStart:startup" {
		t.Errorf("without --include-hook-events want SessionStart's lines alone, got %+v", got)
	}
}

// claude -p's init line says whether each MCP server connected or failed
// and lists its tools; scripts check it before they trust a run (a server
// "pending" there reads as one that failed). The init line waits for the
// servers to start, as the first request would.
func TestPrintInitLineReportsMCPServersStarted(t *testing.T) {
	fake := mcptest.NewHTTP("")
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	srv := llmtest.New(t, llmtest.ReplyText("a"))
	servers := fmt.Sprintf(`{"mcpServers": {"docs": {"type": "http", "url": %q}, "gone": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}`, slow.URL)
	r := startTack(t, srv, "-p", "x", "--output-format", "stream-json", "--verbose", "--mcp-config", servers)
	r.closeStdin()
	r.wantExit(0)
	line, _, _ := strings.Cut(r.stdout.String(), "\n")
	var init struct {
		Tools      []string `json:"tools"`
		MCPServers []struct {
			Name, Status string
		} `json:"mcp_servers"`
	}
	if err := json.Unmarshal([]byte(line), &init); err != nil {
		t.Fatalf("init line %q: %v", line, err)
	}
	got := fmt.Sprint(init.MCPServers)
	if got != "[{docs connected} {gone failed}]" || !slices.Contains(init.Tools, "mcp__docs__echo") {
		t.Errorf("want docs connected with its tools and gone failed, got %s with tools %v", got, init.Tools)
	}
}
