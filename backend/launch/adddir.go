package launch

import (
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/session"
)

// AddDirOrigin names the context that tells the model of the directories
// /add-dir added.
const AddDirOrigin = "add-dir"

// sessionDirs are the directories the session works in, as /add-dir reads
// and widens them.
type sessionDirs struct {
	s *Session

	mu sync.Mutex
	// added are the directories /add-dir added in this process, in order.
	added []string
}

// Dirs are the workspace, then the directories of --add-dir, the user's
// settings and /add-dir.
func (w *sessionDirs) Dirs() []string { return append([]string{w.s.Cwd}, w.s.Policy.Dirs()...) }

// Add has the policy count dir as the workspace, the sandbox let later
// commands write there and the MCP servers have it as a root, and tells
// the model at its next request.
// The system prompt, which names the directories of the session's start,
// stays as it is, so the provider's prompt cache still serves it; the
// model reads of dir as context in the conversation instead.
func (w *sessionDirs) Add(dir string) {
	w.s.Policy.AddDir(dir)
	w.s.Sandbox.AddWritable(dir)
	if w.s.MCP != nil {
		w.s.MCP.AddRoot(dir)
	}
	w.mu.Lock()
	before := addDirNotice(w.added)
	w.added = append(w.added, dir)
	after := addDirNotice(w.added)
	w.mu.Unlock()
	w.s.Agent.Note(AddDirOrigin, before, after)
}

// addDirNotice is what the model reads of the directories /add-dir added;
// each notice lists them all, so that one replacing another not yet read
// loses none.
func addDirNotice(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return "The user added these directories to work in for the rest of this run of tack (/add-dir): " +
		strings.Join(dirs, ", ") + ". Read and edit files there, and run commands that write there, as in the workspace."
}

// addDirsForgotten is what the model of a resumed session reads when the
// directories its earlier run added are not added now.
const addDirsForgotten = "tack was restarted: the directories added with /add-dir before are no longer added, " +
	"so edits there ask first and commands may not write there. Ask the user to /add-dir one again if you need it."

// forgetAddedDirs tells a resumed session whose earlier run added
// directories with /add-dir that, as --add-dir's, they are not restored:
// the user in a notice, the model at its next request.
func (s *Session) forgetAddedDirs() {
	if !s.Resumed {
		return
	}
	last := ""
	_ = s.Agent.Scan(0, []string{session.UserMessage{}.EventType()}, func(e session.Event) bool {
		if d, ok := e.Data.(session.UserMessage); ok && d.Kind == session.KindContext && d.Origin == AddDirOrigin {
			last = d.Text
		}
		return true
	})
	if last == "" || last == addDirsForgotten {
		return
	}
	s.notify("The directories /add-dir added before this session was resumed are not added now; " +
		"/add-dir adds one again, --add-dir DIR when starting tack keeps it.")
	s.Agent.Note(AddDirOrigin, last, addDirsForgotten)
}

// addDirCommand is /add-dir over the session's directories.
func (s *Session) addDirCommand() commands.Command {
	return commands.AddDirCommand(&sessionDirs{s: s}, s.Home, s.getenv("HOME"))
}
