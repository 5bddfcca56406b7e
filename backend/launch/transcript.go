package launch

import (
	"sync"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/claudelog"
)

// transcriptOf is the transcript_path of hooks and the status line for
// log: a function that brings log's Claude Code transcript up to date and
// returns its path, called just before a command that reads it runs, so
// a session without hooks or a status line never writes one. A failure
// to write it never stops the command, which reads the transcript as the
// last Sync left it; the user is told once.
func (s *Session) transcriptOf(log *session.Log, version string) func() string {
	t := claudelog.New(log, version, s.Catalog)
	var once sync.Once
	return func() string {
		if err := t.Sync(); err != nil {
			once.Do(func() { s.notify(err.Error()) })
		}
		return t.Path()
	}
}
