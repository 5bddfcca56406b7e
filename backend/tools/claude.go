package tools

import (
	"encoding/json"
	"path/filepath"
)

// Claude Code names tack's tools its own way, and the files and flags
// written for it (allowed-tools, permission rules, an agent's tools, hook
// matchers) use its names; these are both spellings, in one place.

// claudePairs are Claude Code's names and tack's, the name Claude Code
// gives a tool today first.
// Claude Code renamed Task to Agent, KillShell (KillBash before it) to
// TaskStop and its MCP resource tools to ...Tool; files and models still
// use the old names.
var claudePairs = [][2]string{
	{"Bash", "bash"}, {"BashOutput", "bash_output"},
	{"TaskStop", "bash_kill"}, {"KillShell", "bash_kill"}, {"KillBash", "bash_kill"},
	{"Read", "read"}, {"Write", "write"}, {"Edit", "edit"}, {"MultiEdit", "edit"}, {"NotebookEdit", "notebook_edit"},
	{"Glob", "glob"}, {"Grep", "grep"}, {"LS", "glob"}, {"TodoWrite", "todo_write"},
	{"WebFetch", "web_fetch"}, {"WebSearch", "web_search"}, {"Agent", "task"}, {"Task", "task"},
	{"ExitPlanMode", "exit_plan_mode"}, {"AskUserQuestion", "ask_user_question"}, {"Skill", "skill"},
	{"ListMcpResourcesTool", "list_mcp_resources"}, {"ListMcpResources", "list_mcp_resources"},
	{"ReadMcpResourceTool", "read_mcp_resource"}, {"ReadMcpResource", "read_mcp_resource"},
}

var fromClaude, toClaude = func() (map[string]string, map[string][]string) {
	from, to := map[string]string{}, map[string][]string{}
	for _, p := range claudePairs {
		from[p[0]] = p[1]
		to[p[1]] = append(to[p[1]], p[0])
	}
	return from, to
}()

// FromClaude is tack's name of the tool Claude Code calls name; any other
// name is returned as it is.
func FromClaude(name string) string {
	if n, ok := fromClaude[name]; ok {
		return n
	}
	return name
}

// CallName is tack's name for a call the model made by Claude Code's name
// of a tool whose arguments tack's takes as Claude Code's are sent, as
// models trained on Claude Code's sessions call them; any other name is
// returned as it is. MultiEdit's edits and LS's path are not taken that
// way, so calls by those names stay unknown and the model is told tack's.
func CallName(name string) string {
	if name == "MultiEdit" || name == "LS" {
		return name
	}
	return FromClaude(name)
}

// ClaudeName is the name Claude Code gives tack's tool name; any other
// name is returned as it is.
func ClaudeName(name string) string {
	if n, ok := toClaude[name]; ok {
		return n[0]
	}
	return name
}

// ClaudeNames are all the names Claude Code has given tack's tool name,
// today's first; none for a tool it has no name for.
func ClaudeNames(name string) []string { return toClaude[name] }

// ClaudeInput is a call's arguments as Claude Code's hooks and transcripts
// show them: a JSON object (an empty one when the model sent something
// else), with a relative file_path or notebook_path made absolute from
// cwd, as Claude Code's file tools always send them and scripts written
// for them expect.
func ClaudeInput(args json.RawMessage, cwd string) json.RawMessage {
	var fields map[string]json.RawMessage
	if !json.Valid(args) || json.Unmarshal(args, &fields) != nil {
		return json.RawMessage("{}")
	}
	changed := false
	for _, key := range []string{"file_path", "notebook_path"} {
		var path string
		if json.Unmarshal(fields[key], &path) != nil || path == "" || filepath.IsAbs(path) || cwd == "" {
			continue
		}
		fields[key], _ = json.Marshal(filepath.Join(cwd, path))
		changed = true
	}
	if !changed {
		return args
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return args
	}
	return out
}
