package commands

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/permission"
)

// WorkDirs are the directories a session works in, which /add-dir widens.
type WorkDirs interface {
	// Dirs are the workspace, then the directories added to it.
	Dirs() []string
	// Add lets the session work in dir (absolute, clean, an existing
	// directory) from now on: edits there count as the workspace's and
	// sandboxed commands may write there.
	Add(dir string)
}

// AddDirCommand is /add-dir PATH, Claude Code's command: it adds a
// directory to work in for the rest of the session (PATH relative to the
// workspace, ~ for userHome). It refuses $TACK_HOME (tackHome) and what
// lies in it, which hold the user's credentials.
func AddDirCommand(dirs WorkDirs, tackHome, userHome string) Command {
	return Command{
		Name: "add-dir", Description: "Add a directory to work in for the rest of the session",
		Input: Input{Hint: "<path>"}, WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			return addDir(dirs, strings.TrimSpace(inv.RawInput), tackHome, userHome)
		},
	}
}

func addDir(dirs WorkDirs, typed, tackHome, userHome string) Result {
	if typed == "" {
		return Fail("Please provide a directory path: /add-dir PATH (relative to the workspace; ~ is your home directory).")
	}
	all := dirs.Dirs()
	abs := config.ExpandHome([]string{typed}, userHome)[0]
	if typed == "~" && userHome != "" {
		abs = userHome
	}
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(all[0], abs)
	}
	abs = filepath.Clean(abs)
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Failf("Path %s was not found. Check the spelling, or create the directory first.", abs)
	case err != nil:
		return Failf("Cannot use %s: %v. Name a directory you can read.", abs, err)
	case !info.IsDir():
		return notADirectory(typed, filepath.Dir(abs), all)
	case tackHome != "" && permission.Covers(tackHome, abs):
		return Failf("%s is tack's home directory or lies in it (%s): it holds your credentials and sessions, "+
			"which tack keeps out of the model's and commands' reach. Name a directory outside it.", typed, tackHome)
	}
	if d, ok := covering(all, abs); ok {
		return Failf("%s is already accessible within the existing working directory %s; nothing to add.", typed, d)
	}
	dirs.Add(abs)
	text := fmt.Sprintf("Added %s as a working directory for this session. To keep it in later sessions, start tack "+
		"with --add-dir %s, or list it in permissions.additionalDirectories of ~/.claude/settings.json.", abs, abs)
	if userHome != "" && permission.Covers(abs, userHome) {
		text += "\nWarning: it holds your whole home directory, so sandboxed commands may now write anywhere in it " +
			"(tack's home stays hidden, shell start-up files and git hooks read-only). Start a new session " +
			"(/new) to work without it."
	}
	return Succeed(text)
}

// notADirectory is /add-dir's answer to a file: add its directory, unless
// the session can reach that already.
func notADirectory(typed, parent string, dirs []string) Result {
	if d, ok := covering(dirs, parent); ok {
		return Failf("%s is not a directory, and it lies in the existing working directory %s; nothing to add.", typed, d)
	}
	return Failf("%s is not a directory. Did you mean to add the parent directory %s? Type /add-dir %s", typed, parent, parent)
}

// covering is the first of dirs that path lies in.
func covering(dirs []string, path string) (string, bool) {
	for _, d := range dirs {
		if permission.Covers(d, path) {
			return d, true
		}
	}
	return "", false
}
