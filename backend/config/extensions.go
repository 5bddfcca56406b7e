package config

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// MCPServer is one [mcp_servers.NAME] table, in the shape codex uses: a
// command to run (stdio) or a url (streamable HTTP).
type MCPServer struct {
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	Cwd     string            `toml:"cwd"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
	// HTTPHeaders is codex's name for Headers; both are read.
	HTTPHeaders map[string]string `toml:"http_headers"`
	// BearerTokenEnvVar names a variable whose value is sent as
	// "Authorization: Bearer <value>".
	BearerTokenEnvVar string `toml:"bearer_token_env_var"`
	Enabled           *bool  `toml:"enabled"`
	StartupTimeoutMs  int    `toml:"startup_timeout_ms"`
	ToolTimeoutMs     int    `toml:"tool_timeout_ms"`
	// StartupTimeoutSec and ToolTimeoutSec are codex's spellings.
	StartupTimeoutSec float64  `toml:"startup_timeout_sec"`
	ToolTimeoutSec    float64  `toml:"tool_timeout_sec"`
	EnabledTools      []string `toml:"enabled_tools"`
	DisabledTools     []string `toml:"disabled_tools"`
	// Trusted lets every tool of the server run without asking;
	// TrustedTools names the ones that may.
	Trusted      bool     `toml:"trusted"`
	TrustedTools []string `toml:"trusted_tools"`
	// Line is where the table starts in the config file.
	Line int `toml:"-"`
}

// Hooks are the [[hooks.EVENT]] tables: for each event, the groups of
// commands to run, in file order.
type Hooks map[string][]HookGroup

// HookGroup is one [[hooks.EVENT]] table: a matcher and its commands,
// written either directly (command, timeout) or as [[hooks.EVENT.hooks]]
// handlers, as codex and Claude Code nest them.
type HookGroup struct {
	// Matcher selects tools by name for the tool events (a regular
	// expression; empty or "*" matches every tool).
	Matcher string        `toml:"matcher"`
	Command string        `toml:"command"`
	Timeout float64       `toml:"timeout"` // seconds
	Hooks   []HookHandler `toml:"hooks"`
	// Line is where the table starts in its file.
	Line int `toml:"-"`
}

// HookHandler is one command of a HookGroup; with type "http" one
// request: its input is POSTed to URL with Headers, whose $VAR and
// ${VAR} are filled from the environment for the variables
// AllowedEnvVars names; with type "prompt" one question: a model (Model,
// or the session's) judges the input by Prompt.
type HookHandler struct {
	Type           string            `toml:"type"` // "command", "http", "prompt", or empty
	Command        string            `toml:"command"`
	Timeout        float64           `toml:"timeout"` // seconds
	URL            string            `toml:"url"`
	Headers        map[string]string `toml:"headers"`
	AllowedEnvVars []string          `toml:"allowedEnvVars"`
	Prompt         string            `toml:"prompt"`
	Model          string            `toml:"model"`
	// Async runs a command in the background, as Claude Code's
	// "async": true does: nothing waits for it.
	Async bool `toml:"async"`
	// AsyncRewake runs a command in the background, as Async does, and
	// wakes the model when it exits 2, as Claude Code's "asyncRewake":
	// true does.
	AsyncRewake bool `toml:"asyncRewake"`
	// If narrows a tool event's handler to the calls a permission rule
	// names ("Bash(git push *)"), as Claude Code's "if" does.
	If string `toml:"if"`
}

// extensionTables are the tables of a config file decoded one by one, so a
// bad one is reported and skipped instead of stopping tack.
type extensionTables struct {
	MCPServers map[string]toml.Primitive   `toml:"mcp_servers"`
	Hooks      map[string][]toml.Primitive `toml:"hooks"`
}

// decodeExtensions fills f's MCP servers and hooks from the tables of the
// file at path, appending a problem for each table it skips. It returns
// the undecoded keys that are not inside those tables.
func decodeExtensions(f *File, path string, src []byte, md toml.MetaData, t extensionTables) []toml.Key {
	for _, name := range slices.Sorted(maps.Keys(t.MCPServers)) {
		var s MCPServer
		s.Line = keyLine(src, toml.Key{"mcp_servers", name})
		if err := md.PrimitiveDecode(t.MCPServers[name], &s); err != nil {
			f.Problems = append(f.Problems, fmt.Sprintf("config file %s: mcp_servers.%s: %v; the server is skipped", path, name, err))
			continue
		}
		if f.MCPServers == nil {
			f.MCPServers = map[string]MCPServer{}
		}
		f.MCPServers[name] = s
	}
	f.Hooks = decodeHooks(&f.Problems, path, src, md, t.Hooks)
	var rest []toml.Key
	for _, k := range md.Undecoded() {
		switch {
		case len(k) > 2 && k[0] == "mcp_servers":
			if _, ok := f.MCPServers[k[1]]; ok {
				delete(f.MCPServers, k[1])
				f.Problems = append(f.Problems, fmt.Sprintf("%s: unknown setting %q; the server is skipped", where(path, src, k), k.String()))
			}
		case len(k) > 2 && k[0] == "hooks":
			f.Problems = append(f.Problems, fmt.Sprintf("%s: unknown setting %q is ignored", where(path, src, k), k.String()))
		default:
			rest = append(rest, k)
		}
	}
	return rest
}

// decodeHooks decodes the [[hooks.EVENT]] groups; a group that cannot be
// read is reported in problems and skipped.
func decodeHooks(problems *[]string, path string, src []byte, md toml.MetaData, raw map[string][]toml.Primitive) Hooks {
	var out Hooks
	for _, event := range slices.Sorted(maps.Keys(raw)) {
		for i, p := range raw[event] {
			var g HookGroup
			g.Line = tableLine(src, "hooks."+event, i)
			if err := md.PrimitiveDecode(p, &g); err != nil {
				*problems = append(*problems, fmt.Sprintf("hooks file %s: hooks.%s: %v; the hook is skipped", path, event, err))
				continue
			}
			if out == nil {
				out = Hooks{}
			}
			out[event] = append(out[event], g)
		}
	}
	return out
}

// ProjectSettings is a project's .tack/settings.toml: settings that come
// with the repository and so need the user's approval before they run
// anything.
type ProjectSettings struct {
	Hooks Hooks `toml:"-"`
	// Problems are the tables that were skipped, each with file and line.
	Problems []string `toml:"-"`
}

// LoadProjectSettings reads a project settings file. A missing file is
// empty settings; a file that is not TOML at all is an error naming the
// file and line; a bad table is a problem and is skipped.
func LoadProjectSettings(path string) (ProjectSettings, error) {
	var s ProjectSettings
	src, found, err := readIfThere(path)
	if !found || err != nil {
		return s, err
	}
	var t struct {
		Hooks map[string][]toml.Primitive `toml:"hooks"`
	}
	md, err := toml.Decode(string(src), &t)
	if err != nil {
		return s, fmt.Errorf("project settings %s: %w; fix or remove it", path, err)
	}
	s.Hooks = decodeHooks(&s.Problems, path, src, md, t.Hooks)
	for _, k := range md.Undecoded() {
		s.Problems = append(s.Problems, fmt.Sprintf("%s: unknown setting %q is ignored", where(path, src, k), k.String()))
	}
	return s, nil
}

func where(path string, src []byte, k toml.Key) string {
	if line := keyLine(src, k); line > 0 {
		return fmt.Sprintf("%s line %d", path, line)
	}
	return path
}

// tableLine is the line of the n-th (0-based) [[name]] header in src, or 0.
func tableLine(src []byte, name string, n int) int {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[[") && unquoteKey(strings.Trim(l, "[] \t")) == name {
			if n == 0 {
				return line
			}
			n--
		}
	}
	return 0
}

// CodexHome is codex's folder: $CODEX_HOME, else ~/.codex ("" without
// either).
func CodexHome(getenv func(string) string) string {
	if dir := getenv("CODEX_HOME"); dir != "" {
		return dir
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".codex")
	}
	return ""
}

// CodexConfig is codex's config.toml in CodexHome ("" without one).
func CodexConfig(getenv func(string) string) string {
	if dir := CodexHome(getenv); dir != "" {
		return filepath.Join(dir, "config.toml")
	}
	return ""
}

// LoadCodexServers reads the [mcp_servers.NAME] tables of codex's
// config.toml at path, whose shape tack's own config takes; the rest of
// the file is codex's alone. A missing file has none; a file that is not
// TOML, or a table tack cannot read, is a problem and is skipped.
func LoadCodexServers(path string) (map[string]MCPServer, []string) {
	src, found, err := readIfThere(path)
	if !found || err != nil {
		if err != nil {
			return nil, []string{err.Error() + "; its MCP servers are skipped"}
		}
		return nil, nil
	}
	var t struct {
		MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(src), &t)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; its MCP servers are skipped", path, err)}
	}
	var f File
	decodeExtensions(&f, path, src, md, extensionTables{MCPServers: t.MCPServers})
	return f.MCPServers, f.Problems
}
