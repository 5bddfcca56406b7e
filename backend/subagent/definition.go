// Package subagent describes the agents the task tool can start: their
// definitions, read from Markdown files with front matter in the shape
// Claude Code uses (.claude/agents/*.md), and the tool set each may use.
package subagent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/frontmatter"
	"github.com/tack-agent/tack/backend/tools"
)

// Definition is one agent the task tool can start.
type Definition struct {
	Name        string
	Description string
	// Tools are the tack tool names the agent may use; nil means
	// DefaultTools for a subagent, every tool for a session run as the
	// agent. An MCP server's name, mcp__github or mcp__github__*, stands
	// for all of its tools.
	Tools []string
	// Disallowed are tools the agent may not use, though Tools or
	// DefaultTools name them (Claude Code's disallowedTools).
	Disallowed []string
	// Spawns, when not nil, are the agents it may start with the task
	// tool when the session runs as it: Claude Code's Agent(worker,
	// researcher) in its tools. (A subagent starts none.)
	Spawns []string
	// Model is the model it runs on; "" means the parent's model.
	Model string
	// ClaudeModel is the model of Claude Code's the file names (sonnet,
	// claude-opus-4-1, "Claude Sonnet 4.5"), which no provider of tack's
	// serves: the agent runs on the parent's model, and the user is told
	// so. "" when the file names none, or "inherit".
	ClaudeModel string
	// MaxTurns, when above zero, is how many model requests the agent's
	// turn may make (Claude Code's maxTurns); its answer so far is then
	// its report.
	MaxTurns int
	// Skills are skills whose instructions open the agent's work, loaded
	// into its system prompt (Claude Code's skills).
	Skills []string
	// Unapplied are the front matter's fields of Claude Code's that tack
	// reads but does not apply to agents, for a note: permissionMode (the
	// agent works under the session's mode) and hooks (the session's
	// hooks run for it).
	Unapplied []string
	// Prompt is the file's body: instructions added to the child's system
	// prompt.
	Prompt string
	// Path is the file it came from; "" for the built-in agent.
	Path string
}

// GeneralName is the built-in agent used when a task names none.
const GeneralName = "general"

// ClaudeCodeAgent reports whether name is one of the built-in agents of
// Claude Code's Task tool (general-purpose, Explore, Plan), which models
// trained on it and agent files name. All three research and report,
// which is what tack's general agent does, so they run as it unless a
// definition of that name exists.
func ClaudeCodeAgent(name string) bool {
	return name == "general-purpose" || name == "Explore" || name == "Plan"
}

// DefaultTools are what an agent may use when its definition lists none:
// the tools that only look, and bash, which runs inside the sandbox and
// asks the parent's permission gate like every call.
var DefaultTools = []string{"read", "glob", "grep", "bash", "bash_output", "bash_kill", "web_search", "web_fetch"}

// never are tools no subagent gets: no nested tasks, and nothing that talks
// to the user or the plan, which belong to the parent.
var never = []string{task, "ask_user_question", "exit_plan_mode"}

// task is the tool that starts agents.
const task = "task"

// General is the built-in agent.
func General() Definition {
	return Definition{
		Name: GeneralName,
		Description: "General-purpose agent for research and multi-step investigation: " +
			"searching the code, reading files, running read-only commands. It reports what it found.",
	}
}

// Allowed reports whether the agent may use tool when the task tool
// starts it: DefaultTools when its definition lists none, and never the
// tools of the parent's alone.
func (d Definition) Allowed(tool string) bool {
	return !slices.Contains(never, tool) && (d.Tools != nil || slices.Contains(DefaultTools, tool)) && d.Offers(tool)
}

// Offers reports whether the agent, run as the session itself (claude
// --agent), may use tool, built in or an MCP server's: any its tools
// name, every one when it names none, less those it disallows.
func (d Definition) Offers(tool string) bool {
	return (d.Tools == nil || names(d.Tools, tool)) && !names(d.Disallowed, tool)
}

// names reports whether list, a definition's tools or disallowed tools,
// names tool: by its name, or by its MCP server's.
func names(list []string, tool string) bool {
	return slices.ContainsFunc(list, func(n string) bool {
		server := strings.TrimSuffix(n, "__*")
		return n == tool || strings.HasPrefix(server, "mcp__") && strings.Count(server, "__") == 1 &&
			strings.HasPrefix(tool, server+"__")
	})
}

// Dirs are where definitions are read from, in order of precedence: the
// project's .tack/agents and .claude/agents, then the user's
// $TACK_HOME/agents and, under userHome, Claude Code's ~/.claude/agents.
func Dirs(cwd, tackHome, userHome string) []string {
	dirs := []string{
		filepath.Join(cwd, ".tack", "agents"),
		filepath.Join(cwd, ".claude", "agents"),
		filepath.Join(tackHome, "agents"),
	}
	if userHome != "" {
		dirs = append(dirs, filepath.Join(userHome, ".claude", "agents"))
	}
	return dirs
}

// Load reads the definitions in dirs (folders of them, or single files),
// the first of a name winning, with the built-in general agent unless a
// file replaces it. A folder's subfolders are read too, as Claude Code
// reads them (.claude/agents/review/security.md). A file is a definition
// only when it has front matter, as in Claude Code: a README.md beside the
// agents is not one. A file that cannot be read or parsed is skipped and
// reported in problems, "path:line: what".
func Load(dirs []string) (defs []Definition, problems []error) {
	return load(dirs, true)
}

// LoadPlugin is Load for a plugin's agents, where Claude Code takes a file
// without front matter too, named for the file.
func LoadPlugin(paths []string) (defs []Definition, problems []error) {
	return load(paths, false)
}

func load(dirs []string, needFront bool) (defs []Definition, problems []error) {
	byName := map[string]bool{}
	for _, dir := range dirs {
		files, err := definitionFiles(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, fmt.Errorf("%s: %v", dir, err))
		}
		for _, file := range files {
			d, err := parse(file)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if needFront && !d.fronted {
				continue
			}
			if !byName[d.Name] {
				byName[d.Name] = true
				defs = append(defs, d.Definition)
			}
		}
	}
	if !byName[GeneralName] {
		defs = append(defs, General())
	}
	sort.SliceStable(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs, problems
}

// maxNesting is how deep subfolders of an agents folder are read.
const maxNesting = 8

// definitionFiles are the Markdown files in dir and its subfolders, or
// dir itself when it is a file.
func definitionFiles(dir string) ([]string, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return []string{dir}, nil
	}
	return markdownFiles(dir, 0)
}

func markdownFiles(dir string, depth int) ([]string, error) {
	entries, err := os.ReadDir(dir)
	var files []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if depth < maxNesting && !strings.HasPrefix(e.Name(), ".") {
				sub, _ := markdownFiles(path, depth+1)
				files = append(files, sub...)
			}
			continue
		}
		if strings.HasSuffix(e.Name(), ".md") {
			files = append(files, path)
		}
	}
	return files, err
}

// Find returns the definition named name.
func Find(defs []Definition, name string) (Definition, bool) {
	i := slices.IndexFunc(defs, func(d Definition) bool { return d.Name == name })
	if i < 0 {
		return Definition{}, false
	}
	return defs[i], true
}

type front struct {
	Name            string           `yaml:"name"`
	Description     string           `yaml:"description"`
	Tools           frontmatter.List `yaml:"tools"`
	DisallowedTools frontmatter.List `yaml:"disallowedTools"`
	Model           string           `yaml:"model"`
	MaxTurns        string           `yaml:"maxTurns"`
	Skills          frontmatter.List `yaml:"skills"`
	PermissionMode  string           `yaml:"permissionMode"`
	Hooks           any              `yaml:"hooks"`
}

// unapplied are the fields of f tack does not apply, in the file's terms.
func (f front) unapplied() []string {
	var out []string
	if mode := strings.TrimSpace(f.PermissionMode); mode != "" && mode != "default" {
		out = append(out, "permissionMode")
	}
	if f.Hooks != nil {
		out = append(out, "hooks")
	}
	return out
}

// parsed is a definition and whether its file had front matter.
type parsed struct {
	Definition
	fronted bool
}

func parse(path string) (parsed, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return parsed{}, fmt.Errorf("%s: %v", path, err)
	}
	var f front
	doc, err := frontmatter.Parse(src, &f)
	if err != nil {
		return parsed{}, fmt.Errorf("%s:%v", path, err)
	}
	d := Definition{
		Name:        strings.TrimSpace(f.Name),
		Description: strings.TrimSpace(f.Description),
		Prompt:      strings.TrimSpace(doc.Body),
		Path:        path,
		Disallowed:  toolNames(f.DisallowedTools),
		Skills:      []string(f.Skills),
		Unapplied:   f.unapplied(),
	}
	// A count that is not one is no limit: Claude Code's files are not
	// refused for a field tack can do without.
	if n, err := strconv.Atoi(strings.TrimSpace(f.MaxTurns)); err == nil && n > 0 {
		d.MaxTurns = n
	}
	d.Model, d.ClaudeModel = models(f.Model)
	if d.Name == "" {
		d.Name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	// "tools: *" is Claude Code's every tool: here, as when the list is
	// left out, the default set.
	if f.Tools != nil && !slices.Equal(f.Tools, frontmatter.List{"*"}) {
		d.Tools, d.Spawns = toolNames(f.Tools), spawns(f.Tools)
	}
	return parsed{Definition: d, fronted: doc.Present}, nil
}

// toolNames reads a tools list: tack's names of its entries, once each;
// nil for none.
func toolNames(list []string) []string {
	if list == nil {
		return nil
	}
	out := []string{}
	for _, t := range list {
		if name := toolName(t); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// spawns are the agents a tools list lets its agent start, run as the
// session: those its entries Agent(a, b) and Task(a) name, Claude Code's
// Task being the Agent tool's old name; nil when no entry names any, and
// the agent may start every one its task tool offers.
func spawns(list []string) []string {
	var out []string
	for _, t := range list {
		name, inner, ok := strings.Cut(strings.TrimSpace(t), "(")
		if !ok || tools.FromClaude(strings.TrimSpace(name)) != task {
			continue
		}
		for a := range strings.SplitSeq(strings.TrimSuffix(strings.TrimSpace(inner), ")"), ",") {
			if a = strings.TrimSpace(a); a != "" && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// toolName reads one entry of a tools list: a tack name, or a Claude Code
// name with an optional permission pattern (Bash(git diff:*)).
func toolName(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = t[:i]
	}
	return tools.FromClaude(t)
}

// models reads a definition's model: the model to run, or the model of
// Claude Code's named in its place. "inherit" and "default" name the
// parent's model, which is what runs for either.
func models(name string) (model, claude string) {
	name = strings.TrimSpace(name)
	switch {
	case strings.EqualFold(name, "inherit") || strings.EqualFold(name, "default"):
		return "", ""
	case frontmatter.ClaudeModel(name):
		return "", name
	}
	return name, ""
}
