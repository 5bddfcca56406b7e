package commands

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// mcpServers is one remote server, "docs", to sign in to.
type mcpServers struct {
	opened      bool
	revokes     bool // the authorization server revokes the tokens at logout
	loggedOut   []string
	authAddress string
}

func (f *mcpServers) StatusText() string        { return "MCP servers (1)" }
func (f *mcpServers) Restart(name string) error { return nil }

func (f *mcpServers) Login(_ context.Context, name string) (string, bool, error) {
	if name != "docs" && name != "My Docs" {
		return "", false, errors.New(`no MCP server "` + name + `"; /mcp lists them`)
	}
	return f.authAddress, f.opened, nil
}

func (f *mcpServers) Logout(name string) (bool, error) {
	f.loggedOut = append(f.loggedOut, name)
	return f.revokes, nil
}

func runMCP(t *testing.T, servers MCPServers, line string) Result {
	t.Helper()
	reg := New(Options{NewID: sequentialIDs()})
	if err := reg.Register(MCPCommand(servers)); err != nil {
		t.Fatal(err)
	}
	exec, ok := reg.Execute(context.Background(), newFakeAgent("s-mcp"), line, nil)
	if !ok {
		t.Fatalf("%s: want /mcp to be found", line)
	}
	return exec.Result
}

func TestMCPLoginShowsTheAddressToSignInAt(t *testing.T) {
	const addr = "https://auth.example.com/authorize?client_id=c"
	for _, opened := range []bool{true, false} {
		res := runMCP(t, &mcpServers{authAddress: addr, opened: opened}, "/mcp login docs")
		if res.Kind != Success || !strings.Contains(res.Text, ":\n"+addr+"\n") || !strings.Contains(res.Text, "/mcp login docs starts over") {
			t.Fatalf("/mcp login docs (browser opened: %v) = %s %q, want the address alone on its line, unindented, and how to start over", opened, res.Kind, res.Text)
		}
		if said := strings.Contains(res.Text, "If it did not open"); said != opened {
			t.Errorf("browser opened: %v, but the text says %q", opened, res.Text)
		}
	}
	if res := runMCP(t, &mcpServers{authAddress: addr}, "/mcp login My Docs"); res.Kind != Success || !strings.Contains(res.Text, "/mcp login My Docs starts over") {
		t.Errorf("/mcp login of a server named with a space = %s %q, want the name taken whole", res.Kind, res.Text)
	}
	if res := runMCP(t, &mcpServers{}, "/mcp login nope"); res.Kind != Error || !strings.Contains(res.Text, "/mcp lists them") {
		t.Fatalf("/mcp login of an unknown server = %s %q, want the failure saying what to do", res.Kind, res.Text)
	}
}

func TestMCPLogoutForgetsTheSignIn(t *testing.T) {
	f := &mcpServers{}
	if res := runMCP(t, f, "/mcp logout docs"); res.Kind != Success || len(f.loggedOut) != 1 || !strings.Contains(res.Text, "/mcp login docs") {
		t.Fatalf("/mcp logout docs = %s %q, logged out %q; want docs signed out and how to sign in again", res.Kind, res.Text, f.loggedOut)
	}
	if said := strings.Contains(runMCP(t, f, "/mcp logout docs").Text, "revoked"); said {
		t.Errorf("/mcp logout docs says the tokens were revoked where the server did not revoke them")
	}
	if res := runMCP(t, &mcpServers{revokes: true}, "/mcp logout docs"); !strings.Contains(res.Text, "its authorization server revoked tack's tokens and tack forgot them") {
		t.Errorf("/mcp logout docs = %q, want it to say the server revoked the tokens", res.Text)
	}
	if res := runMCP(t, f, "/mcp logout"); res.Kind != Error || !strings.Contains(res.Text, "/mcp login NAME") {
		t.Fatalf("/mcp logout without a name = %s %q, want the usage", res.Kind, res.Text)
	}
}
