package skills

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the tool, as
// tools.ProseFile reads it.
//
//go:embed tool.md
var specFiles embed.FS

// ToolName is the model's tool for loading a skill.
const ToolName = "skill"

// maxListedFiles bounds the files of a skill's folder named to the model.
const maxListedFiles = 50

// Tool loads a skill's instructions for the model.
type Tool struct{ catalog *Catalog }

// NewTool makes the skill tool over the catalog.
func NewTool(c *Catalog) *Tool { return &Tool{catalog: c} }

var _ tools.Tool = (*Tool)(nil)

// toolProse is what the model is told about the tool, from tool.md.
var toolProse = tools.ProseFile(specFiles, "tool.md")

// Spec describes the tool.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name:         ToolName,
		Description:  toolProse().Description,
		Schema:       json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"The skill's name, as listed"}},"required":["name"],"additionalProperties":false}`),
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

type args struct {
	Name string `json:"name"`
}

// Present is the card: "Load skill NAME".
func (t *Tool) Present(raw json.RawMessage) card.Card {
	var a args
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Generic, Title: "Load skill " + a.Name, Label: "Skill", Subject: a.Name}
}

// Run returns the skill's body, its folder and the files in it.
func (t *Tool) Run(_ context.Context, call tools.Call) tools.Result {
	var a args
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	s, ok := t.catalog.Find(strings.TrimSpace(a.Name))
	if !ok || !s.ModelInvocable {
		return tools.InvalidArgs("unknown skill %q; the skills you may load are: %s", a.Name, strings.Join(t.names(), ", "))
	}
	body, err := s.Body()
	if err != nil {
		return tools.Errorf("cannot read skill %s: %v", s.Name, err)
	}
	text := fmt.Sprintf("<skill_content name=%q>\n%s\n</skill_content>\n<skill_resources>\n%s\n</skill_resources>",
		s.Name, body, resources(s))
	return tools.Result{Text: text, Card: &card.Card{Kind: card.Generic, Title: "Load skill " + s.Name, Label: "Skill", Subject: s.Name, Body: s.Dir}}
}

func (t *Tool) names() []string {
	var out []string
	for _, s := range t.catalog.Skills {
		if s.ModelInvocable {
			out = append(out, s.Name)
		}
	}
	if len(out) == 0 {
		return []string{"(none)"}
	}
	return out
}

// resources says where the skill's files are and lists them.
func resources(s Skill) string {
	var files []string
	more := 0
	_ = filepath.WalkDir(s.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == s.Dir {
			return nil
		}
		if e.IsDir() && strings.HasPrefix(e.Name(), ".") {
			return filepath.SkipDir
		}
		if e.IsDir() || e.Name() == FileName {
			return nil
		}
		if len(files) == maxListedFiles {
			more++
			return nil
		}
		rel, _ := filepath.Rel(s.Dir, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	text := "The skill's folder is " + s.Dir + "; paths in it are relative to that folder: read them with the read tool as " +
		filepath.Join(s.Dir, "<path>") + "."
	if len(files) > 0 {
		text += "\nFiles: " + strings.Join(files, ", ")
		if more > 0 {
			text += fmt.Sprintf(" and %d more", more)
		}
	}
	return text
}
