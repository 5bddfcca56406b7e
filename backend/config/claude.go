package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Claude Code keeps its settings in JSON files: the user's
// ~/.claude/settings.json, a project's .claude/settings.json (shared) and
// .claude/settings.local.json (the user's own for the project). tack reads
// these of them: the "hooks" object, which has the shape of tack's
// [[hooks.EVENT]] tables, the permission rules, the environment
// variables, the agent sessions run as, the plugins turned on, the
// status line command and the choices about a project's MCP servers.
// Everything else in the files is Claude Code's alone.

// ClaudeSettings is what tack reads of one Claude Code settings file.
type ClaudeSettings struct {
	Hooks       Hooks             `json:"hooks"`
	Permissions ClaudePermissions `json:"permissions"`
	// Env are variables set for every session, "NAME": "value"; Claude
	// Code also takes a number or a boolean, written as in the file.
	Env map[string]Scalar `json:"env"`
	// Agent names the agent definition sessions run as (claude's
	// --agent).
	Agent string `json:"agent"`
	// EnabledPlugins turns the plugins Claude Code installed on or off,
	// "name@marketplace": true (or a list of version ranges: on).
	EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
	// OutputStyle names the output style whose text ends the system
	// prompt: a built-in one's or a file's of .claude/output-styles.
	OutputStyle string `json:"outputStyle"`
	// StatusLine is the command whose output the full screen shows above
	// its status row; nil when the file sets none.
	StatusLine *ClaudeStatusLine `json:"statusLine"`
	// AutoMemoryEnabled false keeps Claude Code's auto memory out of the
	// session; AutoMemoryDirectory moves it from its folder under
	// ~/.claude/projects.
	AutoMemoryEnabled   *bool  `json:"autoMemoryEnabled"`
	AutoMemoryDirectory string `json:"autoMemoryDirectory"`
	// DisableAllHooks true turns off the hooks and the status line.
	DisableAllHooks *bool `json:"disableAllHooks"`
	// EnableAllProjectMcpServers and EnabledMcpjsonServers approve a
	// project's .mcp.json servers, all or by name; the session takes them
	// from the user's own files only. DisabledMcpjsonServers keeps those
	// named from starting, from any file.
	EnableAllProjectMcpServers bool     `json:"enableAllProjectMcpServers"`
	EnabledMcpjsonServers      []string `json:"enabledMcpjsonServers"`
	DisabledMcpjsonServers     []string `json:"disabledMcpjsonServers"`
}

// ClaudeStatusLine is a settings file's "statusLine": a command run with
// the session's figures as JSON on stdin, its output shown as rows.
type ClaudeStatusLine struct {
	// Type is "command", the only kind there is.
	Type    string `json:"type"`
	Command string `json:"command"`
	// Padding indents the rows by that many columns.
	Padding int `json:"padding"`
	// RefreshInterval runs it again after that many seconds without a
	// change; 0 runs it after changes alone.
	RefreshInterval int `json:"refreshInterval"`
}

// PluginsOn says of each plugin s names whether it turns it on.
func (s ClaudeSettings) PluginsOn() map[string]bool {
	on := map[string]bool{}
	for key, v := range s.EnabledPlugins {
		v = bytes.TrimSpace(v)
		on[key] = len(v) > 0 && (v[0] == '[' || string(v) == "true")
	}
	return on
}

// Scalar is a JSON string, number or boolean, as text.
type Scalar string

// UnmarshalJSON takes a string as its text and a number or boolean as
// written; anything else is an error that says what a value may be.
func (v *Scalar) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = Scalar(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*v = Scalar(n)
		return nil
	}
	if t := string(b); t == "true" || t == "false" {
		*v = Scalar(t)
		return nil
	}
	return fmt.Errorf("env values should be strings, numbers or true or false, not %s", b)
}

// ClaudePermissions are a settings file's permission rules, each an entry
// in Claude Code's syntax: "Bash(npm test *)", "Read(./.env)",
// "WebFetch(domain:docs.rs)", "mcp__github".
type ClaudePermissions struct {
	Allow []string `json:"allow"`
	Ask   []string `json:"ask"`
	Deny  []string `json:"deny"`
	// AdditionalDirectories are more directories to work in, as
	// --add-dir gives them.
	AdditionalDirectories []string `json:"additionalDirectories"`
	// DefaultMode is the permission mode sessions start in, by Claude
	// Code's name ("default", "acceptEdits", "plan", "bypassPermissions").
	DefaultMode string `json:"defaultMode"`
}

// ClaudeUserSettings is the user's Claude Code settings file under home.
func ClaudeUserSettings(home string) string {
	return filepath.Join(home, ".claude", "settings.json")
}

// ClaudeProjectSettings are a project's Claude Code settings files under
// dir, shared first.
func ClaudeProjectSettings(dir string) []string {
	return []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json")}
}

// LoadClaudeSettings reads the Claude Code settings file at path, each
// hook group with the line of its event's key. A missing file is empty
// settings; one that cannot be read or is not JSON is an error naming the
// file (and the line), for the caller to report and skip.
func LoadClaudeSettings(path string) (ClaudeSettings, error) {
	src, found, err := readIfThere(path)
	if !found || err != nil {
		return ClaudeSettings{}, err
	}
	return ParseClaudeSettings(path, src)
}

// readIfThere reads the file at path; found is false when there is none,
// which is no error. An error names the file.
func readIfThere(path string) (src []byte, found bool, err error) {
	src, err = os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	return src, true, nil
}

// ParseClaudeSettings reads src, settings in Claude Code's shape from the
// file (or flag) that name says; an error names it, and the line.
func ParseClaudeSettings(name string, src []byte) (ClaudeSettings, error) {
	var s ClaudeSettings
	if err := json.Unmarshal(src, &s); err != nil {
		return ClaudeSettings{}, fmt.Errorf("%s: %s; fix it", JSONWhere(name, src, err), JSONProblem(err))
	}
	for event, groups := range s.Hooks {
		line := LineOf(src, bytes.Index(src, []byte(`"`+event+`"`)))
		for i := range groups {
			groups[i].Line = line
		}
	}
	return s, nil
}
