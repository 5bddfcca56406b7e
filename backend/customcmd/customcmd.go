// Package customcmd loads the user's own slash commands: Markdown prompt
// files in a project's .tack/commands and .claude/commands and in the
// user's $TACK_HOME/commands and ~/.claude/commands, as Claude Code reads
// them. A file's name is the command (review.md is /review; a subfolder
// namespaces it: frontend/review.md is /frontend:review), its optional
// front matter describes it (description, argument-hint, model,
// allowed-tools, arguments), and its body is the prompt, with $ARGUMENTS
// and the other placeholders of Claude Code's (or codex's) replaced by
// what the user typed after the name and each !`command` by what the
// command printed.
package customcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/frontmatter"
	"github.com/tack-agent/tack/backend/promptargs"
	"github.com/tack-agent/tack/backend/workspace"
)

// Command is one custom command.
type Command struct {
	// Name is what follows the slash, lowercase, namespaced by subfolder.
	Name         string
	Description  string
	ArgumentHint string
	// Model runs the command's turn on another model.
	Model string
	// AllowedTools run without asking during the command's turn.
	AllowedTools []string
	// Body is the prompt template, its placeholders in Dialect;
	// ArgumentNames name the words of the input for $NAME placeholders
	// (Claude Code's arguments front matter).
	Body          string
	Dialect       promptargs.Dialect
	ArgumentNames []string
	// Path is the file it was read from; Source is "project" or "user".
	Path   string
	Source string
}

// Dir is a folder of command files (or one file) and whose it is. Prefix
// starts the names of its commands: codex's prompts are /prompts:NAME, a
// plugin's /PLUGIN:NAME.
type Dir struct {
	Path    string
	Source  string
	Prefix  string
	Dialect promptargs.Dialect
}

// maxFileSize bounds a command file.
const maxFileSize = 256 << 10

// Dirs are the folders commands are read from, first wins: the user's
// ($TACK_HOME/commands, then ~/.claude/commands, then codex's prompts in
// codexHome, as /prompts:NAME), then the project's (.tack/commands, then
// .claude/commands, in cwd and each parent up to the repository root).
// The user's own come first as in Claude Code, where a personal command
// or skill overrides a project's of its name: a repository cannot take
// over a command the user made their own.
func Dirs(tackHome, userHome, codexHome, cwd string) []Dir {
	var out []Dir
	if tackHome != "" {
		out = append(out, Dir{Path: filepath.Join(tackHome, "commands"), Source: "user"})
	}
	if userHome != "" {
		out = append(out, Dir{Path: filepath.Join(userHome, ".claude", "commands"), Source: "user"})
	}
	if codexHome != "" {
		out = append(out, Dir{Path: filepath.Join(codexHome, "prompts"), Source: "user", Prefix: "prompts:", Dialect: promptargs.CodexDialect})
	}
	for _, d := range workspace.ProjectChain(cwd) {
		out = append(out, Dir{Path: filepath.Join(d, ".tack", "commands"), Source: "project"},
			Dir{Path: filepath.Join(d, ".claude", "commands"), Source: "project"})
	}
	return out
}

// Load reads the commands of dirs. A name found in an earlier folder
// shadows the same name in later ones, and in one folder the file met
// first shadows a later one whose name differs only in case; each file
// shadowed so that is another prompt is a problem that names both. A
// file that cannot be read or named is a problem, with its file and
// line, and is skipped. Commands are sorted by name.
func Load(dirs []Dir) ([]Command, []string) {
	byName := map[string]Command{}
	var problems []string
	for _, d := range dirs {
		cmds, probs := loadDir(d)
		problems = append(problems, probs...)
		for _, c := range cmds {
			first, taken := byName[c.Name]
			switch {
			case !taken:
				byName[c.Name] = c
			case differ(first, c):
				problems = append(problems, shadowed(first, c))
			}
		}
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems
}

// differ reports whether later, shadowed by first, is another prompt and
// not a copy of it (one file kept in both .tack/commands and
// .claude/commands, for tack and Claude Code alike).
func differ(first, later Command) bool {
	a, errA := os.ReadFile(first.Path)
	b, errB := os.ReadFile(later.Path)
	return errA != nil || errB != nil || !bytes.Equal(a, b)
}

// shadowed is the problem of later, a command file that is first's
// command too.
func shadowed(first, later Command) string {
	why := ""
	if first.Source == "user" && later.Source == "project" {
		why = " (your own commands come before the project's, as in Claude Code)"
	}
	return fmt.Sprintf("%s and %s are both /%s, which runs the first%s; the second is ignored: rename one of them to have both",
		first.Path, later.Path, first.Name, why)
}

func loadDir(d Dir) ([]Command, []string) {
	var cmds []Command
	var problems []string
	err := filepath.WalkDir(d.Path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, fmt.Sprintf("%s: %v; its commands are skipped", p, err))
			}
			return nil
		}
		if e.IsDir() || !strings.EqualFold(filepath.Ext(p), ".md") {
			return nil
		}
		c, err := loadFile(d, p)
		if err != nil {
			problems = append(problems, err.Error()+"; the command is skipped")
			return nil
		}
		cmds = append(cmds, c)
		return nil
	})
	if err != nil {
		problems = append(problems, fmt.Sprintf("%s: %v", d.Path, err))
	}
	return cmds, problems
}

// front is a command file's front matter.
type front struct {
	Description  string            `yaml:"description"`
	ArgumentHint frontmatter.Text  `yaml:"argument-hint"`
	Model        frontmatter.Model `yaml:"model"`
	AllowedTools frontmatter.List  `yaml:"allowed-tools"`
	Arguments    frontmatter.List  `yaml:"arguments"`
}

func loadFile(d Dir, p string) (Command, error) {
	rel, _ := filepath.Rel(d.Path, p)
	if rel == "." { // d.Path is the file itself
		rel = filepath.Base(p)
	}
	name := d.Prefix + commandName(rel)
	if !commands.ValidName(name) {
		return Command{}, fmt.Errorf("%s: %q cannot name a command (use letters, digits, '_' and '-')", p, strings.TrimSuffix(rel, filepath.Ext(rel)))
	}
	var f front
	doc, err := frontmatter.ReadFile(p, maxFileSize, &f)
	if err != nil {
		return Command{}, err
	}
	body := strings.TrimSpace(doc.Body)
	if body == "" {
		return Command{}, fmt.Errorf("%s: the prompt is empty", p)
	}
	desc := strings.TrimSpace(f.Description)
	if desc == "" {
		desc = firstLine(body)
	}
	return Command{
		Name: name, Description: desc, ArgumentHint: string(f.ArgumentHint), Model: string(f.Model),
		AllowedTools: f.AllowedTools, Body: body, Dialect: d.Dialect, ArgumentNames: promptargs.Names(f.Arguments),
		Path: p, Source: d.Source,
	}, nil
}

// commandName is the command a file's path under its folder names:
// lowercase, subfolders joined with ':'.
func commandName(rel string) string {
	rel = strings.TrimSuffix(rel, filepath.Ext(rel))
	return strings.ToLower(strings.ReplaceAll(filepath.ToSlash(rel), "/", ":"))
}

// firstLine is the body's first line, cut near 80 characters, for a
// command without a description.
func firstLine(body string) string {
	line, _, _ := strings.Cut(body, "\n")
	line = strings.TrimSpace(strings.TrimLeft(line, "# "))
	if r := []rune(line); len(r) > 80 {
		line = string(r[:79]) + "…"
	}
	return line
}
