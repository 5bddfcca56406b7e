package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
