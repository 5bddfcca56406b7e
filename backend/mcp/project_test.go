package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// --mcp-config takes a file in .mcp.json's shape or that JSON itself; its
// servers are the user's, so none waits for a project approval, and what
// cannot be read says where and what to do.
func TestLoadFlagReadsAFileOrTheJSONItself(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"TOKEN": "secret"}[k] }
	inline := LoadFlag(`{"mcpServers": {"docs": {"type": "http", "url": "https://docs.example/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`, getenv)
	if len(inline.Servers) != 1 || inline.Problems != nil {
		t.Fatalf("inline JSON: got %+v", inline)
	}
	if s := inline.Servers[0]; s.Name != "docs" || s.Project || s.Headers["Authorization"] != "Bearer secret" || s.Origin != "--mcp-config line 1" {
		t.Errorf("inline JSON: got %+v", s)
	}
	path := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(path, []byte("{\n  \"mcpServers\": {\n    \"run\": {\"command\": \"srv\", \"args\": [\"-v\"]}\n  }\n}\n"), 0o600)
	file := LoadFlag(path, getenv)
	if len(file.Servers) != 1 || file.Servers[0].Command != "srv" || file.Servers[0].Project || file.Servers[0].Origin != path+" line 3" {
		t.Errorf("file: got %+v", file)
	}
	for value, want := range map[string]string{
		filepath.Join(t.TempDir(), "missing.json"): "no such file or directory; its MCP servers are skipped",
		`{"mcpServers": [}`:                        "--mcp-config line 1",
	} {
		if got := LoadFlag(value, getenv); len(got.Servers) != 0 || len(got.Problems) != 1 || !strings.Contains(got.Problems[0], want) {
			t.Errorf("%s: want a problem saying %q, got %+v", value, want, got)
		}
	}
}

// Server names are what the file's authors chose: davila7/claude-code-
// templates' mcps give "DeepGraph Next.js MCP" and
// "@microsoft/clarity-mcp-server", which Claude Code starts, calling
// their tools mcp__DeepGraph_Next_js_MCP__…. Only an empty name, one over
// 64 bytes or one with a control character is a problem.
func TestProjectServerNamesNeedNotBeIdentifiers(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ProjectFile), []byte(`{"mcpServers": {
  "DeepGraph Next.js MCP": {"command": "npx", "args": ["-y", "mcp-code-graph@latest", "vercel/next.js"]},
  "@microsoft/clarity-mcp-server": {"command": "npx", "args": ["-y", "@microsoft/clarity-mcp-server"]},
  "bell\u0007": {"command": "x"},
  " ": {"command": "x"}
}}`), 0o600)
	p := LoadProject(dir, func(string) string { return "" })
	var names []string
	for _, s := range p.Servers {
		names = append(names, s.Name)
	}
	if strings.Join(names, "|") != "@microsoft/clarity-mcp-server|DeepGraph Next.js MCP" {
		t.Errorf("servers = %q, want both named servers", names)
	}
	if len(p.Problems) != 2 || !strings.Contains(p.Problems[0], "control character") {
		t.Errorf("problems = %q, want the empty name and the bell refused", p.Problems)
	}
}

// claudeCodeVariables is a stdio server of .mcp.json with ${VAR}
// references in its arguments and env, the environment Claude Code
// 2.1.332 read it under, and what it started the server with
// (testdata/claudecode/record.py mcpvars).
const claudeCodeVariables = "../../testdata/claudecode/cc-2.1.332.mcp-variables.json"

// TestProjectVariablesExpandAsClaudeCodeExpandsThem loads the recorded
// server under the recorded environment and wants the arguments and env
// Claude Code started it with, and a problem naming each variable it
// lacks. Named differences: a reference to a variable that is not set and
// has no default becomes empty, where Claude Code leaves it as written;
// and tack cannot tell a variable set to nothing from one not set, so a
// default takes the place of either (a shell's ${VAR:-default}), where
// Claude Code keeps the empty value.
func TestProjectVariablesExpandAsClaudeCodeExpandsThem(t *testing.T) {
	var rec struct {
		Environment map[string]string `json:"environment"`
		Args        []string          `json:"args"`
		Env         map[string]string `json:"env"`
		StartedWith struct {
			Args []string          `json:"args"`
			Env  map[string]string `json:"env"`
		} `json:"started_with"`
	}
	testkit.ReadJSON(t, claudeCodeVariables, &rec)
	dir := t.TempDir()
	file, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"probe": map[string]any{
		"command": "probe", "args": rec.Args, "env": rec.Env}}})
	if err := os.WriteFile(filepath.Join(dir, ProjectFile), file, 0o600); err != nil {
		t.Fatal(err)
	}
	p := LoadProject(dir, func(k string) string { return rec.Environment[k] })
	if len(p.Servers) != 1 {
		t.Fatalf("want the server, got %+v", p)
	}
	s := p.Servers[0]
	differs := map[string]string{"${UNSET}": "", "${EMPTY:-fallback}": "fallback", "CASE_UNSET": ""}
	for i, ref := range rec.Args {
		want, ok := differs[ref]
		if !ok {
			want = rec.StartedWith.Args[i]
		}
		if s.Args[i] != want {
			t.Errorf("%s: got %q, want %q (Claude Code started the server with %q)", ref, s.Args[i], want, rec.StartedWith.Args[i])
		}
	}
	for name, ref := range rec.Env {
		want, ok := differs[name]
		if !ok {
			want = rec.StartedWith.Env[name]
		}
		if s.Env[name] != want {
			t.Errorf("env %s=%s: got %q, want %q (Claude Code's %q)", name, ref, s.Env[name], want, rec.StartedWith.Env[name])
		}
	}
	want := `server "probe": missing environment variables: EMPTY, UNSET; set them, or give each a default as ${NAME:-value}`
	if len(p.Problems) != 1 || !strings.HasSuffix(p.Problems[0], want) {
		t.Errorf("problems = %q, want one ending %q", p.Problems, want)
	}
}
