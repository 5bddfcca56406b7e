package complete

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func workspace() *Files {
	return NewFiles([]string{"cmd/", "docs/", "overlays/", "views/", "go.mod", "README.md",
		"cmd/tack/", "cmd/tack/main.go", "docs/my notes.md", "overlays/complete/", "overlays/complete/menu.go",
		"overlays/complete/files.go", "views/theme/theme.go", ".github/workflows/ci.yml"})
}

func newMenu() *Menu {
	m := NewMenu(th)
	m.SetCommands(builtins(), map[string]int{"status": 3})
	m.SetFiles(workspace())
	return m
}

// editor applies accepted edits like the app does.
type editor struct {
	draft  string
	cursor int
}

func (e *editor) apply(ed Edit) {
	e.draft = e.draft[:ed.Start] + ed.Text + e.draft[ed.End:]
	e.cursor = ed.Start + len(ed.Text)
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name, draft string
		keys        []string
	}{
		{"commands", "/", []string{"down"}},
		{"commands_filtered", "/co", nil},
		{"files", "read @", nil},
		{"files_query", "read @comp", []string{"down"}},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			m := newMenu()
			m.Refresh(tt.draft, len(tt.draft))
			for _, k := range tt.keys {
				m.Update(keys.Key(k))
			}
			golden.View(t, fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1]), m.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestAcceptingAFolderKeepsTheMenuOpen(t *testing.T) {
	m := newMenu()
	e := &editor{draft: "look at @overl", cursor: 14}
	m.Refresh(e.draft, e.cursor)
	out := m.Update(keys.Key("tab"))
	if !out.Accepted {
		t.Fatalf("want Tab to accept, got %+v", out)
	}
	e.apply(out.Edit)
	if e.draft != "look at @overlays/" {
		t.Fatalf("want the folder inserted without a space, got %q", e.draft)
	}
	m.Refresh(e.draft, e.cursor)
	if !m.Open() {
		t.Fatal("want the menu open inside the folder")
	}
	m.Update(keys.Key("down"))
	out = m.Update(keys.Key("enter"))
	e.apply(out.Edit)
	if e.draft != "look at @overlays/complete/menu.go " {
		t.Errorf("want the file inserted with a space, got %q", e.draft)
	}
	m.Refresh(e.draft, e.cursor)
	if m.Open() {
		t.Error("want the menu closed after a file")
	}
}

func TestAcceptingAPathWithSpacesQuotesIt(t *testing.T) {
	m := newMenu()
	e := &editor{draft: "@notes", cursor: 6}
	m.Refresh(e.draft, e.cursor)
	e.apply(m.Update(keys.Key("enter")).Edit)
	if e.draft != `@"docs/my notes.md" ` {
		t.Errorf("want a quoted path, got %q", e.draft)
	}
}

func TestAcceptingACommand(t *testing.T) {
	m := newMenu()
	e := &editor{draft: "/mo", cursor: 3}
	m.Refresh(e.draft, e.cursor)
	out := m.Update(keys.Key("tab"))
	e.apply(out.Edit)
	if e.draft != "/model " || out.Command != "model" {
		t.Errorf("want Tab to accept /model, got %q %+v", e.draft, out)
	}
}

func TestEnterRunsTheTypedCommandUnlessARowWasChosen(t *testing.T) {
	m := newMenu()
	m.Refresh("/Help", 5)
	if out := m.Update(keys.Key("enter")); out.Handled || out.Accepted {
		t.Fatalf("want Enter on a typed /Help left to the editor (it runs what was typed), got %+v", out)
	}
	m.Refresh("/stat", 5)
	if out := m.Update(keys.Key("enter")); out.Handled {
		t.Fatalf("want Enter on /stat not corrected to /status, got %+v", out)
	}
	m.Refresh("/m", 2)
	m.Update(keys.Key("down"))
	m.Update(keys.Key("up"))
	if out := m.Update(keys.Key("enter")); !out.Accepted || out.Command == "" {
		t.Fatalf("want Enter to accept the row chosen with the arrows, got %+v", out)
	}
	m.Refresh("/mo", 3)
	if out := m.Update(keys.Key("enter")); out.Handled {
		t.Fatalf("want a changed query to forget the choice, got %+v", out)
	}
}

func TestEscClosesUntilTheTriggerChanges(t *testing.T) {
	m := newMenu()
	m.Refresh("@do", 3)
	if out := m.Update(keys.Key("esc")); !out.Handled || m.Open() {
		t.Fatalf("want Esc handled and the menu closed, got %+v open=%v", out, m.Open())
	}
	m.Refresh("@doc", 4)
	if m.Open() {
		t.Error("want the menu to stay closed while typing the same token")
	}
	m.Refresh("@doc @", 6)
	if !m.Open() {
		t.Error("want a new token to open the menu")
	}
}

func TestUnhandledKeysGoToTheEditor(t *testing.T) {
	m := newMenu()
	m.Refresh("@do", 3)
	if out := m.Update(keys.Key("x")); out.Handled {
		t.Errorf("want typing left to the editor, got %+v", out)
	}
}

func TestFileMenuWaitsForTheIndex(t *testing.T) {
	m := NewMenu(th)
	m.Refresh("@x", 2)
	if v := ansi.Strip(m.View(50, 14)); v != Indexing {
		t.Errorf("want %q before the index, got %q", Indexing, v)
	}
	if out := m.Update(keys.Key("enter")); out.Accepted {
		t.Errorf("want nothing to accept before the index, got %+v", out)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	for _, draft := range []string{"/", "@", strings.Repeat("x", 3) + " @o"} {
		m := newMenu()
		m.Refresh(draft, len(draft))
		for _, size := range overlaytest.Sizes() {
			golden.Fits(t, m.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestFileTokenBeganOncePerAtToken(t *testing.T) {
	m := newMenu()
	for _, c := range []struct {
		draft string
		want  bool
	}{
		{"see @", true}, {"see @ma", false}, {"see @main.go ", false},
		{"see @main.go @", true}, {"see @main.go @zz", false}, {"/", false}, {"@", true},
	} {
		m.Refresh(c.draft, len(c.draft))
		if got := m.FileTokenBegan(); got != c.want {
			t.Errorf("after %q: want FileTokenBegan %v, got %v", c.draft, c.want, got)
		}
	}
}
