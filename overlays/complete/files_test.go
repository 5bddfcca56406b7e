package complete

import (
	"fmt"
	"strings"
	"testing"
)

func paths(ms []FileMatch) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Path)
	}
	return strings.Join(out, " ")
}

func TestRankOrdersByTier(t *testing.T) {
	f := NewFiles([]string{
		"src/", "src/main.go", "src/domain/", "cmd/main/", "cmd/main/main.go", "lib/mainline.go",
		"pkg/remain.go", "main/", "docs/m_a_i_n.txt", "x/y/maintenance/", ".github/", ".github/main.yml", "README.md",
	})
	tests := []struct{ query, want string }{
		{"main", "main/ cmd/main/ x/y/maintenance/ src/main.go lib/mainline.go cmd/main/main.go src/domain/ pkg/remain.go docs/m_a_i_n.txt"},
		{"MAIN.go", "src/main.go cmd/main/main.go pkg/remain.go lib/mainline.go"},
		{"rdme", "README.md"},
		{".gith", ".github/ .github/main.yml"},
		{"zzz", ""},
	}
	for _, tt := range tests {
		if got := paths(f.Rank(tt.query, MaxFileResults)); got != tt.want {
			t.Errorf("Rank(%q): want %q, got %q", tt.query, tt.want, got)
		}
	}
}

func TestRankHidesDotPathsUnlessTheQueryHasADot(t *testing.T) {
	f := NewFiles([]string{".env", "env.go", "config/.env.local", "config/"})
	if got := paths(f.Rank("env", 20)); got != "env.go" {
		t.Errorf("want only env.go for env, got %q", got)
	}
	if got := paths(f.Rank(".env", 20)); got != ".env config/.env.local" {
		t.Errorf("want dot paths for .env, got %q", got)
	}
	if got := paths(f.Rank("", 20)); got != "config/ env.go" {
		t.Errorf("want folders first and no dot paths for an empty query, got %q", got)
	}
}

func TestRankLimitsResults(t *testing.T) {
	var ps []string
	for i := range 50 {
		ps = append(ps, fmt.Sprintf("file%02d.go", i))
	}
	got := NewFiles(ps).Rank("file", MaxFileResults)
	if len(got) != MaxFileResults || got[0].Path != "file00.go" || got[19].Path != "file19.go" {
		t.Errorf("want the 20 shortest-then-alphabetical matches, got %q", paths(got))
	}
}
