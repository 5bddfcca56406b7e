package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/frontmatter"
)

// rules are the Markdown files of a Claude Code rules folder
// (.claude/rules, ~/.claude/rules, and the folders below), by path: those
// for every file first, then those whose front matter's paths scope them
// to some files.
type rules struct {
	always, scoped []Instruction
}

// readRules reads the rules under dir/.claude/rules; none when there is no
// such folder. A rule whose front matter cannot be read is taken whole,
// for every file.
func readRules(dir string) (rules, error) {
	var r rules
	if dir == "" {
		return r, nil
	}
	root := filepath.Join(dir, ".claude", "rules")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && path == root:
			return fs.SkipAll
		case err != nil:
			return err
		case d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md"):
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var front struct {
			Paths frontmatter.List `yaml:"paths"`
		}
		doc, err := frontmatter.Parse(src, &front)
		if err != nil {
			r.always = append(r.always, Instruction{Path: path, Text: string(src)})
			return nil
		}
		in := Instruction{Path: path, Text: doc.Body, Paths: front.Paths}
		if len(in.Paths) > 0 {
			r.scoped = append(r.scoped, in)
		} else {
			r.always = append(r.always, in)
		}
		return nil
	})
	if err != nil {
		return rules{}, fmt.Errorf("read Claude Code rules in %s: %w; make them readable files or remove them", root, err)
	}
	byPath := func(a, b Instruction) int { return strings.Compare(a.Path, b.Path) }
	slices.SortFunc(r.always, byPath)
	slices.SortFunc(r.scoped, byPath)
	return r, nil
}
