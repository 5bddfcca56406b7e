package launch

import (
	"fmt"
	"strconv"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/prompt"
)

// autoMemory is Claude Code's auto memory of the project of cwd (the
// first lines of its MEMORY.md), so what it learned in a user's earlier
// sessions holds in tack's, and the problems met: none when the settings'
// autoMemoryEnabled, by Claude Code's order, is false, or
// CLAUDE_CODE_DISABLE_AUTO_MEMORY is set. It is read from the settings'
// autoMemoryDirectory, else from Claude Code's folder for the project.
func autoMemory(files []claudeFile, getenv func(string) string, cwd string) ([]prompt.Instruction, []string) {
	if off, err := strconv.ParseBool(getenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")); err == nil && off {
		return nil, nil
	}
	home := getenv("HOME")
	dir, enabled, problems := "", (*bool)(nil), []string(nil)
	for _, f := range byPrecedence(files) {
		if enabled == nil {
			enabled = f.settings.AutoMemoryEnabled
		}
		switch d := f.settings.AutoMemoryDirectory; {
		case d == "" || dir != "":
		case f.source == "project":
			// As in Claude Code: a shared project file may not point the
			// memory elsewhere.
			problems = append(problems, fmt.Sprintf("%s: autoMemoryDirectory is not taken from a project's shared settings; "+
				"set it in ~/.claude/settings.json or .claude/settings.local.json", f.label))
		default:
			dir = config.ExpandHome([]string{d}, home)[0]
		}
	}
	if enabled != nil && !*enabled || dir == "" && home == "" {
		return nil, problems
	}
	if dir == "" {
		dir = prompt.ClaudeMemoryDir(home, cwd)
	}
	in, ok, err := prompt.AutoMemory(dir)
	if err != nil {
		return nil, append(problems, err.Error())
	}
	if !ok {
		return nil, problems
	}
	return []prompt.Instruction{in}, problems
}
