package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestOAuthObjectOfAServerEntryIsRead(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ProjectFile), []byte(`{"mcpServers": {"slack": {"type": "http", "url": "https://mcp.slack.example/mcp",
  "oauth": {"clientId": "1601185624273.8899143856786", "callbackPort": 3118,
            "authServerMetadataUrl": "https://auth.slack.example/.well-known/openid-configuration",
            "scopes": "channels:read  chat:write"}}}}`), 0o600)
	p := LoadProject(dir, func(string) string { return "" })
	if len(p.Servers) != 1 || p.Problems != nil {
		t.Fatalf("got %+v", p)
	}
	want := OAuth{ClientID: "1601185624273.8899143856786", CallbackPort: 3118,
		MetadataURL: "https://auth.slack.example/.well-known/openid-configuration", Scopes: []string{"channels:read", "chat:write"}}
	if got := p.Servers[0].OAuth; got.ClientID != want.ClientID || got.CallbackPort != want.CallbackPort ||
		got.MetadataURL != want.MetadataURL || !slices.Equal(got.Scopes, want.Scopes) {
		t.Errorf("oauth read as %+v, want %+v", got, want)
	}
}

// A bad value leaves the server out with a problem naming the file, the
// line and the server, and saying what the value should be.
func TestBadOAuthValuesSayWhereAndWhat(t *testing.T) {
	for oauth, want := range map[string]string{
		`{"callbackPort": 0}`:      "oauth.callbackPort should be a port number from 1 to 65535, not 0",
		`{"callbackPort": -8080}`:  "not -8080",
		`{"callbackPort": 80.5}`:   "not 80.5",
		`{"callbackPort": "8080"}`: `not "8080"`,
		`{"callbackPort": 70000}`:  "not 70000",
		`{"authServerMetadataUrl": "http://auth.example/.well-known/oauth-authorization-server"}`: `"http://auth.example/.well-known/oauth-authorization-server" is not an https:// address`,
		`{"scopes": "  "}`:     "oauth.scopes is empty",
		`{"scopes": ["read"]}`: "oauth.scopes should be a string, not a JSON array",
		`{"clientId": ""}`:     "oauth.clientId is empty",
	} {
		src := "{\"mcpServers\": {\n  \"ok\": {\"url\": \"https://ok.example/mcp\"},\n  \"docs\": {\"url\": \"https://docs.example/mcp\", \"oauth\": " + oauth + "}\n}}"
		path := filepath.Join(t.TempDir(), "servers.json")
		os.WriteFile(path, []byte(src), 0o600)
		p := LoadFlag(path, func(string) string { return "" })
		if len(p.Servers) != 1 || p.Servers[0].Name != "ok" || len(p.Problems) != 1 {
			t.Errorf("oauth %s: want the server left out with one problem, got %+v", oauth, p)
			continue
		}
		if got := p.Problems[0]; !strings.HasPrefix(got, path+` line 3: server "docs": `) || !strings.Contains(got, want) {
			t.Errorf("oauth %s: problem %q, want it to name %s line 3, server \"docs\" and say %q", oauth, got, path, want)
		}
	}
}

// `claude mcp add --client-id` keeps the oauth object in ~/.claude.json.
func TestClaudeUserFileReadsOAuth(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	os.WriteFile(path, []byte(`{"mcpServers": {"gh": {"type": "http", "url": "https://gh.example/mcp",
	  "oauth": {"clientId": "Iv1.abc", "callbackPort": 8080}}}}`), 0o600)
	p := LoadClaudeUser(path, "/home/u", func(string) string { return "" })
	if len(p.Servers) != 1 || p.Servers[0].OAuth.ClientID != "Iv1.abc" || p.Servers[0].OAuth.CallbackPort != 8080 {
		t.Fatalf("got %+v", p)
	}
	os.WriteFile(path, []byte(`{"mcpServers": {"gh": {"type": "http", "url": "https://gh.example/mcp", "oauth": {"callbackPort": true}}}}`), 0o600)
	if p := LoadClaudeUser(path, "/home/u", func(string) string { return "" }); len(p.Problems) != 1 ||
		!strings.Contains(p.Problems[0], path+` line 1: server "gh": oauth.callbackPort should be a port number`) {
		t.Fatalf("a bad callbackPort in ~/.claude.json: got %+v", p)
	}
}
