package launch

import (
	"sync"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/claudelog"
)

// claudeTranscript is the Claude Code transcript of a log, for hooks and
// the status line.
type claudeTranscript struct {
	t    *claudelog.Transcript
	once sync.Once
	// opened is the seq of the first event this process logs.
	opened int64
	notify func(string)
}

// transcriptOf is the transcript of log for hooks and the status line.
func (s *Session) transcriptOf(log *session.Log, version string) *claudeTranscript {
	return &claudeTranscript{t: claudelog.New(log, version, s.Catalog), opened: log.NextSeq(), notify: s.notify}
}

// path is the transcript_path of hooks and the status line: it brings
// the transcript up to date and returns its path, called just before a
// command that reads it runs, so a session without hooks or a status line
// never writes one. A failure to write it never stops the command, which
// reads the transcript as the last Sync left it; the user is told once.
func (c *claudeTranscript) path() string {
	if err := c.t.Sync(); err != nil {
		c.once.Do(func() { c.notify(err.Error()) })
	}
	return c.t.Path()
}

// promptID is the promptId of the latest input the transcript held after
// the last path, none before the first input of this process: the status
// line's and hooks' prompt_id.
func (c *claudeTranscript) promptID() string { return c.t.PromptIDSince(c.opened) }
