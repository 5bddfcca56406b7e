package prompt

import (
	"os"
	"path/filepath"
	"strings"
)

// Claude Code's CLAUDE.md files import others: "@docs/style.md" outside
// code brings that file into the instructions, relative to the file that
// names it, up to five hops deep. tack reads the imports of a CLAUDE.md
// it uses the same way, each as an instruction of its own right after the
// file that imports it; "~/" names the user's home. Only files inside the
// tree the CLAUDE.md belongs to (its repository, or the user's folder it
// was read from) are read, symbolic links resolved: a
// cloned repository whose CLAUDE.md imports "@~/.ssh/id_rsa" would
// otherwise send the key to the model. A name that is no such file (an
// @-mention of a person, a file elsewhere) stays text.

// maxImportDepth is how many hops of imports are followed.
const maxImportDepth = 5

// importing is the imports of a CLAUDE.md being read: the tree they must
// stay in, the user's home that "~/" names, and the files already taken.
type importing struct {
	root, home string
	seen       map[string]bool
}

// withImports is in followed by the files it imports from inside root,
// depth first in the order they are named, each once, when in is a
// CLAUDE.md; else in alone. "~/" in a name is userHome.
func withImports(in Instruction, root, userHome string) []Instruction {
	if base := filepath.Base(in.Path); base != "CLAUDE.md" && base != "CLAUDE.local.md" {
		return []Instruction{in}
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return []Instruction{in}
	}
	im := importing{root: real, home: userHome, seen: map[string]bool{}}
	if p, err := filepath.EvalSymlinks(in.Path); err == nil {
		im.seen[p] = true
	}
	return append([]Instruction{in}, im.follow(in, 1)...)
}

// follow is what in imports, and what those import, from depth on.
func (im importing) follow(in Instruction, depth int) []Instruction {
	if depth > maxImportDepth {
		return nil
	}
	var out []Instruction
	for _, name := range importNames(in.Text) {
		path, ok := im.resolve(filepath.Dir(in.Path), name)
		if !ok {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		imported := Instruction{Path: path, Text: string(b)}
		out = append(out, imported)
		out = append(out, im.follow(imported, depth+1)...)
	}
	return out
}

// resolve is the file name names from dir, when it is a regular file in
// the tree not taken yet (and is now taken).
func (im importing) resolve(dir, name string) (string, bool) {
	if rest, ok := strings.CutPrefix(name, "~/"); ok && im.home != "" {
		name = filepath.Join(im.home, rest)
	} else if strings.HasPrefix(name, "~") {
		return "", false
	}
	for _, candidate := range []string{name, strings.TrimRight(name, ".,;:!?)")} {
		path := candidate
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(im.root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false
		}
		if info, err := os.Stat(real); err != nil || !info.Mode().IsRegular() || im.seen[real] {
			return "", false
		}
		im.seen[real] = true
		return filepath.Clean(path), true
	}
	return "", false
}

// importNames are the @names of text outside fenced code blocks and code
// spans, where the @ starts a line or follows white space.
func importNames(text string) []string {
	var out []string
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if f := fenceOf(trimmed); f != "" {
			fence = f
			continue
		}
		for i, span := range strings.Split(line, "`") {
			if i%2 == 1 {
				continue // inside a code span
			}
			for _, word := range strings.Fields(span) {
				if name, ok := strings.CutPrefix(word, "@"); ok && name != "" {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// fenceOf is the fence a line opens a code block with, or "".
func fenceOf(line string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, f) {
			return f
		}
	}
	return ""
}
