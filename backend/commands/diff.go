package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/tools/fs"
)

// Differ is an agent that can compare the workspace with its checkpoints
// (*agent.Agent).
type Differ interface {
	Diff(ctx context.Context, turn int) ([]checkpoint.FileChange, error)
}

// maxDiffFiles bounds the files one /diff card shows.
const maxDiffFiles = 200

// DiffCommand is /diff: what the session changed in the workspace since
// its first checkpoint, or since turn N, as the diff cards edits show.
func DiffCommand() Command {
	return Command{
		Name: "diff", Description: "Show what the session changed in the workspace (since turn N)",
		Input: Input{Hint: "[N]"},
		Handler: func(ctx context.Context, inv Invocation) Result {
			d, ok := inv.Agent.(Differ)
			if !ok {
				return Fail("/diff needs an agent that keeps checkpoints.")
			}
			turn := 0
			if arg := strings.TrimSpace(inv.RawInput); arg != "" {
				n, err := strconv.Atoi(arg)
				if err != nil || n <= 0 {
					return Fail("Usage: /diff [N]")
				}
				turn = n
			}
			changes, err := d.Diff(ctx, turn)
			if err != nil {
				return Failf("No diff: %v", err)
			}
			since := "since the session's first checkpoint"
			if turn > 0 {
				since = fmt.Sprintf("since turn %d began", turn)
			}
			if len(changes) == 0 {
				return Succeed("No changes " + since + ".")
			}
			c := diffCard(changes)
			c.Title = "Changes " + since
			return Result{Kind: Success, Text: diffSummary(since, c, len(changes)), Cards: []card.Card{c}}
		},
	}
}

// diffCard is one diff card of the changed files.
func diffCard(changes []checkpoint.FileChange) card.Card {
	c := card.Card{Kind: card.Diff}
	for i, ch := range changes {
		if i == maxDiffFiles {
			c.Truncated = true
			break
		}
		name := ch.Path
		switch {
		case ch.Symlink:
			name += " (symbolic link)"
		case ch.After == nil:
			name += " (deleted)"
		}
		if fs.Binary(ch.Before) || fs.Binary(ch.After) {
			c.Diffs = append(c.Diffs, card.FileDiff{Path: fmt.Sprintf("%s (binary, %d → %d bytes)", name, len(ch.Before), len(ch.After)),
				Created: ch.Before == nil})
			continue
		}
		c.Diffs = append(c.Diffs, fs.FileDiff(name, string(ch.Before), string(ch.After), ch.Before == nil))
	}
	return c
}

// diffSummary is the line above the card: files and lines changed.
func diffSummary(since string, c card.Card, files int) string {
	added, removed := 0, 0
	for _, d := range c.Diffs {
		added += d.Added
		removed += d.Removed
	}
	more := ""
	if c.Truncated {
		more = fmt.Sprintf(" (the first %d shown)", maxDiffFiles)
	}
	return fmt.Sprintf("Changes %s: %s%s, +%d −%d.", since, plural(files, "file"), more, added, removed)
}
