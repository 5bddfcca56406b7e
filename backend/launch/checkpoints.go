package launch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/session"
)

// recoverTimeout bounds finishing an interrupted restore at start, which
// waits for the store lock of any other tack on the workspace.
const recoverTimeout = 2 * time.Minute

// openCheckpoints opens the checkpoint store of the session's workspace and
// finishes a restore that an earlier process did not live to end. It
// returns nil, with a notice saying why, where there can be no
// checkpoints; it returns nil and no notice when they are turned off.
func (s *Session) openCheckpoints(o Options, cfg config.Checkpoints) (*checkpoint.Store, []agent.Notice) {
	if !cfg.On() {
		return nil, nil
	}
	store, err := checkpoint.Open(checkpoint.Options{
		Home: o.Home, Workspace: s.Cwd, Session: s.Log.Header().ID, Last: s.Log.Projection().CheckpointID(),
		Getenv: o.getenv, MaxFileBytes: cfg.MaxFileBytes, MaxFiles: cfg.MaxFiles, Now: o.Now,
	})
	if err != nil {
		return nil, []agent.Notice{{Tone: agent.NoticeWarning, Text: "No checkpoints: " + err.Error() + "; /rewind can still rewind the conversation."}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), recoverTimeout)
	defer cancel()
	var notices []agent.Notice
	if from := s.Log.Header().ForkedFrom; o.ForkSession && from != "" {
		if err := store.Fork(ctx, from); err != nil {
			notices = append(notices, agent.Notice{Tone: agent.NoticeWarning, Text: fmt.Sprintf(
				"The checkpoints of session %s did not come along: %v; /rewind returns the conversation of its turns, not their files.", from, err)})
		}
	}
	if n, ok := s.finishRestore(ctx, store, o.Home); ok {
		notices = append(notices, n)
	}
	return store, notices
}

// finishRestore finishes a restore that an earlier process did not live
// to end, and says what it did; false when there was none.
func (s *Session) finishRestore(ctx context.Context, store *checkpoint.Store, home string) (agent.Notice, bool) {
	rec, ok, err := store.Recover(ctx, s.loggedRestore(home))
	switch {
	case err != nil:
		return agent.Notice{Tone: agent.NoticeError, Text: "An interrupted rewind could not be finished: " + err.Error()}, true
	case !ok:
		return agent.Notice{}, false
	case rec.Completed:
		return agent.Notice{Tone: agent.NoticeWarning, Text: fmt.Sprintf(
			"tack stopped while a rewind restored files; the restore is now complete (%d files, session %s).", rec.Paths, rec.Session)}, true
	}
	return agent.Notice{Tone: agent.NoticeWarning, Text: fmt.Sprintf(
		"tack stopped while a rewind restored files, before the rewind was recorded; the %d files it had begun to "+
			"restore are back as they were before it (session %s). Run /rewind again if you still want it.", rec.Paths, rec.Session)}, true
}

// loggedRestore reports whether the log of session id records the rewind
// whose restore journal is token: the log of this session, whose rewinds
// are scanned for, or any other under home, read whole.
func (s *Session) loggedRestore(home string) func(id, token string) bool {
	logged := func(e session.Event, token string) bool {
		r, ok := e.Data.(session.Rewind)
		return ok && r.Journal == token
	}
	return func(id, token string) bool {
		found := false
		if id == s.Log.Header().ID {
			err := s.Log.Scan(0, []string{session.Rewind{}.EventType()}, func(e session.Event) bool {
				found = logged(e, token)
				return !found
			})
			return err == nil && found
		}
		path, err := session.Find(home, id)
		if err != nil {
			return false
		}
		_, events, err := session.Read(path)
		return err == nil && slices.ContainsFunc(events, func(e session.Event) bool { return logged(e, token) })
	}
}

// checkpointStatus is the checkpoints section of /status: the store, its
// size and what it keeps, or why there are no checkpoints.
type checkpointStatus struct{ s *Session }

func (c checkpointStatus) Status() string {
	cfg := c.s.Config.Checkpoints
	store := c.s.Checkpoints
	switch {
	case !cfg.On():
		return "off ([checkpoints] enabled = false in config.toml); /rewind rewinds the conversation only"
	case store == nil:
		return "none: the workspace cannot have a checkpoint store; /rewind rewinds the conversation only"
	}
	var b strings.Builder
	kind := "shadow git repository"
	if store.Kind() == checkpoint.KindFiles {
		kind = "files tack's edit and write tools change (git is not installed: shell changes are not covered)"
	}
	size := "size unknown"
	if n, err := store.Size(); err == nil {
		size = checkpoint.FormatBytes(n)
	}
	fmt.Fprintf(&b, "%s · %s · %s\n", kind, size, store.Path())
	fmt.Fprintf(&b, "keeps the newest %d turns' checkpoints, none older than %d days", cfg.Turns(), cfg.Days())
	if off := c.s.Agent.CheckpointsOff(); off != "" {
		b.WriteString("\n" + off)
	}
	return b.String()
}
