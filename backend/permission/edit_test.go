package permission

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/tools"
)

// targetTool is an edit tool that names its file, as write and edit do.
type targetTool struct{ fakeTool }

func (targetTool) Targets(call tools.Call) []string {
	var a struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(call.Args, &a)
	if !filepath.IsAbs(a.FilePath) {
		a.FilePath = filepath.Join(call.Env.Cwd, a.FilePath)
	}
	return []string{a.FilePath}
}

var targetWrite = targetTool{writeTool}

// editWorld is a workspace, a $TACK_HOME and a $HOME, each in its own
// temporary directory.
type editWorld struct{ ws, tackHome, home, outside string }

func newEditWorld(t *testing.T) editWorld {
	t.Helper()
	w := editWorld{ws: t.TempDir(), tackHome: t.TempDir(), home: t.TempDir(), outside: t.TempDir()}
	if err := os.Symlink(w.outside, filepath.Join(w.ws, "link")); err != nil {
		t.Fatal(err)
	}
	return w
}

// policy is a policy in mode for w's homes whose approvals an answerer
// answers with decisions, in turn.
func (w editWorld) policy(t *testing.T, mode Mode, decisions ...interact.Decision) (*Policy, *answerer) {
	t.Helper()
	p, a := answeredPolicy(t, mode, decisions...)
	p.SetHomes(w.tackHome, w.home)
	return p, a
}

func (w editWorld) call(path string) tools.Call {
	b, _ := json.Marshal(map[string]string{"file_path": path})
	return tools.Call{ID: "c", Args: b, Env: &tools.Env{Cwd: w.ws}}
}

func TestEditsByPlace(t *testing.T) {
	w := newEditWorld(t)
	const runs, asks, refuses = "runs", "asks", "refuses"
	cases := []struct {
		path string
		want map[Mode]string
	}{
		{"main.go", map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: runs, FullAccess: runs}},
		{"../x.go", map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: runs}},
		{filepath.Join(w.outside, "abs.go"), map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: runs}},
		{"link/through-symlink.go", map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: runs}},
		{".git/hooks/pre-commit", map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: asks}},
		{".git/config", map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: asks}},
		{filepath.Join(w.tackHome, "credentials"), map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: asks}},
		{filepath.Join(w.home, ".bashrc"), map[Mode]string{ReadOnly: refuses, Ask: asks, Auto: asks, FullAccess: asks}},
	}
	for _, c := range cases {
		for mode, want := range c.want {
			p, a := w.policy(t, mode, interact.Decision{Verdict: interact.Allow})
			_, err := p.Authorize(context.Background(), targetWrite, w.call(c.path))
			got := runs
			switch {
			case err != nil:
				got = refuses
			case a.count() == 1:
				got = asks
			}
			if got != want {
				t.Errorf("%s mode, write %s: want it %s, got %s (%v)", mode, c.path, want, got, err)
			}
		}
	}
}

// A directory added with --add-dir counts as the workspace: its edits run
// where the workspace's do, through a symlink too; its git internals stay
// protected.
func TestEditsInAnAddedDirectoryCountAsTheWorkspaces(t *testing.T) {
	w := newEditWorld(t)
	for path, want := range map[string]bool{
		filepath.Join(w.outside, "abs.go"):      true,
		"link/through-symlink.go":               true,
		filepath.Join(w.outside, ".git/config"): false,
		filepath.Join(w.home, "elsewhere.go"):   false,
	} {
		p, a := w.policy(t, Auto, interact.Decision{Verdict: interact.Allow})
		p.SetDirs([]string{w.outside})
		if _, err := p.Authorize(context.Background(), targetWrite, w.call(path)); err != nil || (a.count() == 0) != want {
			t.Errorf("write %s: want it run unasked %v, got asked %d times (%v)", path, want, a.count(), err)
		}
	}
}

// A directory added mid-session (/add-dir) counts from the next call on,
// beside those the session started with.
func TestADirectoryAddedLaterCountsFromTheNextCall(t *testing.T) {
	w := newEditWorld(t)
	p, a := w.policy(t, Auto, interact.Decision{Verdict: interact.Allow}, interact.Decision{Verdict: interact.Allow})
	p.SetDirs([]string{w.home})
	file := w.call(filepath.Join(w.outside, "abs.go"))
	if _, err := p.Authorize(context.Background(), targetWrite, file); err != nil || a.count() != 1 {
		t.Fatalf("before AddDir: want the edit asked about once, got %d asks (%v)", a.count(), err)
	}
	p.AddDir(w.outside)
	if _, err := p.Authorize(context.Background(), targetWrite, file); err != nil || a.count() != 1 {
		t.Fatalf("after AddDir: want the edit to run unasked, got %d asks (%v)", a.count(), err)
	}
	if got := p.Dirs(); !slices.Equal(got, []string{w.home, w.outside}) {
		t.Fatalf("want the directories in the order added, got %v", got)
	}
}

func TestProtectedEditsAskEveryTimeAndSayWhy(t *testing.T) {
	w := newEditWorld(t)
	p, a := w.policy(t, FullAccess, interact.Decision{Verdict: interact.Allow}, interact.Decision{Verdict: interact.Allow})
	for range 2 {
		if _, err := p.Authorize(context.Background(), targetWrite, w.call(".git/config")); err != nil {
			t.Fatal(err)
		}
		got := <-a.asked
		if got.Remember != "" || !strings.Contains(got.Why, "git") {
			t.Fatalf("want no session choice and the reason named, got %+v", got)
		}
	}
}

func TestOutsideEditsAreRememberedPerDirectory(t *testing.T) {
	w := newEditWorld(t)
	p, a := w.policy(t, Auto, interact.Decision{Verdict: interact.AllowSession}, interact.Decision{Verdict: interact.Deny})
	if _, err := p.Authorize(context.Background(), targetWrite, w.call(filepath.Join(w.outside, "a.go"))); err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; got.Remember != "edits in "+w.outside {
		t.Fatalf("want the directory remembered, got %q", got.Remember)
	}
	if _, err := p.Authorize(context.Background(), targetWrite, w.call(filepath.Join(w.outside, "b.go"))); err != nil {
		t.Fatalf("want another file there allowed, got %v", err)
	}
	if _, err := p.Authorize(context.Background(), targetWrite, w.call(filepath.Join(w.tackHome, "x"))); err == nil {
		t.Fatal("want another directory asked again (and denied)")
	}
}

// previewingTool is an edit whose preview numbers its diff, as fs's does.
type previewingTool struct{ fakeTool }

func (previewingTool) Preview(tools.Call) (card.Card, bool) {
	return card.Card{Kind: card.Diff, Title: "Edit a.go", Diffs: []card.FileDiff{{Path: "a.go",
		Lines: []card.DiffLine{{Op: card.OpDelete, Text: "old", Old: 7}, {Op: card.OpAdd, Text: "new", New: 7}}}}}, true
}

func TestEditApprovalShowsTheToolsPreview(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.Allow})
	if _, err := p.Authorize(context.Background(), previewingTool{editTool}, call(&log{}, `{"file_path":"a.go"}`)); err != nil {
		t.Fatal(err)
	}
	got := <-a.asked
	if got.Card == nil || len(got.Card.Diffs) != 1 || got.Card.Diffs[0].Lines[0].Old != 7 {
		t.Fatalf("want the approval to show the numbered preview, got %+v", got.Card)
	}
}
