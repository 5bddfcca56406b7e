package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/workspace"
)

// Claude Code loads the first memoryLines lines (at most memoryBytes) of
// MEMORY.md, its auto memory's index, at the start of each session; the
// topic files it points to are read when needed.
const (
	memoryLines = 200
	memoryBytes = 25 << 10
	// maxProjectName is the longest project folder name Claude Code writes
	// whole; a longer one is cut there and a hash of the path follows.
	maxProjectName = 200
)

// ClaudeMemoryDir is the folder under the user's home where Claude Code
// keeps its auto memory (notes it wrote for itself in earlier sessions)
// of the project holding cwd: ~/.claude/projects/<project>/memory, the
// project being the top of the main work tree of its git repository (so
// its worktrees and subfolders share it), else cwd, with each character
// other than an ASCII letter or digit made "-".
func ClaudeMemoryDir(home, cwd string) string {
	root := workspace.MainRoot(cwd)
	if root == "" {
		root = cwd
	}
	projects := filepath.Join(home, ".claude", "projects")
	name := projectName(root)
	if len(name) > maxProjectName {
		// The hash Claude Code adds is its own; the one folder that
		// starts with the cut name is the project's.
		if found, _ := filepath.Glob(filepath.Join(projects, name[:maxProjectName]+"-*")); len(found) == 1 {
			return filepath.Join(found[0], "memory")
		}
	}
	return filepath.Join(projects, name, "memory")
}

// projectName is path as Claude Code names a project's folder after it:
// each UTF-16 unit (JavaScript's character) that is not an ASCII letter
// or digit becomes "-".
func projectName(path string) string {
	var b strings.Builder
	for _, r := range path {
		switch {
		case r < 128 && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'):
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// AutoMemory reads MEMORY.md in dir, Claude Code's auto memory, as far as
// Claude Code would load it, saying where the rest is; false when there
// is none.
func AutoMemory(dir string) (Instruction, bool, error) {
	p := filepath.Join(dir, "MEMORY.md")
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Instruction{}, false, nil
	}
	if err != nil {
		return Instruction{}, false, fmt.Errorf("read Claude Code's auto memory %s: %w; make it readable, or set \"autoMemoryEnabled\": false", p, err)
	}
	text, cut := string(b), false
	if len(text) > memoryBytes {
		text, cut = strings.ToValidUTF8(text[:memoryBytes], ""), true
	}
	if lines := strings.SplitAfter(text, "\n"); len(lines) > memoryLines && strings.Join(lines[memoryLines:], "") != "" {
		text, cut = strings.Join(lines[:memoryLines], ""), true
	}
	if cut {
		text = strings.TrimRight(text, "\n") + fmt.Sprintf("\n[the rest of %s is not loaded; read the file for it]", p)
	}
	return Instruction{Path: p, Text: text}, true, nil
}
