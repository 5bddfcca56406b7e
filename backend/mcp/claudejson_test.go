package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeJSON is a ~/.claude.json in the shape Claude Code writes: its own
// state around the servers `claude mcp add` kept, local ones under the
// project they were added in (and an empty object in every other project).
const claudeJSON = `{
  "numStartups": 42,
  "tipsHistory": {"new-user-warmup": 7},
  "mcpServers": {
    "context7": {"type": "stdio", "command": "npx", "args": ["-y", "@upstash/context7-mcp"], "env": {}},
    "docs": {"type": "http", "url": "https://user.example/mcp"}
  },
  "projects": {
    "/home/u/work": {
      "allowedTools": [],
      "history": [{"display": "fix \"the\" tests {}", "pastedContents": {}}],
      "mcpServers": {
        "docs": {"type": "http", "url": "https://local.example/mcp"},
        "bad": {"type": "carrier-pigeon"}
      }
    },
    "/home/u/work/app/deeper": {"mcpServers": {"other": {"command": "x"}}},
    "/home/u/other": {"mcpServers": {"elsewhere": {"command": "y"}}}
  },
  "userID": "abc"
}`

func TestClaudeUserFileGivesTheUsersAndTheProjectsLocalServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(claudeJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	p := LoadClaudeUser(path, "/home/u/work/app", func(string) string { return "" })
	var got []string
	for _, s := range p.Servers {
		got = append(got, s.Name+" "+s.URL+s.Command+" "+strings.TrimPrefix(s.Origin, path+" "))
		if s.Project {
			t.Errorf("%s waits for a project's approval; it is the user's own", s.Name)
		}
	}
	want := []string{"docs https://local.example/mcp line 13", "context7 npx line 5"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("servers = %q, want %q", got, want)
	}
	if len(p.Problems) != 1 || !strings.Contains(p.Problems[0], "line 14") || !strings.Contains(p.Problems[0], `server "bad"`) {
		t.Errorf("problems = %q, want the bad server named with its line", p.Problems)
	}
	if p := LoadClaudeUser(filepath.Join(t.TempDir(), "none.json"), "/x", nil); len(p.Servers)+len(p.Problems) != 0 {
		t.Errorf("a missing file gave %+v", p)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	if p := LoadClaudeUser(path, "/x", nil); len(p.Problems) != 1 || !strings.Contains(p.Problems[0], "not valid JSON") {
		t.Errorf("a broken file gave %+v", p)
	}
}

// The approvals Claude Code's dialog kept are those of the project's
// entry, or of the nearest directory above it that has one (the entry
// of a repository's root, for a session in one of its folders).
func TestClaudeApprovalsAreTheNearestProjectEntrys(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	src := `{"projects": {
	  "/home/u/work/app/deeper": {"enableAllProjectMcpServers": true},
	  "/home/u/work": {"enabledMcpjsonServers": ["db"], "disabledMcpjsonServers": ["web"], "history": [{"display": "x"}]},
	  "/home/u/other": {"enabledMcpjsonServers": ["elsewhere"]}}}`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := LoadClaudeApprovals(path, "/home/u/work/app")
	if err != nil || a.All || strings.Join(a.Enabled, ",") != "db" || strings.Join(a.Disabled, ",") != "web" {
		t.Errorf("for /home/u/work/app: %+v, %v; want /home/u/work's", a, err)
	}
	if a, err := LoadClaudeApprovals(path, "/home/u/work/app/deeper/x"); err != nil || !a.All || len(a.Enabled) != 0 {
		t.Errorf("for a folder of deeper: %+v, %v; want deeper's own entry only", a, err)
	}
	if a, err := LoadClaudeApprovals(path, "/home/u/workshop"); err != nil || a.All || len(a.Enabled)+len(a.Disabled) != 0 {
		t.Errorf("for /home/u/workshop, which no entry covers: %+v, %v", a, err)
	}
	if err := os.WriteFile(path, []byte(`{"projects": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadClaudeApprovals(path, "/home/u/work"); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("a broken file gave %v", err)
	}
}

// BenchmarkClaudeUserFile reads a 20 MB ~/.claude.json, the size long
// Claude Code use leaves it at, for a session's start.
func BenchmarkClaudeUserFile(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"projects": {`)
	for i := 0; sb.Len() < 20<<20; i++ {
		fmt.Fprintf(&sb, `"/home/u/p%d": {"history": [`, i)
		for j := 0; j < 50; j++ {
			fmt.Fprintf(&sb, `{"display": "a prompt with \"quotes\" and text %d", "pastedContents": {}},`, j)
		}
		sb.WriteString(`{}], "mcpServers": {}},`)
	}
	sb.WriteString(`"/home/u/work": {"mcpServers": {"docs": {"url": "https://x.example/mcp"}}}}, "mcpServers": {}}`)
	path := filepath.Join(b.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	for b.Loop() {
		if p := LoadClaudeUser(path, "/home/u/work", nil); len(p.Servers) != 1 {
			b.Fatalf("servers: %+v", p)
		}
	}
}
