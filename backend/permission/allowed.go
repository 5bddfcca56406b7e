package permission

import (
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/tools"
)

// byAllowedTools names, in approval/decided, a call a custom command's
// allowed-tools let run.
const byAllowedTools = "allowed-tools"

// claudeToolNames maps the tool names of Claude Code's allowed-tools to
// tack's.
var claudeToolNames = map[string]string{
	"Bash": "bash", "Read": "read", "Write": "write", "Edit": "edit", "MultiEdit": "edit",
	"Glob": "glob", "Grep": "grep", "LS": "glob", "TodoWrite": "todo_write",
	"WebFetch": "web_fetch", "WebSearch": "web_search", "Task": "task",
}

// turnAllows reports whether the turn's allowed-tools let this call run
// without asking: its tool is named (Read, bash, mcp__docs__search), or,
// for a command, a Bash(prefix:*) or Bash(command) entry covers every
// command in it, as a remembered prefix must.
func turnAllows(allowed []string, tool, command string) bool {
	var prefixes []string
	for _, entry := range allowed {
		name, arg, hasArg := toolEntry(entry)
		if name != tool {
			continue
		}
		if !hasArg {
			return true
		}
		if arg != "" && !slices.Contains(prefixes, arg) {
			prefixes = append(prefixes, arg)
		}
	}
	return command != "" && covered(command, prefixes)
}

// toolEntry splits an allowed-tools or disallowed-tools entry, "Read" or
// "Bash(git diff:*)", into tack's name of its tool and the command in its
// parentheses, without a trailing ":*" or " *"; hasArg says it has them.
func toolEntry(entry string) (tool, arg string, hasArg bool) {
	tool, arg, hasArg = strings.Cut(strings.TrimSpace(entry), "(")
	if mapped, ok := claudeToolNames[tool]; ok {
		tool = mapped
	}
	arg = strings.TrimSuffix(arg, ")")
	arg = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(arg, ":*"), " *"))
	return tool, arg, hasArg
}

// allowedFor is the call's allowed-tools, from its environment.
func allowedFor(call tools.Call) []string {
	if call.Env == nil {
		return nil
	}
	return call.Env.Allowed
}
