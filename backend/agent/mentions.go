package agent

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/mention"
	"github.com/tack-agent/tack/backend/tools"
)

// MentionsOrigin marks the context that brings what a prompt's @mentions
// name.
const MentionsOrigin = "@ mentions"

// mentioned reads the files a prompt's or a steering message's @mentions
// name inside the workspace, as Claude Code attaches them to a message:
// through the read tool, so each counts as read and edit takes it
// without another read (a #L3-5 suffix reads those lines). Images are
// attach's. A mention of what is not there, of a folder, of what lies
// outside the workspace or of what the permission gate refuses stays
// text, for the model to look at or not: a folder's listing would show
// the names of files a deny rule hides (Claude Code lists it).
// It returns the context to add, "" for none.
func (a *Agent) mentioned(ctx context.Context, turn int, prompt string) string {
	var names, parts []string
	seen := map[mention.Ref]bool{}
	for _, ref := range mention.Find(prompt) {
		if images.IsImageName(ref.Name) {
			continue
		}
		path := ref.Name
		if !filepath.IsAbs(path) {
			path = filepath.Join(a.cfg.Cwd, path)
		}
		ref.Name = filepath.Clean(path)
		if seen[ref] || !inWorkspace(ref.Name, a.cfg.Cwd) {
			continue
		}
		seen[ref] = true
		if info, err := os.Stat(ref.Name); err != nil || !info.Mode().IsRegular() {
			continue
		}
		if part := a.readMentioned(ctx, turn, ref); part != "" {
			names = append(names, display(a.cfg.Cwd, ref.Name))
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	// The first line is for the user as well: the transcript shows it
	// while the context is folded.
	return "Mentioned with @ and read here, so there is no need to read again: " + strings.Join(names, ", ") + "\n\n" +
		strings.Join(parts, "\n\n")
}

// readMentioned runs the read tool on a mentioned file, as the model's
// own call would run, and returns its text under a line naming the file;
// "" when the gate refuses the read or it fails.
func (a *Agent) readMentioned(ctx context.Context, turn int, ref mention.Ref) string {
	var window map[string]any
	if ref.Line > 0 {
		window = map[string]any{"offset": ref.Line, "limit": ref.End - ref.Line + 1}
	}
	call, ok := a.authorizeRead(ctx, turn, ref.Name, window)
	if !ok {
		return ""
	}
	read, _ := a.cfg.Tools.Get("read")
	r := read.Run(ctx, call)
	if r.Failed() {
		return ""
	}
	return "read " + display(a.cfg.Cwd, ref.Name) + "\n" + r.Text
}

// authorizeRead is the read tool's call of path (with more arguments) as
// the permission gate grants it, as for the model's own call; ok is false
// without a read tool or when the gate refuses it (a deny rule).
func (a *Agent) authorizeRead(ctx context.Context, turn int, path string, more map[string]any) (tools.Call, bool) {
	read, ok := a.cfg.Tools.Get("read")
	if !ok {
		return tools.Call{}, false
	}
	args := map[string]any{"file_path": path}
	maps.Copy(args, more)
	raw, _ := json.Marshal(args)
	call := tools.Call{ID: "mention_" + strconv.Itoa(turn) + "_" + display(a.cfg.Cwd, path), Args: raw, Turn: turn, Env: a.toolEnv()}
	if a.cfg.Gate != nil {
		grant, err := a.cfg.Gate.Authorize(ctx, read, call)
		if err != nil {
			return tools.Call{}, false
		}
		call.Sandbox = grant
	}
	return call, true
}

// inWorkspace reports whether path is cwd or below it.
func inWorkspace(path, cwd string) bool {
	rel, err := filepath.Rel(cwd, path)
	return err == nil && filepath.IsLocal(rel)
}
