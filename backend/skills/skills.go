// Package skills finds Agent Skills: folders holding a SKILL.md whose
// front matter names the skill and says when to use it, and whose body is
// the instructions. Only the names and descriptions go into the system
// prompt; the model loads a skill's body with the skill tool when a task
// calls for it (and reads the skill's other files relative to its folder),
// or the user loads one with /skill:NAME.
package skills

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/frontmatter"
	"github.com/tack-agent/tack/backend/workspace"
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// Limits of what is read.
const (
	maxFileSize    = 512 << 10
	maxDescription = 1024
	maxSkills      = 200
)

// Skill is one skill.
type Skill struct {
	Name        string
	Description string
	// Dir is the skill's folder; its other files are relative to it.
	Dir string
	// Source is "project" or "user".
	Source string
	// ModelInvocable skills are listed for the model; UserInvocable ones
	// are /skill:NAME commands.
	ModelInvocable bool
	UserInvocable  bool
}

// Path is the skill's SKILL.md.
func (s Skill) Path() string { return filepath.Join(s.Dir, FileName) }

// Body reads the skill's instructions (the text after its front matter).
// It is read when used, so an edit shows at the next use.
func (s Skill) Body() (string, error) {
	doc, err := frontmatter.ReadFile(s.Path(), maxFileSize, &front{})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(doc.Body), nil
}

// Dir is a folder of skill folders and whose it is. Prefix starts the
// names of its skills: a plugin's are PLUGIN:NAME.
type Dir struct {
	Path   string
	Source string
	Prefix string
}

// Dirs are the folders skills are found in, first wins: the user's
// $TACK_HOME/skills, ~/.agents/skills, ~/.claude/skills and codex's
// skills in codexHome, then the project's .tack/skills, .agents/skills
// and .claude/skills (in cwd and each parent up to the repository root).
// The user's come first as in Claude Code, where a personal skill
// overrides a project's of its name, and as tack's commands do: a
// repository cannot take over a skill the user made their own.
func Dirs(tackHome, userHome, codexHome, cwd string) []Dir {
	var out []Dir
	if tackHome != "" {
		out = append(out, Dir{Path: filepath.Join(tackHome, "skills"), Source: "user"})
	}
	if userHome != "" {
		out = append(out, Dir{Path: filepath.Join(userHome, ".agents", "skills"), Source: "user"},
			Dir{Path: filepath.Join(userHome, ".claude", "skills"), Source: "user"})
	}
	if codexHome != "" {
		out = append(out, Dir{Path: filepath.Join(codexHome, "skills"), Source: "user"})
	}
	for _, d := range workspace.ProjectChain(cwd) {
		for _, sub := range []string{".tack", ".agents", ".claude"} {
			out = append(out, Dir{Path: filepath.Join(d, sub, "skills"), Source: "project"})
		}
	}
	return out
}

// front is a SKILL.md's front matter: the Agent Skills fields, and Claude
// Code's invocation switches.
type front struct {
	Name                   string `yaml:"name"`
	Description            string `yaml:"description"`
	DisableModelInvocation bool   `yaml:"disable-model-invocation"`
	UserInvocable          *bool  `yaml:"user-invocable"`
	// Arguments name the words a /NAME invocation's input fills $NAME
	// with, as in Claude Code.
	Arguments frontmatter.List `yaml:"arguments"`
}

// Catalog is the skills of a session, sorted by name.
type Catalog struct {
	Skills []Skill
}

// Find returns the skill called name.
func (c *Catalog) Find(name string) (Skill, bool) {
	for _, s := range c.Skills {
		if s.Name == name {
			return s, true
		}
	}
	return Skill{}, false
}

// Load finds the skills of dirs. A name found in an earlier folder shadows
// it in later ones; where both are of one source (two of the project's
// folders) and differ, that is a problem. A SKILL.md that cannot be used
// is a problem, with its file and line, and is skipped; past maxSkills,
// the rest are skipped and reported once.
func Load(dirs []Dir) (*Catalog, []string) {
	seen := map[string]Skill{}
	c := &Catalog{}
	var problems, over []string
	for _, d := range dirs {
		entries, err := os.ReadDir(d.Path)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				problems = append(problems, fmt.Sprintf("%s: %v; its skills are skipped", d.Path, err))
			}
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(d.Path, e.Name())
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				continue // a file, or a broken link
			}
			if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
				continue
			}
			s, err := loadSkill(dir, d.Source)
			s.Name = d.Prefix + s.Name
			first, shadowed := seen[s.Name]
			switch {
			case err != nil:
				problems = append(problems, err.Error()+"; the skill is skipped")
			case shadowed:
				if clash(first, s) {
					problems = append(problems, fmt.Sprintf("%s and %s are both the %s skill of the %s; the first is used: rename the other's folder",
						first.Dir, s.Dir, s.Name, s.Source))
				}
			case len(c.Skills) == maxSkills:
				over = append(over, dir)
			default:
				seen[s.Name] = s
				c.Skills = append(c.Skills, s)
			}
		}
	}
	if len(over) > 0 {
		problems = append(problems, fmt.Sprintf("more than %d skills: %d are skipped, from %s on; "+
			"move the skills you do not use out of the skills folders", maxSkills, len(over), over[0]))
	}
	sort.Slice(c.Skills, func(i, j int) bool { return c.Skills[i].Name < c.Skills[j].Name })
	return c, problems
}

// clash reports whether later, shadowed by first of its name, is another
// skill where the user would not expect one to hide the other: of the same
// source, and not a copy of it (installers put one skill in both
// .agents/skills and .claude/skills).
func clash(first, later Skill) bool {
	if first.Source != later.Source {
		return false
	}
	a, errA := os.ReadFile(first.Path())
	b, errB := os.ReadFile(later.Path())
	return errA != nil || errB != nil || !bytes.Equal(a, b)
}

func loadSkill(dir, source string) (Skill, error) {
	p := filepath.Join(dir, FileName)
	var f front
	doc, err := frontmatter.ReadFile(p, maxFileSize, &f)
	if err != nil {
		return Skill{}, err
	}
	// A skill is known by its folder's name, as in Claude Code, where the
	// front matter's name is only shown ("name: Agent Development" in
	// Anthropic's own plugin-dev skills) and two folders of one name in
	// their front matter are two skills. The front matter's name serves
	// only a folder whose name cannot be typed.
	name := filepath.Base(dir)
	if display := strings.TrimSpace(f.Name); !validName(name) && validName(display) {
		name = display
	}
	if !validName(name) {
		return Skill{}, fmt.Errorf("%s: name %q is not a skill name (lowercase letters, digits, '-' and '.', at most 64)", p, name)
	}
	desc := strings.Join(strings.Fields(f.Description), " ")
	if desc == "" {
		desc = strings.Join(strings.Fields(firstParagraph(doc.Body)), " ")
	}
	if desc == "" {
		return Skill{}, fmt.Errorf("%s: no description, and no paragraph of text to take one from; add one to the front matter saying when to use the skill", p)
	}
	if r := []rune(desc); len(r) > maxDescription {
		desc = string(r[:maxDescription-1]) + "…"
	}
	return Skill{
		Name: name, Description: desc, Dir: dir, Source: source,
		ModelInvocable: !f.DisableModelInvocation, UserInvocable: f.UserInvocable == nil || *f.UserInvocable,
	}, nil
}

// firstParagraph is the first paragraph of a Markdown body, headings
// passed over: what Claude Code lists for a skill whose front matter has
// no description.
func firstParagraph(body string) string {
	var para []string
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" && len(para) > 0:
			return strings.Join(para, " ")
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			para = append(para, line)
		}
	}
	return strings.Join(para, " ")
}

// validName reports whether n may name a skill: the Agent Skills names,
// and names of words joined by '.' (research.paper.draft), which Claude
// Code loads too; either can be typed as a command.
func validName(n string) bool {
	if n == "" || len(n) > 64 || n[0] == '-' || n[len(n)-1] == '-' || strings.Contains(n, ":") {
		return false
	}
	for i := 0; i < len(n); i++ {
		b := n[i]
		if !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.') {
			return false
		}
	}
	return commands.ValidName(n)
}

// Prompt is the system prompt's skills section: each skill the model may
// load, with its description. It is the same bytes for the same skills, so
// it never breaks the provider's prompt cache.
func (c *Catalog) Prompt() string {
	var lines []string
	for _, s := range c.Skills {
		if s.ModelInvocable {
			lines = append(lines, "- "+s.Name+": "+s.Description)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "\n\n# Skills\n\nSkills are folders of instructions for particular tasks. When a task matches a skill's " +
		"description, load the skill with the skill tool before you start, and follow it.\n\n" + strings.Join(lines, "\n")
}
