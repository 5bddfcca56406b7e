package agent

import (
	"fmt"
	"time"

	"github.com/tack-agent/tack/backend/session"
)

// LogError is a failed write of the session log. Once the log fails, the
// session is no longer durable: the running turn ends with this error,
// tools do not start, and later events live in memory only.
type LogError struct {
	SessionID string
	Err       error
}

func (e *LogError) Error() string {
	return fmt.Sprintf("the session log could not be written (%v); nothing from here on is saved. "+
		"Free disk space or fix the permissions of $TACK_HOME, then continue with tack --resume %s", e.Err, e.SessionID)
}

func (e *LogError) Unwrap() error { return e.Err }

// failureKindLog is the turn/end failure kind of a LogError.
const failureKindLog = "session-log"

// noteLogErrLocked remembers the first write failure; a.logMu must be held.
func (a *Agent) noteLogErrLocked(err error) {
	if a.logErr == nil {
		a.logErr = &LogError{SessionID: a.cfg.Log.Header().ID, Err: err}
	}
}

// sync makes the log durable so far. It returns the first write failure of
// the session, now or earlier, as a *LogError.
func (a *Agent) sync() error {
	err := a.cfg.Log.Sync()
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if err != nil {
		a.noteLogErrLocked(err)
	}
	if a.logErr == nil {
		return nil
	}
	return a.logErr
}

// memoryEvent stands for an event the log refused to take: the projection
// and subscribers still get it, so the model's view keeps every tool result
// and front doors see the turn end. Data the log rejects as not being an
// event gets nothing.
func (a *Agent) memoryEvent(now time.Time, d session.Data, err error) (session.Event, bool) {
	if _, marker := d.(session.CompactionMarker); marker || d == nil {
		return session.Event{}, false
	}
	a.noteLogErrLocked(err)
	// The log may have written events of its own (a repeated title), so
	// the next seq follows whichever is later.
	seq := max(a.nextSeq, a.cfg.Log.NextSeq())
	return session.Event{Type: d.EventType(), Seq: seq, Time: time.UnixMilli(now.UnixMilli()), Data: d}, true
}
