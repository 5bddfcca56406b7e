package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrustIsRememberedPerProjectFileAndContent(t *testing.T) {
	home := t.TempDir()
	s := Open(home)
	d := Digest([]byte(`{"mcpServers":{}}`))
	if s.Trusted("/p", ".mcp.json", d) {
		t.Fatal("trusted before approval")
	}
	if err := s.Trust("/p", ".mcp.json", d); err != nil {
		t.Fatal(err)
	}
	again := Open(home)
	if !again.Trusted("/p", ".mcp.json", d) {
		t.Error("approval not remembered by a new store")
	}
	if again.Trusted("/q", ".mcp.json", d) || again.Trusted("/p", ".tack/settings.toml", d) {
		t.Error("approval leaked to another project or file")
	}
	if again.Trusted("/p", ".mcp.json", Digest([]byte(`{"mcpServers":{"x":{}}}`))) {
		t.Error("a changed file is still trusted")
	}
}

func TestDamagedApprovalsFileIsNotOverwritten(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, "trusted-projects.json")
	os.WriteFile(p, []byte("{not json"), 0o600)
	err := Open(home).Trust("/p", "f", "d")
	if err == nil || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{not json" {
		t.Error("damaged file overwritten")
	}
}
