// Package plugin reads Claude Code's plugins: folders that bring slash
// commands, agents, skills, hooks and MCP servers together, with a
// manifest in .claude-plugin/plugin.json. A session takes those the user
// installed with Claude Code and the settings files turn on
// (enabledPlugins), and those --plugin-dir names. What a plugin brings is
// named after it: its command review is /NAME:review, its agent and skill
// NAME:agent and NAME:skill.
package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/config"
)

// RootVar is the variable a plugin's hooks and MCP servers find its
// folder in, as ${CLAUDE_PLUGIN_ROOT} in their commands or in their
// environment.
const RootVar = "CLAUDE_PLUGIN_ROOT"

// Plugin is one plugin's folder and what its manifest says of it.
type Plugin struct {
	Name string
	Dir  string
	// Commands, Agents and Skills are the folders (or, for commands and
	// agents, files) each kind is read from: the plugin's commands/,
	// agents/ and skills/, and those the manifest adds.
	Commands, Agents, Skills []string
	// Hooks are the plugin's hooks (hooks/hooks.json, or the manifest's),
	// with ${CLAUDE_PLUGIN_ROOT} in their commands replaced by Dir;
	// HooksFile is where they were read ("" when there are none).
	Hooks     config.Hooks
	HooksFile string
	// MCP is the plugin's MCP servers as a --mcp-config value: its
	// .mcp.json, the manifest's file, or the manifest's JSON; "" when it
	// has none.
	MCP string
	// EnabledBy is the project's settings file that turned the plugin on
	// (`claude plugin install --scope project` writes it there); "" when
	// the user did. What such a plugin runs, its hooks and MCP servers,
	// waits for the user's approval of the project's.
	EnabledBy string
}

// manifest is .claude-plugin/plugin.json. Paths in it are relative to the
// plugin's folder; hooks and mcpServers are a path or the object itself.
type manifest struct {
	Name       string          `json:"name"`
	Commands   paths           `json:"commands"`
	Agents     paths           `json:"agents"`
	Skills     paths           `json:"skills"`
	Hooks      json.RawMessage `json:"hooks"`
	MCPServers json.RawMessage `json:"mcpServers"`
}

// paths is a path or a list of them.
type paths []string

func (p *paths) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*p = paths{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("a path or a list of paths was expected")
	}
	*p = many
	return nil
}

// ManifestFile is a plugin's manifest under its folder.
var ManifestFile = filepath.Join(".claude-plugin", "plugin.json")

// Load reads the plugin in dir. A folder without a manifest is a plugin
// named after the folder, with what its standard folders hold. An error
// names the file and says what to fix.
func Load(dir string) (Plugin, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Plugin{}, fmt.Errorf("%s is not a folder", dir)
	}
	var m manifest
	path := filepath.Join(dir, ManifestFile)
	src, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Plugin{}, fmt.Errorf("%s: %w", path, err)
	default:
		if err := json.Unmarshal(src, &m); err != nil {
			return Plugin{}, fmt.Errorf("%s: %s; fix it", config.JSONWhere(path, src, err), config.JSONProblem(err))
		}
	}
	p := Plugin{Name: strings.TrimSpace(m.Name), Dir: dir}
	if p.Name == "" {
		p.Name = filepath.Base(dir)
	}
	p.Commands = p.within("commands", m.Commands)
	p.Agents = p.within("agents", m.Agents)
	p.Skills = p.within("skills", m.Skills)
	if err := p.readHooks(m.Hooks); err != nil {
		return Plugin{}, err
	}
	p.MCP = p.mcp(m.MCPServers)
	return p, nil
}

// within is the plugin's folder std and the manifest's paths of the same
// kind, each under the plugin's folder; those that are not there are left
// out.
func (p Plugin) within(std string, more paths) []string {
	var out []string
	for _, rel := range append(paths{std}, more...) {
		path := filepath.Join(p.Dir, filepath.FromSlash(rel))
		if _, err := os.Stat(path); err == nil && !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}

// readHooks reads the plugin's hooks: the manifest's (a path or the
// object), else hooks/hooks.json, each a {"hooks": {...}} object in the
// shape of Claude Code's settings.
func (p *Plugin) readHooks(inline json.RawMessage) error {
	name, src := filepath.Join(p.Dir, "hooks", "hooks.json"), []byte(nil)
	var rel string
	switch {
	case len(inline) == 0:
	case json.Unmarshal(inline, &rel) == nil:
		name = filepath.Join(p.Dir, filepath.FromSlash(rel))
	default:
		name, src = filepath.Join(p.Dir, ManifestFile), []byte(`{"hooks":`+string(inline)+`}`)
	}
	if src == nil {
		var err error
		if src, err = os.ReadFile(name); errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	s, err := config.ParseClaudeSettings(name, []byte(strings.ReplaceAll(string(src), "${"+RootVar+"}", jsonEscape(p.Dir))))
	if err != nil {
		return err
	}
	if len(s.Hooks) > 0 {
		p.Hooks, p.HooksFile = s.Hooks, name
	}
	return nil
}

// jsonEscape is s as it stands inside a JSON string.
func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// mcp is the plugin's MCP servers as a --mcp-config value.
func (p Plugin) mcp(inline json.RawMessage) string {
	var rel string
	switch {
	case len(inline) == 0:
		if path := filepath.Join(p.Dir, ".mcp.json"); fileExists(path) {
			return path
		}
		return ""
	case json.Unmarshal(inline, &rel) == nil:
		return filepath.Join(p.Dir, filepath.FromSlash(rel))
	}
	return `{"mcpServers":` + string(inline) + `}`
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Getenv is getenv with RootVar set to the plugin's folder, for what its
// MCP configuration expands.
func (p Plugin) Getenv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == RootVar {
			return p.Dir
		}
		return getenv(k)
	}
}
