package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/config"
)

// ProjectFile is the name of a project's MCP servers file, as Claude Code
// reads it.
const ProjectFile = ".mcp.json"

// Project is what a project's .mcp.json defines.
type Project struct {
	Path    string
	Servers []Server
	// Content is the file as read, which an approval is of.
	Content []byte
	// Problems are the servers left out, each with the file and line.
	Problems []string
}

// projectServer is one entry of mcpServers, Claude Code's shape.
type projectServer struct {
	Type    string            `json:"type"` // "stdio", "http", "sse"; empty infers
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	OAuth   *claudeOAuth      `json:"oauth"`
}

// LoadProject reads dir's .mcp.json. A missing file is no servers. A file
// that is not JSON is a problem with its line, and no servers; a bad entry
// is a problem and is left out. ${VAR} and ${VAR:-default} in commands,
// arguments, env values, urls and headers expand from getenv.
func LoadProject(dir string, getenv func(string) string) Project {
	p := Project{Path: filepath.Join(dir, ProjectFile)}
	src, err := os.ReadFile(p.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return p
	}
	if err != nil {
		p.Problems = append(p.Problems, fmt.Sprintf("%s: %v; its MCP servers are skipped", p.Path, err))
		return p
	}
	return parseServers(p.Path, src, true, getenv)
}

// LoadFlag reads the servers of claude -p's --mcp-config value: a file in
// .mcp.json's shape, or that JSON itself. They are the user's own, named
// on the command line: none waits for the project's approval. Problems are
// as LoadProject's, and a file that cannot be read is one.
func LoadFlag(value string, getenv func(string) string) Project {
	return loadValue("--mcp-config", value, getenv)
}

// LoadPlugin reads the servers of the Claude Code plugin name: value is
// the file they are in or, from the plugin's manifest, their JSON. They
// are the user's own, as the plugin is.
func LoadPlugin(name, value string, getenv func(string) string) Project {
	return loadValue("plugin "+name, value, getenv)
}

// loadValue reads servers from value, a file in .mcp.json's shape or that
// JSON itself, which label names where no file does.
func loadValue(label, value string, getenv func(string) string) Project {
	if strings.HasPrefix(strings.TrimSpace(value), "{") {
		return parseServers(label, []byte(value), false, getenv)
	}
	src, err := os.ReadFile(value)
	if err != nil {
		return Project{Path: value, Problems: []string{fmt.Sprintf("%s %s: %v; its MCP servers are skipped", label, value, err)}}
	}
	return parseServers(value, src, false, getenv)
}

// parseServers reads src, the mcpServers object of the file at path;
// project marks servers that wait for the project's approval.
func parseServers(path string, src []byte, project bool, getenv func(string) string) Project {
	p := Project{Path: path, Content: src}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(src, &file); err != nil {
		p.Problems = append(p.Problems, fmt.Sprintf("%s: %s; fix the file, its MCP servers are skipped", config.JSONWhere(p.Path, src, err), config.JSONProblem(err)))
		return p
	}
	p.add(file.MCPServers, src, 0, project, getenv)
	return p
}

// add takes the servers of an mcpServers object that starts at offset
// base of src, the file's text, each named in problems and origins by its
// line there.
func (p *Project) add(servers map[string]json.RawMessage, src []byte, base int, project bool, getenv func(string) string) {
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		line := config.LineOf(src, base+bytes.Index(src[base:], []byte(`"`+name+`"`)))
		origin := fmt.Sprintf("%s line %d", p.Path, line)
		vars := &expansion{getenv: getenv}
		s, err := projectEntry(name, servers[name], vars.expand)
		if err != nil {
			p.Problems = append(p.Problems, fmt.Sprintf("%s: server %q: %v; it is skipped", origin, name, err))
			continue
		}
		if slices.Sort(vars.missing); len(vars.missing) > 0 {
			// As Claude Code warns; the server still starts, and says
			// what it lacks in its own words.
			p.Problems = append(p.Problems, fmt.Sprintf("%s: server %q: missing environment variables: %s; set them, "+
				"or give each a default as ${NAME:-value}", origin, name, strings.Join(vars.missing, ", ")))
		}
		s.Origin, s.Project = origin, project
		p.Servers = append(p.Servers, s)
	}
}

// projectEntry reads one entry of mcpServers; expand rewrites each value
// it takes (${VAR} references).
func projectEntry(name string, raw json.RawMessage, expand func(string) string) (Server, error) {
	var e projectServer
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&e); err != nil {
		return Server{}, errors.New(config.JSONProblem(err))
	}
	s := Server{
		Name:    name,
		Command: expand(e.Command), Cwd: expand(e.Cwd), URL: expand(e.URL),
		StartupTimeout: DefaultStartupTimeout, ToolTimeout: DefaultToolTimeout,
	}
	for _, a := range e.Args {
		s.Args = append(s.Args, expand(a))
	}
	s.Env = expandMap(e.Env, expand)
	s.Headers = expandMap(e.Headers, expand)
	oauth, err := e.OAuth.settings()
	if err != nil {
		return Server{}, err
	}
	s.OAuth = oauth
	switch e.Type {
	case "", "stdio", "http", "streamable-http":
	case "sse":
		s.SSE = true
	case "sdk": // an Agent SDK's in-process server, reached through the SDK
		s.SDK = true
	default:
		return Server{}, fmt.Errorf("unknown type %q; use \"stdio\", \"http\" or \"sse\"", e.Type)
	}
	return s, s.check()
}

func expandMap(m map[string]string, expand func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = expand(v)
	}
	return out
}

var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)
})

// expansion replaces ${VAR} and ${VAR:-default} in one server's values,
// as Claude Code does in .mcp.json, and keeps the names of the variables
// that are empty or not set and have no default: they become empty.
type expansion struct {
	getenv  func(string) string
	missing []string
}

func (e *expansion) expand(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return varRef().ReplaceAllStringFunc(s, func(ref string) string {
		m := varRef().FindStringSubmatch(ref)
		if v := e.getenv(m[1]); v != "" {
			return v
		}
		if m[2] == "" && !slices.Contains(e.missing, m[1]) {
			e.missing = append(e.missing, m[1])
		}
		return m[3]
	})
}
