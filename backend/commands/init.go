package commands

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
)

// initPrompt asks the model for the repository's instructions file: what
// an agent new to it needs and cannot guess, as Claude Code's and codex's
// /init do. %FILE% and %NOW% are filled in by initTask.
const initPrompt = `Write %FILE% at the root of this repository: the guide an AI coding agent (or a new contributor) reads before working here. %NOW%

Look at the repository first: its README, build files (Makefile, package.json scripts, go.mod, pyproject.toml, Cargo.toml and the like), CI configuration, the layout of its sources and tests, and rules it already states (CONTRIBUTING, .cursorrules, .cursor/rules, .github/copilot-instructions.md, other AGENTS.md or CLAUDE.md files).

Then write, briefly and in Markdown:
- the commands to build, lint, run the whole test suite and a single test, as the repository really runs them;
- the architecture in a few lines: the main parts, how they fit together, and what takes more than one file to see;
- the conventions that differ from the usual defaults: style, naming, error handling, how tests are written;
- what to be careful with: generated files, slow or flaky tests, things never to commit.

Only what you found in the repository: no invented commands, no generic advice (such as "write good tests"), no list of every file. Keep it short enough to read in two minutes.`

// initCommand is /init: the model writes the repository's AGENTS.md, or
// improves the instructions file it has.
func initCommand() Command {
	return Command{
		Name: "init", Description: "Ask the model to write AGENTS.md, the repository's guide for agents (or improve the one there is)",
		Input: Input{Hint: "[what to focus on]"}, WhileRunning: true,
		Handler: withSession(func(ctx context.Context, inv Invocation, sa SessionAgent) Result {
			dir, focus := sa.Header().Cwd, strings.TrimSpace(inv.RawInput)
			return SendPrompt(ctx, inv, agent.TurnOptions{}, func(context.Context) (string, error) { return initTask(dir, focus) })
		}),
	}
}

// initTask is the prompt for the repository at dir, with focus (what the
// user asked to stress) after it. It names the file to write: AGENTS.md,
// read by tack, codex and most agents, unless the repository keeps its
// instructions in CLAUDE.md alone.
func initTask(dir, focus string) (string, error) {
	has := func(name string) (bool, error) {
		_, err := os.Stat(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	}
	agents, err := has("AGENTS.md")
	if err != nil {
		return "", err
	}
	claude, err := has("CLAUDE.md")
	if err != nil {
		return "", err
	}
	file, now := "AGENTS.md", "There is none yet."
	switch {
	case agents && claude:
		now = "AGENTS.md and CLAUDE.md exist already: read both, improve the one that holds the guidance and keep what is still true (the other may only point to it)."
	case agents:
		now = "AGENTS.md exists already: read it, improve it and keep what is still true."
	case claude:
		file, now = "CLAUDE.md", "CLAUDE.md exists already: read it, improve it and keep what is still true."
	}
	task := strings.NewReplacer("%FILE%", file, "%NOW%", now).Replace(initPrompt)
	if focus != "" {
		task += "\n\nThe user asks you to attend to this too: " + focus
	}
	return task, nil
}
