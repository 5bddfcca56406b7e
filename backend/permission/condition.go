package permission

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Condition is the "if" of a Claude Code hook handler: an entry in the
// language of permission rules ("Bash(git push *)", "Edit(src/**)") that
// names the tool calls the hook runs for.
type Condition struct {
	e entry
}

// ParseCondition reads a hook's "if"; text that is no entry is an error
// that says what one looks like.
func ParseCondition(text string) (Condition, error) {
	e := parseEntry(text)
	open, closed := strings.Count(text, "("), strings.Count(text, ")")
	if e.tool == "" || strings.ContainsAny(e.tool, " \t'\"") || open > 1 || open != closed || e.hasArg && !strings.HasSuffix(strings.TrimSpace(text), ")") {
		return Condition{}, fmt.Errorf("if %q is not a permission rule such as Bash(git push *) or Edit(src/**)", text)
	}
	return Condition{e: e}, nil
}

// Covers reports whether the condition names a call of tool (tack's name)
// whose input is Claude Code's tool_input: any command of its command line,
// any file it names, the domain it fetches, as a deny rule would. Paths
// are anchored at cwd and home.
func (c Condition) Covers(tool string, input json.RawMessage, cwd, home string) bool {
	var in struct {
		Command      string `json:"command"`
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
		URL          string `json:"url"`
	}
	_ = json.Unmarshal(input, &in)
	s := subject{tool: tool, command: in.Command}
	for _, p := range []string{in.FilePath, in.NotebookPath, in.Path} {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		s.paths = append(s.paths, filepath.Clean(p))
	}
	if u, err := url.Parse(in.URL); err == nil && in.URL != "" {
		s.scope = strings.ToLower(u.Hostname())
	}
	return c.e.refuses(s, anchors{cwd: cwd, home: home, root: cwd})
}
