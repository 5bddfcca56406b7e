package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/jsonscan"
)

// Claude Code keeps the MCP servers `claude mcp add` adds in the user's
// ~/.claude.json: those of the user scope under "mcpServers", those of the
// local scope (its default) under "projects", by the directory they were
// added in. The file also holds Claude Code's own state and runs to
// megabytes, so it is scanned, not decoded.

// ClaudeUserFile is ~/.claude.json under home.
func ClaudeUserFile(home string) string { return filepath.Join(home, ".claude.json") }

// LoadClaudeUser reads the servers the file at path (~/.claude.json)
// gives dir: the local-scope ones of dir, or of the nearest directory
// above it that has some, then the user-scope ones; of two of one name,
// the local one. They are the user's own: none waits for an approval. A
// missing file is no servers; one that cannot be read is a problem.
func LoadClaudeUser(path, dir string, getenv func(string) string) Project {
	p := Project{Path: path}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p
	}
	if err != nil {
		p.Problems = append(p.Problems, fmt.Sprintf("%s: %v; its MCP servers are skipped", path, err))
		return p
	}
	user, local, ok := claudeServers(src, filepath.Clean(dir))
	if !ok {
		p.Problems = append(p.Problems, path+" is not valid JSON; its MCP servers are skipped")
		return p
	}
	for _, at := range []int{local, user} {
		if at < 0 {
			continue
		}
		var servers map[string]json.RawMessage
		if err := json.Unmarshal(jsonscanRaw(src, at), &servers); err != nil {
			p.Problems = append(p.Problems, fmt.Sprintf("%s: an mcpServers object that is not one; its MCP servers are skipped", path))
			continue
		}
		for _, s := range p.Servers {
			delete(servers, s.Name)
		}
		first := len(p.Servers)
		p.add(servers, src, at, false, getenv)
		for i := first; i < len(p.Servers); i++ {
			p.Servers[i].Local = at == local
		}
	}
	return p
}

// claudeServers finds, in ~/.claude.json's text, where the user-scope
// mcpServers object starts and where the local-scope one of dir (or of its
// nearest ancestor that has one) does; -1 for none. ok is false when the
// text is not JSON.
func claudeServers(src []byte, dir string) (user, local int, ok bool) {
	user, local = -1, -1
	best := ""
	sc := jsonscan.New(src, nil)
	sc.Object(func(key []byte) {
		switch string(key) {
		case "mcpServers":
			sc.Peek()
			user = sc.Offset()
			sc.Skip()
		case "projects":
			sc.Object(func(project []byte) {
				p := filepath.Clean(string(project))
				if !within(dir, p) || len(p) <= len(best) {
					sc.Skip()
					return
				}
				sc.Object(func(key []byte) {
					if string(key) != "mcpServers" {
						sc.Skip()
						return
					}
					sc.Peek()
					best, local = p, sc.Offset()
					sc.Skip()
				})
			})
		default:
			sc.Skip()
		}
	})
	sc.End()
	return user, local, !sc.Failed()
}

// ClaudeApprovals are the choices about a project's .mcp.json servers
// that Claude Code keeps in ~/.claude.json's entry for the project, as
// its approval dialog records them: approve all, approve by name, or
// reject by name.
type ClaudeApprovals struct {
	All      bool     `json:"enableAllProjectMcpServers"`
	Enabled  []string `json:"enabledMcpjsonServers"`
	Disabled []string `json:"disabledMcpjsonServers"`
}

// LoadClaudeApprovals reads the approvals of the file at path
// (~/.claude.json) for dir: those of its entry for dir or for the nearest
// directory above it that has one. A missing file, or no entry, approves
// nothing; a file that cannot be read or is not JSON is an error.
func LoadClaudeApprovals(path, dir string) (ClaudeApprovals, error) {
	var a ClaudeApprovals
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	if err != nil {
		return a, err
	}
	dir, best, at := filepath.Clean(dir), "", -1
	sc := jsonscan.New(src, nil)
	sc.Object(func(key []byte) {
		if string(key) != "projects" {
			sc.Skip()
			return
		}
		sc.Object(func(project []byte) {
			if p := filepath.Clean(string(project)); within(dir, p) && len(p) > len(best) {
				sc.Peek()
				best, at = p, sc.Offset()
			}
			sc.Skip()
		})
	})
	sc.End()
	if sc.Failed() {
		return a, errors.New(path + " is not valid JSON")
	}
	if at < 0 {
		return a, nil
	}
	if err := json.Unmarshal(jsonscanRaw(src, at), &a); err != nil {
		return ClaudeApprovals{}, fmt.Errorf("%s: the entry of %s: %v", path, best, err)
	}
	return a, nil
}

// jsonscanRaw is the JSON value that starts at offset at of src.
func jsonscanRaw(src []byte, at int) []byte {
	sc := jsonscan.New(src[at:], nil)
	return sc.Raw()
}

// within reports whether dir is base or lies below it.
func within(dir, base string) bool {
	return dir == base || strings.HasPrefix(dir, strings.TrimSuffix(base, string(filepath.Separator))+string(filepath.Separator))
}
