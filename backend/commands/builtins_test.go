package commands

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// The real agent is what front doors pass to Execute.
var _ SessionAgent = (*agent.Agent)(nil)

// golden compares got with testdata/name, rewriting it under -update.
func matchGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", name), []byte(got))
}

type fakePermissions struct {
	mode  string
	rules permission.Rules
}

func (p *fakePermissions) Mode() string            { return p.mode }
func (p *fakePermissions) Rules() permission.Rules { return p.rules }
func (p *fakePermissions) SetMode(m string) error {
	p.mode = m
	return nil
}

type fakeSessions struct {
	list []session.Summary
	err  error
}

func (s fakeSessions) Sessions() ([]session.Summary, error) { return s.list, s.err }

func builtins(t *testing.T, deps Deps) *Registry {
	t.Helper()
	reg := New(Options{NewID: sequentialIDs()})
	must(t, RegisterBuiltins(reg, deps))
	return reg
}

// run executes line against a and returns its result.
func run(t *testing.T, reg *Registry, a Agent, line string) Result {
	t.Helper()
	exec, ok := reg.Execute(context.Background(), a, line, nil)
	if !ok {
		t.Fatalf("%s: want a command, got not a command", line)
	}
	return exec.Result
}

func TestStatusCardMatchesGolden(t *testing.T) {
	reg := builtins(t, Deps{Models: catalog})
	s := newSession()
	res := run(t, reg, s, "/status")
	if res.Kind != Success {
		t.Fatalf("want success, got %+v", res)
	}
	matchGolden(t, "status.golden", res.Text+"\n")
}

func TestStatusWithoutUsageOrKnownModel(t *testing.T) {
	reg := builtins(t, Deps{})
	s := &fakeSession{fakeAgent: newFakeAgent("s-2"), header: session.Header{ID: "s-2", Created: created, Cwd: "/w"}, model: "mystery"}
	res := run(t, reg, s, "/status")
	for _, want := range []string{
		"Title      untitled", "Model      mystery (effort default)", "KV cache   n/a (no input billed yet)",
		"capacity unknown", "Cost       $0.0000", "Registered tools\nnone",
	} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("want %q in\n%s", want, res.Text)
		}
	}
}

func TestStatusWorksWhileRunningAndResumeDoesNot(t *testing.T) {
	reg := builtins(t, Deps{Models: catalog})
	s := newSession()
	s.status = agent.StatusRunning
	if res := run(t, reg, s, "/status"); res.Kind != Success || !strings.Contains(res.Text, "Agent      running") {
		t.Errorf("/status while running: want a running card, got %+v", res)
	}
	want := "/resume requires the current turn to finish or be cancelled first."
	if res := run(t, reg, s, "/resume"); res.Kind != Error || res.Text != want {
		t.Errorf("/resume while running: want %q, got %+v", want, res)
	}
	if res := run(t, reg, s, "/new"); res.Kind != Error || res.Action != nil {
		t.Errorf("/new while running: want a refusal, got %+v", res)
	}
}

func TestEveryBuiltinDeclaresWhetherItRunsWhileRunning(t *testing.T) {
	reg := builtins(t, Deps{Permissions: &fakePermissions{}})
	idleOnly := map[string]bool{"new": true, "resume": true}
	var names []string
	for _, cmd := range reg.List("any") {
		names = append(names, cmd.Name)
		if cmd.WhileRunning == idleOnly[cmd.Name] {
			t.Errorf("/%s: want WhileRunning %v, got %v", cmd.Name, !idleOnly[cmd.Name], cmd.WhileRunning)
		}
	}
	want := "clear copy details effort exit export help init model new permissions quit rename resume status"
	if strings.Join(names, " ") != want {
		t.Errorf("built-ins: want %s, got %v", want, names)
	}
}

func TestHelpListsKeysAndEveryCommandWithItsHint(t *testing.T) {
	reg := builtins(t, Deps{Keys: "Keyboard shortcuts\nEnter send"})
	must(t, reg.RegisterFor("s-0001", Command{Name: "plan", Description: "Enter plan mode", Input: Input{Hint: "<message>"}, Handler: echo("")}))
	res := run(t, reg, newSession(), "/help")
	help, ok := res.Action.(ActionHelp)
	if !ok || help.Text != res.Text {
		t.Fatalf("want ActionHelp carrying the text, got %#v", res.Action)
	}
	lines := strings.Split(res.Text, "\n")
	if lines[0] != "Keyboard shortcuts" || lines[2] != "" {
		t.Errorf("want the keys section then a blank line, got %q", lines[:3])
	}
	for _, want := range []string{
		"/clear — Clear the view; the session history is unchanged",
		"/model [[provider/]model] [effort] — List models, or switch model and reasoning effort from the next step",
		"/plan <message> — Enter plan mode",
	} {
		if !strings.Contains(res.Text, want+"\n") {
			t.Errorf("want line %q in\n%s", want, res.Text)
		}
	}
	if strings.Index(res.Text, "/clear") > strings.Index(res.Text, "/copy") {
		t.Error("want commands sorted by name")
	}
}

// /effort is Claude Code's way to set the effort alone: /model LEVEL,
// taking its medium and xhigh, and refusing a model name.
func TestEffortCommand(t *testing.T) {
	tests := []struct {
		line, text string
		kind       ResultKind
		effort     llm.Effort
	}{
		{"/effort", "Reasoning effort: high (deepseek/deepseek-v4-pro takes off, low, high, max). /effort LEVEL changes it.", Success, "high"},
		{"/effort max", "Model selected: deepseek/deepseek-v4-pro. Reasoning effort: max. New steps will use it.", Success, "max"},
		{"/effort medium", "Model is already deepseek/deepseek-v4-pro with reasoning effort high.", Success, "high"},
		{"/effort xhigh", "Model selected: deepseek/deepseek-v4-pro. Reasoning effort: max. New steps will use it.", Success, "max"},
		{"/effort turbo", `Unknown reasoning effort "turbo" (available: off, low, high, max).`, Error, "high"},
		{"/effort deepseek-flash", `Unknown reasoning effort "deepseek-flash" (available: off, low, high, max).`, Error, "high"},
		{"/effort low high", "Usage: /effort [off, low, high, max]", Error, "high"},
	}
	for _, tt := range tests {
		s := newSession()
		res := run(t, builtins(t, Deps{Models: catalog}), s, tt.line)
		if res.Kind != tt.kind || res.Text != tt.text {
			t.Errorf("%s: want %s %q, got %s %q", tt.line, tt.kind, tt.text, res.Kind, res.Text)
		}
		if m, e := s.Model(); m != "deepseek-v4-pro" || e != tt.effort {
			t.Errorf("%s: want deepseek-v4-pro %s, got %s %s", tt.line, tt.effort, m, e)
		}
	}
}

func TestModelCommand(t *testing.T) {
	tests := []struct {
		line, text string
		kind       ResultKind
		model      string
		effort     llm.Effort
	}{
		{"/model deepseek/deepseek-flash", "Model selected: deepseek/deepseek-flash. Reasoning effort: high. New steps will use it.", Success, "deepseek-flash", "high"},
		{"/model deepseek-flash max", "Model selected: deepseek/deepseek-flash. Reasoning effort: max. New steps will use it.", Success, "deepseek-flash", "max"},
		{"/model deepseek deepseek-flash low", "Model selected: deepseek/deepseek-flash. Reasoning effort: low. New steps will use it.", Success, "deepseek-flash", "low"},
		{"/model low", "Model selected: deepseek/deepseek-v4-pro. Reasoning effort: low. New steps will use it.", Success, "deepseek-v4-pro", "low"},
		{"/model qwen3-coder", "Model selected: local/qwen3-coder. Reasoning effort: off. New steps will use it.", Success, "qwen3-coder", "off"},
		{"/model deepseek-v4-pro high", "Model is already deepseek/deepseek-v4-pro with reasoning effort high.", Success, "deepseek-v4-pro", "high"},
		{"/model gpt-9", "Unknown model: gpt-9. Run /model to list available models.", Error, "deepseek-v4-pro", "high"},
		{"/model deepseek-v4-pro extreme", `Unknown reasoning effort "extreme" (available: off, low, high, max).`, Error, "deepseek-v4-pro", "high"},
		{"/model qwen3-coder high", "local/qwen3-coder does not support reasoning effort high (available: off).", Error, "deepseek-v4-pro", "high"},
		{"/model a b c d", "Usage: /model [provider/]model [effort]", Error, "deepseek-v4-pro", "high"},
		{"/model deepseek-v4-pro high extra", "Usage: /model [provider/]model [effort]", Error, "deepseek-v4-pro", "high"},
	}
	for _, tt := range tests {
		reg := builtins(t, Deps{Models: catalog})
		s := newSession()
		res := run(t, reg, s, tt.line)
		if res.Kind != tt.kind || res.Text != tt.text {
			t.Errorf("%s: want %s %q, got %s %q", tt.line, tt.kind, tt.text, res.Kind, res.Text)
		}
		if m, e := s.Model(); m != tt.model || e != tt.effort {
			t.Errorf("%s: want model %s %s, got %s %s", tt.line, tt.model, tt.effort, m, e)
		}
	}
}

func TestBareModelOpensThePickerWithAListing(t *testing.T) {
	reg := builtins(t, Deps{Models: catalog})
	res := run(t, reg, newSession(), "/model")
	if _, ok := res.Action.(ActionOpenModelPicker); !ok {
		t.Fatalf("want ActionOpenModelPicker, got %#v", res.Action)
	}
	matchGolden(t, "model-list.golden", res.Text+"\n")
}

func TestPermissionsCommand(t *testing.T) {
	tests := []struct{ line, text, mode string }{
		{"/permissions", "Permission mode: ask (available: read-only, ask, auto, full-access)", "ask"},
		{"/permissions auto", "Permission mode: auto — commands run in the sandbox and workspace edits run; leaving them asks.", "auto"},
		{"/permissions auto-edit", "Permission mode: auto — commands run in the sandbox and workspace edits run; leaving them asks.", "auto"},
		{"/permissions full-access", "Permission mode: full-access — no sandbox: everything runs without asking.\n" +
			"Warning: full-access runs every command without the sandbox and never asks; anything the model runs can change or read anything you can.", "full-access"},
		{"/permissions yolo", `Unknown permission mode "yolo" (available: read-only, ask, auto, full-access)`, "ask"},
	}
	for _, tt := range tests {
		perms := &fakePermissions{mode: "ask"}
		res := run(t, builtins(t, Deps{Permissions: perms}), newFakeAgent("s"), tt.line)
		if res.Text != tt.text || perms.mode != tt.mode {
			t.Errorf("%s: want %q and mode %s, got %q and mode %s", tt.line, tt.text, tt.mode, res.Text, perms.mode)
		}
	}
}

func TestPermissionsListsTheRulesDenyFirst(t *testing.T) {
	perms := &fakePermissions{mode: "auto", rules: permission.Rules{
		Allow: []permission.Rule{{Entry: "Bash(npm test *)", Source: ".claude/settings.json", Project: true}},
		Deny:  []permission.Rule{{Entry: "Read(./.env)", Source: "~/.claude/settings.json"}},
	}}
	res := run(t, builtins(t, Deps{Permissions: perms}), newFakeAgent("s"), "/permissions")
	want := "Permission mode: auto (available: read-only, ask, auto, full-access)\nRules:\n" +
		"  deny   Read(./.env)  (~/.claude/settings.json)\n" +
		"  allow  Bash(npm test *)  (.claude/settings.json, once you approve it)"
	if res.Text != want {
		t.Errorf("got\n%s\nwant\n%s", res.Text, want)
	}
}

func TestActionCommands(t *testing.T) {
	usage := `Unknown /details argument "loud". Usage: /details [collapsed|expanded|hidden] [reasoning [on|off]]`
	tests := []struct {
		line   string
		kind   ResultKind
		text   string
		action Action
	}{
		{"/exit", Success, "", ActionExit{}},
		{"/quit", Success, "", ActionExit{}},
		{"/exit now", Error, "Usage: /exit (no arguments)", nil},
		{"/clear", Success, "Cleared the view; the session history is unchanged.", ActionClear{}},
		{"/new", Success, "Starting a new session with the same settings.", ActionNewSession{}},
		{"/details", Success, "", ActionOpenDetails{}},
		{"/details expanded", Success, "Tool and context cards expanded.", ActionDetails{Cards: CardsExpanded}},
		{"/details hidden reasoning off", Success, "Reasoning blocks hidden. Tool cards hidden.", ActionDetails{Cards: CardsHidden, Reasoning: ReasoningOff}},
		{"/details reasoning", Success, "Reasoning blocks toggled.", ActionDetails{Reasoning: ReasoningToggle}},
		{"/details reasoning on collapsed", Success, "Reasoning blocks shown. Tool and context cards collapsed.", ActionDetails{Cards: CardsCollapsed, Reasoning: ReasoningOn}},
		{"/details loud", Error, usage, nil},
		{"/copy", Success, "Copied the last answer to the clipboard.", ActionCopy{Text: "It is an empty `main`."}},
	}
	for _, tt := range tests {
		res := run(t, builtins(t, Deps{}), newSession(), tt.line)
		if res.Kind != tt.kind || res.Text != tt.text || !reflect.DeepEqual(res.Action, tt.action) {
			t.Errorf("%s: want %s %q %#v, got %s %q %#v", tt.line, tt.kind, tt.text, tt.action, res.Kind, res.Text, res.Action)
		}
	}
	empty := &fakeSession{fakeAgent: newFakeAgent("e")}
	if res := run(t, builtins(t, Deps{}), empty, "/copy"); res.Text != "Nothing to copy yet." || res.Action != nil {
		t.Errorf("/copy with no answer: want %q, got %+v", "Nothing to copy yet.", res)
	}
}

// /resume takes an id, or, as claude --resume TERM does, words that
// search the titles and ids.
func TestResumeCommand(t *testing.T) {
	at := created.Add(time.Hour)
	sessions := fakeSessions{list: []session.Summary{
		{ID: "s-0002", Title: "Fix the parser", LastActive: at},
		{ID: "s-0001", LastActive: at.Add(-time.Minute)},
		{ID: "s-bad", Err: errors.New("torn header"), LastActive: at.Add(-time.Hour)},
	}}
	tests := []struct {
		line, text string
		kind       ResultKind
		action     Action
	}{
		{"/resume s-0002", "Resuming session s-0002.", Success, ActionResume{ID: "s-0002"}},
		{"/resume  fix THE parser ", "Resuming session s-0002.", Success, ActionResume{ID: "s-0002"}},
		{"/resume s-0001", "Session s-0001 is already open.", Error, nil},
		{"/resume s-9", `No session of this workspace has "s-9" in its title or id; /resume lists them all.`, Success, ActionOpenResumePicker{Search: "s-9"}},
		{"/resume s-bad", "Session s-bad cannot be resumed: torn header", Error, nil},
		{"/resume the Parser", "Sessions in this workspace with \"the Parser\" in their title or id, most recent first:\n" +
			"  s-0002  2026-01-02 04:04:05 UTC  Fix the parser\n" +
			"Resume one with /resume <id>.", Success, ActionOpenResumePicker{Search: "the Parser"}},
		{"/resume", "Sessions in this workspace, most recent first:\n" +
			"  s-0002  2026-01-02 04:04:05 UTC  Fix the parser\n" +
			"  s-0001  2026-01-02 04:03:05 UTC  Untitled session (current)\n" +
			"  s-bad  2026-01-02 03:04:05 UTC  Untitled session (unreadable)\n" +
			"Resume one with /resume <id>.", Success, ActionOpenResumePicker{}},
	}
	for _, tt := range tests {
		res := run(t, builtins(t, Deps{Sessions: sessions}), newSession(), tt.line)
		if res.Kind != tt.kind || res.Text != tt.text || !reflect.DeepEqual(res.Action, tt.action) {
			t.Errorf("%s: want %s %q %#v, got %s %q %#v", tt.line, tt.kind, tt.text, tt.action, res.Kind, res.Text, res.Action)
		}
	}
}

// /rename names the session as Claude Code's does; the name is what
// /resume finds it by.
func TestRenameNamesTheSession(t *testing.T) {
	reg := builtins(t, Deps{})
	s := newSession()
	if res := run(t, reg, &fakeSession{fakeAgent: newFakeAgent("s-0009")}, "/rename"); res.Kind != Error || res.Text != "The session has no name yet. Give one: /rename NAME" {
		t.Errorf("bare /rename: got %+v", res)
	}
	if res := run(t, reg, s, "/rename"); res.Text != `The session is named "Counting lines". Give one: /rename NAME` {
		t.Errorf("bare /rename of a session the model named: got %+v", res)
	}
	res := run(t, reg, s, "/rename  Release   notes ")
	if res.Kind != Success || res.Text != `Session named "Release notes". Resume it later with: tack --resume "Release notes"` {
		t.Errorf("got %+v", res)
	}
	if got := s.Projection().Name(); got != "Release notes" {
		t.Errorf("want the session named, got %q", got)
	}
	if res := run(t, reg, s, "/rename"); res.Text != `The session is named "Release notes". Give one: /rename NAME` {
		t.Errorf("bare /rename once named: got %+v", res)
	}
	if res := run(t, reg, s, "/rename "+strings.Repeat("n", maxNameRunes+1)); res.Kind != Error || !strings.Contains(res.Text, "at most 100") {
		t.Errorf("want a long name refused, got %+v", res)
	}
}

func TestBuiltinsNeedASessionAgent(t *testing.T) {
	reg := builtins(t, Deps{})
	for _, line := range []string{"/status", "/model", "/export", "/copy"} {
		res := run(t, reg, newFakeAgent("bare"), line)
		name, _, _ := Parse(line)
		if want := "/" + name + " needs an agent with a session log."; res.Kind != Error || res.Text != want {
			t.Errorf("%s: want %q, got %+v", line, want, res)
		}
	}
}
