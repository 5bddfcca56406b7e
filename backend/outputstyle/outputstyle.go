// Package outputstyle reads Claude Code's output styles: Markdown files
// in .claude/output-styles (the project's) and ~/.claude/output-styles
// (the user's) whose text ends the system prompt, to set the agent's
// voice and format, and the built-in styles a settings file's
// "outputStyle" may name.
package outputstyle

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/frontmatter"
)

// Style is one output style.
type Style struct {
	// Name is the front matter's name, or the file's name without .md.
	Name        string
	Description string
	// Text is what the system prompt ends with.
	Text string
	// KeepCoding says the system prompt keeps its instructions for coding
	// work (keep-coding-instructions); without it, a custom style takes
	// their place, as in Claude Code.
	KeepCoding bool
	// Path is the file it came from; "" for a built-in style.
	Path string
}

// Default is the name of no style: tack's own system prompt.
const Default = "default"

// maxFile bounds a style file.
const maxFile = 64 << 10

// Find is the style name names, case aside: a file of dirs' first (the
// project's before the user's), else a built-in style. ok is false, with
// a problem saying what to do, when there is no such style; name "" or
// Default is no style, and not a problem.
func Find(dirs []string, name string) (style Style, ok bool, problem string) {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, Default) {
		return Style{}, false, ""
	}
	var problems []string
	for _, dir := range dirs {
		styles, probs := read(dir)
		problems = append(problems, probs...)
		if i := slices.IndexFunc(styles, func(s Style) bool { return strings.EqualFold(s.Name, name) }); i >= 0 {
			return styles[i], true, ""
		}
	}
	if i := slices.IndexFunc(builtins, func(s Style) bool { return strings.EqualFold(s.Name, name) }); i >= 0 {
		return builtins[i], true, ""
	}
	problems = append(problems, fmt.Sprintf("output style %q is neither a built-in style (%s) nor a file of %s; "+
		"the session uses tack's own style", name, strings.Join(names(builtins), ", "), strings.Join(dirs, " or ")))
	return Style{}, false, strings.Join(problems, "; ")
}

// read lists the styles of dir, in the order of their files' names, and
// the problems of those it cannot read.
func read(dir string) ([]Style, []string) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	slices.Sort(paths)
	var styles []Style
	var problems []string
	for _, path := range paths {
		var front struct {
			Name        string `yaml:"name"`
			Description string `yaml:"description"`
			KeepCoding  bool   `yaml:"keep-coding-instructions"`
		}
		doc, err := frontmatter.ReadFile(path, maxFile, &front)
		if err != nil {
			problems = append(problems, err.Error()+"; the style is skipped")
			continue
		}
		name := strings.TrimSpace(front.Name)
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(path), ".md")
		}
		styles = append(styles, Style{Name: name, Description: front.Description, Text: strings.TrimSpace(doc.Body),
			KeepCoding: front.KeepCoding, Path: path})
	}
	return styles, problems
}

// Prompt is the part of the system prompt the style adds at its end.
func (s Style) Prompt() string {
	return "\n\n# Output style: " + s.Name + "\n\n" + s.Text + "\n"
}

func names(styles []Style) []string {
	out := make([]string, len(styles))
	for i, s := range styles {
		out[i] = s.Name
	}
	return out
}

// builtins are the styles Claude Code ships beside its default, in
// tack's words. They keep the instructions for coding work.
var builtins = []Style{
	{Name: "Proactive", Description: "Act at once on reasonable assumptions", KeepCoding: true,
		Text: "Act on the task at once. Make reasonable assumptions rather than stopping for routine decisions, prefer " +
			"doing to planning, and ask only when a choice is the user's to make and costly to undo."},
	{Name: "Explanatory", Description: "Explain the choices and the codebase's patterns while working", KeepCoding: true,
		Text: "Teach as you work. Before and after you write code, add a short note headed \"★ Insight\" with two or " +
			"three points on the choices you made and the patterns of this codebase that matter. Keep the notes about " +
			"this code, not programming in general."},
	{Name: "Learning", Description: "Pair with the user, leaving small pieces for them to write", KeepCoding: true,
		Text: "Work with the user as a pair who is learning. Share short notes headed \"★ Insight\" on your choices. " +
			"Where a small piece of the work (5 to 10 lines: a key decision, a piece of logic) would teach the user " +
			"most, leave it to them: mark the place with a TODO(human) comment saying what to write, explain what it " +
			"should do, and wait for them to write it."},
	{Name: "Concise", Description: "Lead with the result, short answers", KeepCoding: true,
		Text: "Lead with the result. Skip preamble, narration and summaries of what you did, and keep answers short " +
			"unless the user asks for more, while doing the work as thoroughly as ever."},
}
