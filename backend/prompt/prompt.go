// Package prompt assembles the system prompt: a short coding-agent brief,
// each tool's guidance paragraph, and the project instructions found in
// AGENTS.md (or CLAUDE.md) files. The result is byte-stable for a given
// workspace so the provider's prompt cache keeps hitting across steps and
// resumes: it holds no timestamps or counters.
package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// MaxInstructions caps the project instructions included in the prompt.
const MaxInstructions = 64 << 10

// The brief's parts. An output style leaves out the sentence on answers'
// length, and a custom one the coding work's too, unless it keeps them
// (Brief).
const (
	briefIdentity = "You are tack, a coding agent working in the user's terminal, in the workspace %s."
	briefWork     = "Work the task through with the tools: read before you change, make focused edits, and verify your work by running the code or its tests."
	briefConcise  = "Keep answers brief and factual, in Markdown."
	briefAsk      = "When a request is ambiguous or risky, ask with ask_user_question instead of guessing. Plan multi-step work with todo_write and keep the plan current."
	briefMentions = "Paths prefixed with @ are files explicitly referenced by the user: tack reads those in the workspace into the message, after it. Use the read tool for any other whose contents are needed; do not claim to have inspected a file before reading it."
)

// Brief is tack's brief for the workspace cwd: with concise, the sentence
// asking for brief answers; with coding, the instructions for coding
// work. Build's default has both.
func Brief(cwd string, concise, coding bool) string {
	var work []string
	if coding {
		work = append(work, briefWork)
	}
	if concise {
		work = append(work, briefConcise)
	}
	if coding {
		work = append(work, briefAsk)
	}
	paragraphs := []string{fmt.Sprintf(briefIdentity, cwd)}
	if len(work) > 0 {
		paragraphs = append(paragraphs, strings.Join(work, " "))
	}
	return strings.Join(append(paragraphs, briefMentions), "\n\n")
}

// Build returns the system prompt for the workspace cwd with the given
// tools and instruction files. own, when set, takes the place of tack's
// brief (claude -p's --system-prompt): the tools' guidance and the
// project instructions still follow it.
func Build(own, cwd string, ts []tools.Tool, instructions []Instruction) string {
	var b strings.Builder
	if own != "" {
		b.WriteString(strings.TrimSpace(own))
	} else {
		b.WriteString(Brief(cwd, true, true))
	}
	var guide []string
	for _, t := range ts {
		if g := t.Spec().Guidance; g != "" {
			guide = append(guide, "- "+t.Spec().Name+": "+g)
		}
	}
	if len(guide) > 0 {
		b.WriteString("\n\n# Tools\n\n")
		b.WriteString(strings.Join(guide, "\n"))
	}
	if len(instructions) > 0 {
		b.WriteString("\n\n# Project instructions\n\nThe following instructions from the user's files apply to this workspace; " +
			"those with applies_to only to the files its globs match (relative to the folder that holds .claude).\n")
		for _, in := range instructions {
			scope := ""
			if len(in.Paths) > 0 {
				scope = fmt.Sprintf(" applies_to=%q", strings.Join(in.Paths, ", "))
			}
			fmt.Fprintf(&b, "\n<instructions path=%q%s>\n%s\n</instructions>\n", in.Path, scope, strings.TrimRight(in.Text, "\n"))
		}
	}
	return b.String()
}

// Instruction is one instructions file and its text.
type Instruction struct {
	Path string
	Text string
	// Paths scope a Claude Code rule to the files these globs match
	// (relative to the folder that holds .claude); none: every file.
	Paths []string
}

// FindInstructions collects AGENTS.md (or CLAUDE.md where a directory has no
// AGENTS.md; see readDir) from the user's folder, then from the repository root down to
// cwd, each followed by the directory's CLAUDE.local.md and Claude Code
// rules (.claude/rules), and each CLAUDE.md by the files it imports (see
// withImports). The user's folder is the first of h's that has a file
// (see Homes), so a user's own instructions come along; the user's rules
// (~/.claude/rules) follow them. Rules scoped to some files come last,
// after all the rest. The total is capped at MaxInstructions; what is
// cut is replaced by a notice.
func FindInstructions(h Homes, cwd string) ([]Instruction, error) {
	var found, scoped []Instruction
	userHome := h.User
	for _, d := range h.dirs() {
		in, ok, err := readDir(d)
		if err != nil {
			return nil, err
		}
		if ok {
			found = withImports(in, d, userHome)
			break
		}
	}
	addRules := func(dir string) error {
		r, err := readRules(dir)
		found, scoped = append(found, r.always...), append(scoped, r.scoped...)
		return err
	}
	if err := addRules(userHome); err != nil {
		return nil, err
	}
	chain := workspace.ProjectChain(cwd)
	slices.Reverse(chain) // the root first, cwd last
	for _, d := range chain {
		for _, read := range []func(string) (Instruction, bool, error){readDir, readLocal} {
			in, ok, err := read(d)
			if err != nil {
				return nil, err
			}
			if ok {
				found = append(found, withImports(in, chain[0], userHome)...)
			}
		}
		if d == userHome {
			continue // its rules are the user's, read above
		}
		if err := addRules(d); err != nil {
			return nil, err
		}
	}
	found = append(found, scoped...)
	var out []Instruction
	total := 0
	for _, in := range found {
		if total+len(in.Text) > MaxInstructions {
			keep := max(MaxInstructions-total, 0)
			in.Text = strings.ToValidUTF8(in.Text[:keep], "") +
				fmt.Sprintf("\n[instructions cut: over %d KB in total; the rest of %s and later files were left out]", MaxInstructions>>10, in.Path)
			return append(out, in), nil
		}
		total += len(in.Text)
		out = append(out, in)
	}
	return out, nil
}

// readLocal reads dir's CLAUDE.local.md, the instructions Claude Code
// users keep for themselves beside a project's (and out of git).
func readLocal(dir string) (Instruction, bool, error) { return readFirst(dir, "CLAUDE.local.md") }

// Homes are the folders a user's own instructions may be in.
type Homes struct {
	Tack  string // TACK_HOME
	Codex string // codex's folder: $CODEX_HOME, else ~/.codex
	User  string // the user's home, where Claude Code keeps ~/.claude
}

// dirs are h's folders in the order they are tried, first wins: tack's,
// codex's, Claude Code's.
func (h Homes) dirs() []string {
	dirs := []string{h.Tack, h.Codex}
	if h.User != "" {
		dirs = append(dirs, filepath.Join(h.User, ".claude"))
	}
	return dirs
}

// readDir reads dir's instructions: codex's AGENTS.override.md, else
// AGENTS.md, else CLAUDE.md, else .claude/CLAUDE.md, where Claude Code
// also looks.
func readDir(dir string) (Instruction, bool, error) {
	return readFirst(dir, "AGENTS.override.md", "AGENTS.md", "CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"))
}

// readFirst reads the first of names in dir that is there.
func readFirst(dir string, names ...string) (Instruction, bool, error) {
	if dir == "" {
		return Instruction{}, false, nil
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Instruction{}, false, fmt.Errorf("read project instructions %s: %w; make it a readable file or remove it", p, err)
		}
		return Instruction{Path: p, Text: string(b)}, true, nil
	}
	return Instruction{}, false, nil
}
