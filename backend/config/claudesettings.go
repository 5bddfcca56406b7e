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

// Claude Code keeps its hooks in settings files: the user's
// ~/.claude/settings.json, a project's .claude/settings.json (shared) and
// .claude/settings.local.json (the user's own for the project). Their
// "hooks" object has the shape of tack's [[hooks.EVENT]] tables, so tack
// runs those hooks too; everything else in the files is Claude Code's
// alone and is not read.

// ClaudeUserSettings is the user's Claude Code settings file under home.
func ClaudeUserSettings(home string) string {
	return filepath.Join(home, ".claude", "settings.json")
}

// ClaudeProjectSettings are a project's Claude Code settings files under
// dir, shared first.
func ClaudeProjectSettings(dir string) []string {
	return []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json")}
}

// LoadClaudeHooks reads the hooks of the Claude Code settings file at
// path, each group with the line of its event's key. A missing file has
// none; one that cannot be read or is not JSON is an error naming the file
// (and the line), for the caller to report and skip.
func LoadClaudeHooks(path string) (Hooks, error) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var f struct {
		Hooks Hooks `json:"hooks"`
	}
	if err := json.Unmarshal(src, &f); err != nil {
		line := 0
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line = bytes.Count(src[:se.Offset], []byte("\n")) + 1
		case errors.As(err, &te):
			line = bytes.Count(src[:te.Offset], []byte("\n")) + 1
		}
		return nil, fmt.Errorf("%s line %d: %v; fix the file", path, line, err)
	}
	for event, groups := range f.Hooks {
		line := bytes.Count(src[:max(bytes.Index(src, []byte(`"`+event+`"`)), 0)], []byte("\n")) + 1
		for i := range groups {
			groups[i].Line = line
		}
	}
	return f.Hooks, nil
}
