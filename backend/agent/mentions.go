package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/mention"
	"github.com/tack-agent/tack/backend/tools"
)

// MentionsOrigin marks the context that brings what a prompt's @mentions
// name.
const MentionsOrigin = "@ mentions"

// maxFolderEntries bounds the listing of a mentioned folder.
const maxFolderEntries = 200

// mentioned reads what a prompt's or a steering message's @mentions name
// inside the workspace, as Claude Code attaches them to a message: a file through the read tool,
// so it counts as read and edit takes it without another read (a #L3-5
// suffix reads those lines), a folder as its entries. Images are
// attach's. A mention of what is not there, of what lies outside the
// workspace or of what the permission gate refuses stays text, for the
// model to read or not. It returns the context to add, "" for none.
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
		info, err := os.Stat(ref.Name)
		switch {
		case err != nil:
		case info.IsDir():
			names = append(names, display(a.cfg.Cwd, ref.Name)+"/")
			parts = append(parts, a.folderEntries(ref.Name))
		case info.Mode().IsRegular():
			if part := a.readMentioned(ctx, turn, ref); part != "" {
				names = append(names, display(a.cfg.Cwd, ref.Name))
				parts = append(parts, part)
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	// The first line is for the user as well: the transcript shows it
	// while the context is folded.
	return "Mentioned with @: " + strings.Join(names, ", ") + ". tack read them here, so there is no need to read " +
		"them again.\n\n" + strings.Join(parts, "\n\n")
}

// readMentioned runs the read tool on a mentioned file, as the model's
// own call would run, and returns its text under a line naming the file;
// "" when the gate refuses the read or it fails.
func (a *Agent) readMentioned(ctx context.Context, turn int, ref mention.Ref) string {
	read, ok := a.cfg.Tools.Get("read")
	if !ok {
		return ""
	}
	args := map[string]any{"file_path": ref.Name}
	if ref.Line > 0 {
		args["offset"], args["limit"] = ref.Line, ref.End-ref.Line+1
	}
	raw, _ := json.Marshal(args)
	call := tools.Call{ID: fmt.Sprintf("mention_%d", turn), Args: raw, Turn: turn, Env: a.toolEnv()}
	if a.cfg.Gate != nil {
		grant, err := a.cfg.Gate.Authorize(ctx, read, call)
		if err != nil {
			return ""
		}
		call.Sandbox = grant
	}
	r := read.Run(ctx, call)
	if r.Failed() {
		return ""
	}
	return "read " + display(a.cfg.Cwd, ref.Name) + "\n" + r.Text
}

// folderEntries lists a mentioned folder as ls does: its entries but the
// hidden ones, in order, a folder's with a slash.
func (a *Agent) folderEntries(dir string) string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.IsDir() {
			names = append(names, e.Name()+"/")
		} else {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	head := "folder " + display(a.cfg.Cwd, dir) + "/"
	if len(names) > maxFolderEntries {
		more := len(names) - maxFolderEntries
		names = append(names[:maxFolderEntries], fmt.Sprintf("… and %d more", more))
	}
	if len(names) == 0 {
		return head + " (empty)"
	}
	return head + "\n" + strings.Join(names, "\n")
}

// inWorkspace reports whether path is cwd or below it.
func inWorkspace(path, cwd string) bool {
	rel, err := filepath.Rel(cwd, path)
	return err == nil && filepath.IsLocal(rel)
}
