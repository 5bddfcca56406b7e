package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(Path(home), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func TestLoadReadsMCPServersAndSkipsBadOnesWithTheirLine(t *testing.T) {
	home := writeConfig(t, `model = "deepseek-chat"

[mcp_servers.docs]
command = "docs-server"
args = ["--stdio"]
env = { TOKEN = "x" }
tool_timeout_ms = 5000

[mcp_servers.web]
url = "http://127.0.0.1:9/mcp"
headers = { Authorization = "Bearer y" }

[mcp_servers.broken]
command = 3

[mcp_servers.typo]
comand = "oops"
`)
	f, err := Load(home)
	if err != nil {
		t.Fatalf("Load: %v (a bad server table must not stop tack)", err)
	}
	if f.Model != "deepseek-chat" {
		t.Errorf("model = %q", f.Model)
	}
	docs, ok := f.MCPServers["docs"]
	if !ok || docs.Command != "docs-server" || docs.Args[0] != "--stdio" || docs.Env["TOKEN"] != "x" || docs.ToolTimeoutMs != 5000 || docs.Line != 3 {
		t.Errorf("docs = %+v", docs)
	}
	if web := f.MCPServers["web"]; web.URL == "" || web.Headers["Authorization"] != "Bearer y" {
		t.Errorf("web = %+v", web)
	}
	if _, ok := f.MCPServers["broken"]; ok {
		t.Error("broken server kept")
	}
	if _, ok := f.MCPServers["typo"]; ok {
		t.Error("server with an unknown setting kept")
	}
	all := strings.Join(f.Problems, "\n")
	if !strings.Contains(all, "line 14") || !strings.Contains(all, "mcp_servers.broken") {
		t.Errorf("problems do not name the broken table and its line:\n%s", all)
	}
	if !strings.Contains(all, "line 17") || !strings.Contains(all, `"mcp_servers.typo.comand"`) {
		t.Errorf("problems do not name the unknown setting and its line:\n%s", all)
	}
}

func TestLoadReadsHookGroupsInBothShapes(t *testing.T) {
	home := writeConfig(t, `[[hooks.pre_tool_use]]
matcher = "bash"
command = "guard.sh"
timeout = 5

[[hooks.pre_tool_use]]
matcher = "write|edit"
[[hooks.pre_tool_use.hooks]]
type = "command"
command = "lint.sh"

[[hooks.stop]]
command = 7
`)
	f, err := Load(home)
	if err != nil {
		t.Fatal(err)
	}
	pre := f.Hooks["pre_tool_use"]
	if len(pre) != 2 || pre[0].Command != "guard.sh" || pre[0].Timeout != 5 || pre[0].Line != 1 ||
		pre[1].Hooks[0].Command != "lint.sh" || pre[1].Line != 6 {
		t.Errorf("pre_tool_use = %+v", pre)
	}
	if len(f.Hooks["stop"]) != 0 || len(f.Problems) != 1 || !strings.Contains(f.Problems[0], "hooks.stop") {
		t.Errorf("stop = %+v, problems %q", f.Hooks["stop"], f.Problems)
	}
}

func TestUnknownTopLevelSettingStillFails(t *testing.T) {
	home := writeConfig(t, "modle = \"x\"\n")
	if _, err := Load(home); err == nil || !strings.Contains(err.Error(), `did you mean "model"`) {
		t.Errorf("err = %v", err)
	}
}

func TestLoadProjectSettings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.toml")
	if s, err := LoadProjectSettings(p); err != nil || s.Hooks != nil {
		t.Fatalf("missing file: %+v, %v", s, err)
	}
	os.WriteFile(p, []byte("[[hooks.user_prompt_submit]]\ncommand = \"ctx.sh\"\nextra = 1\n"), 0o600)
	s, err := LoadProjectSettings(p)
	if err != nil || len(s.Hooks["user_prompt_submit"]) != 1 || len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "line 3") {
		t.Fatalf("settings %+v, %v", s, err)
	}
	os.WriteFile(p, []byte("[[hooks\n"), 0o600)
	if _, err := LoadProjectSettings(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v", err)
	}
}

// codex's config.toml holds much that is codex's alone; its MCP server
// tables are read as tack's own, each with its line.
func TestCodexConfigGivesItsMCPServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	src := `model = "gpt-5-codex"
approval_policy = "on-request"
sandbox_mode = "workspace-write"

[mcp_servers.docs]
command = "npx"
args = ["-y", "@acme/docs-mcp"]
env = { DOCS_TOKEN = "t" }
startup_timeout_sec = 20

[mcp_servers.odd]
command = "x"
frobnicate = true

[profiles.fast]
model = "gpt-5-mini"
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	servers, problems := LoadCodexServers(path)
	docs, ok := servers["docs"]
	if !ok || docs.Command != "npx" || docs.Line != 5 || docs.StartupTimeoutSec != 20 || len(servers) != 1 {
		t.Errorf("servers = %+v", servers)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "mcp_servers.odd.frobnicate") {
		t.Errorf("problems = %q", problems)
	}
	if s, p := LoadCodexServers(filepath.Join(t.TempDir(), "none.toml")); s != nil || p != nil {
		t.Errorf("a missing file gave %v %v", s, p)
	}
	if err := os.WriteFile(path, []byte("[mcp_servers.x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, p := LoadCodexServers(path); len(p) != 1 || !strings.Contains(p[0], "its MCP servers are skipped") {
		t.Errorf("a broken file gave %q", p)
	}
	for env, want := range map[string]string{"CODEX_HOME=/c": "/c/config.toml", "HOME=/h": "/h/.codex/config.toml", "": ""} {
		k, v, _ := strings.Cut(env, "=")
		if got := CodexConfig(func(key string) string { return map[string]string{k: v}[key] }); got != want {
			t.Errorf("%s: CodexConfig = %q, want %q", env, got, want)
		}
	}
}
