package plugin

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// A manifest may name more command, agent and skill paths (one or a
// list), and give its hooks and MCP servers inline; a folder without one
// is a plugin named after the folder.
func TestManifestPathsAndInlineParts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kit")
	testkit.WriteTree(t, dir, map[string]string{
		ManifestFile: `{"name": "kit", "commands": ["./extra/cmds", "./one.md"], "agents": "./team",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/check"}]}]},
  "mcpServers": {"db": {"command": "${CLAUDE_PLUGIN_ROOT}/db"}}}`,
		"commands/a.md": "A.", "extra/cmds/b.md": "B.", "one.md": "One.", "team/x.md": "X.",
	})
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(paths []string) string {
		var out []string
		for _, p := range paths {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return strings.Join(out, " ")
	}
	if got := rel(p.Commands); got != "commands extra/cmds one.md" {
		t.Errorf("commands from %q", got)
	}
	if got := rel(p.Agents); got != "team" {
		t.Errorf("agents from %q", got)
	}
	if got := p.Hooks["Stop"][0].Hooks[0].Command; got != dir+"/bin/check" {
		t.Errorf("the hook runs %q", got)
	}
	if !strings.HasPrefix(p.MCP, `{"mcpServers":`) || !strings.Contains(p.MCP, "${CLAUDE_PLUGIN_ROOT}/db") {
		t.Errorf("MCP = %q", p.MCP)
	}
	bare := filepath.Join(t.TempDir(), "bare")
	testkit.WriteTree(t, bare, map[string]string{"skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n"})
	if p, err := Load(bare); err != nil || p.Name != "bare" || len(p.Skills) != 1 || p.Skills[0] != filepath.Join(bare, "skills") {
		t.Errorf("a plugin without a manifest: %+v %v", p, err)
	}
	broken := filepath.Join(t.TempDir(), "broken")
	testkit.WriteTree(t, broken, map[string]string{ManifestFile: "{\n  \"name\": 3\n}"})
	if _, err := Load(broken); err == nil || !strings.Contains(err.Error(), "plugin.json line 2") {
		t.Errorf("want a bad manifest named with its line, got %v", err)
	}
}

// installed_plugins.json in either version: version 2 keeps a list of
// installs per plugin, version 1 one; a plugin installed for another
// project is not this one's, and one enabled but never installed is said.
func TestInstalledReadsBothVersionsOfTheFile(t *testing.T) {
	user, cwd := t.TempDir(), t.TempDir()
	a, b, c := filepath.Join(user, "a"), filepath.Join(user, "b"), filepath.Join(user, "c")
	for _, d := range []string{a, b, c} {
		testkit.WriteTree(t, d, map[string]string{"commands/x.md": "X."})
	}
	for _, src := range []string{
		`{"version": 2, "plugins": {"a@m": [{"scope": "user", "installPath": "` + a + `"}],
  "b@m": [{"scope": "project", "projectPath": "` + cwd + `", "installPath": "` + b + `"}],
  "c@m": [{"scope": "local", "projectPath": "/elsewhere", "installPath": "` + c + `"}]}}`,
		`{"version": 1, "plugins": {"a@m": {"version": "1.0.0", "installPath": "` + a + `"},
  "b@m": {"installPath": "` + b + `"}, "c@m": [{"scope": "local", "projectPath": "/elsewhere", "installPath": "` + c + `"}]}}`,
	} {
		testkit.WriteTree(t, user, map[string]string{".claude/plugins/installed_plugins.json": src})
		ps, problems := Installed(user, cwd, []string{"a@m", "b@m", "c@m", "d@m"})
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		if strings.Join(names, " ") != "a b" || len(problems) != 1 || !strings.Contains(problems[0], "plugin d@m is enabled but not installed") {
			t.Errorf("got %q, problems %q", names, problems)
		}
	}
}
