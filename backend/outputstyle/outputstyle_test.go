package outputstyle

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// A style is found by the name its front matter gives, else its file's,
// in any case; the project's files come before the user's, and a
// built-in style after both.
func TestFindTakesTheFirstStyleOfThatName(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, project, map[string]string{
		"teacher.md": "---\nname: Teacher\ndescription: Explains\nkeep-coding-instructions: true\n---\nExplain each step.\n",
		"terse.md":   "Answer in one line.\n",
	})
	testkit.WriteTree(t, user, map[string]string{
		"teacher.md":     "---\nname: Teacher\n---\nThe user's teacher.\n",
		"explanatory.md": "My own explanatory style.\n",
	})
	dirs := []string{project, user}
	for name, want := range map[string]Style{
		"teacher":     {Name: "Teacher", Description: "Explains", Text: "Explain each step.", KeepCoding: true, Path: filepath.Join(project, "teacher.md")},
		"Terse":       {Name: "terse", Text: "Answer in one line.", Path: filepath.Join(project, "terse.md")},
		"Explanatory": {Name: "explanatory", Text: "My own explanatory style.", Path: filepath.Join(user, "explanatory.md")},
	} {
		got, ok, problem := Find(dirs, name)
		if !ok || problem != "" || got != want {
			t.Errorf("%s: got %+v (%v, %q), want %+v", name, got, ok, problem, want)
		}
	}
	if got, ok, _ := Find(dirs, "learning"); !ok || got.Path != "" || !got.KeepCoding || !strings.Contains(got.Text, "TODO(human)") {
		t.Errorf("want the built-in Learning style, got %+v", got)
	}
	for _, name := range []string{"", "default", "Default"} {
		if _, ok, problem := Find(dirs, name); ok || problem != "" {
			t.Errorf("%q: want no style and no problem, got %v %q", name, ok, problem)
		}
	}
	_, ok, problem := Find(dirs, "pirate")
	if ok || !strings.Contains(problem, `output style "pirate" is neither a built-in style (Proactive, Explanatory, Learning, Concise)`) ||
		!strings.Contains(problem, project) {
		t.Errorf("want a problem naming the built-in styles and the folders, got %v %q", ok, problem)
	}
}

// A style file whose front matter cannot be read is skipped, and said so
// when no style of the name is found.
func TestFindSaysWhichStyleFileItSkipped(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"broken.md": "---\nname: broken\nkeep-coding-instructions: [yes, no]\n---\nText\n"})
	_, ok, problem := Find([]string{dir}, "broken")
	if ok || !strings.Contains(problem, filepath.Join(dir, "broken.md")+" line 3") || !strings.Contains(problem, "the style is skipped") {
		t.Errorf("got %v %q", ok, problem)
	}
}
