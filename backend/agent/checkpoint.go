package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Checkpoints keeps the workspace states a session can return to
// (*checkpoint.Store).
type Checkpoints interface {
	Kind() checkpoint.Kind
	Take(ctx context.Context) (checkpoint.Snapshot, error)
	Prime(ctx context.Context) error
	Preserve(paths []string) error
	Plan(ctx context.Context, target, before string) (checkpoint.Plan, error)
	Restore(ctx context.Context, plan checkpoint.Plan, token string) (checkpoint.Restored, error)
	Finish(token string) error
	Diff(ctx context.Context, from, to string) ([]checkpoint.FileChange, error)
	Due() bool
	Prune(ctx context.Context, r checkpoint.Retention) (int, error)
}

// Retention is how much of the checkpoints the background prune keeps:
// those of the session's newest Turns turns, none older than Days days.
type Retention struct{ Turns, Days int }

// checkpointTimeout bounds one checkpoint. The first of a large workspace
// hashes every file; one that takes longer turns checkpoints off for the
// session rather than hold up every turn.
const checkpointTimeout = time.Minute

// checkpoints is the agent's checkpoint bookkeeping, under its own lock.
type checkpoints struct {
	off     string // why checkpoints are off for this session
	pruning bool   // a prune runs in the background
}

// checkpoint takes a checkpoint of the workspace and records it; a
// failure is recorded too, with what to do. It reports the checkpoint, and
// false when none was taken. Without a store, or once checkpoints are off,
// it does nothing.
func (a *Agent) checkpoint(ctx context.Context, turn, step int, phase session.CheckpointPhase) (session.Checkpoint, bool) {
	store := a.cfg.Checkpoints
	if store == nil {
		return session.Checkpoint{}, false
	}
	a.mu.Lock()
	off := a.ckpt.off
	a.mu.Unlock()
	if off != "" {
		return session.Checkpoint{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, checkpointTimeout)
	defer cancel()
	snap, err := store.Take(ctx)
	c := session.Checkpoint{Turn: turn, Step: step, Phase: phase, ID: snap.ID, Store: string(store.Kind()),
		Changed: snap.Changed, Skipped: snap.Skipped, Notice: snap.Notice}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return session.Checkpoint{}, false // the turn was cancelled
		}
		c.ID, c.Error = "", a.checkpointFailed(err)
	}
	a.record(c)
	return c, c.ID != ""
}

// checkpointFailed is the message of a failed checkpoint; failures that
// will not go away turn checkpoints off for the session.
func (a *Agent) checkpointFailed(err error) string {
	msg := "No checkpoint: " + err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("No checkpoint: taking one took longer than %s.", checkpointTimeout)
	case !errors.Is(err, checkpoint.ErrUnavailable):
		return msg + "; /rewind cannot restore files to this point."
	}
	msg += " Checkpoints are off for the rest of this session; /rewind can still rewind the conversation."
	a.mu.Lock()
	a.ckpt.off = msg
	a.mu.Unlock()
	return msg
}

// primeCheckpoints readies the checkpoint store in the background, while
// the user types the first prompt: the first checkpoint of a workspace
// writes every file into the store. A failure is the first checkpoint's
// to report.
func (a *Agent) primeCheckpoints(ctx context.Context) {
	store := a.cfg.Checkpoints
	if store == nil {
		return
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		if when := a.cfg.PrimeWhen; when != nil {
			select {
			case <-when:
			case <-ctx.Done():
				return
			}
		} else if a.cfg.PrimeAfter > 0 {
			wait := time.NewTimer(a.cfg.PrimeAfter)
			defer wait.Stop()
			select {
			case <-wait.C:
			case <-ctx.Done():
				return
			}
		}
		ctx, cancel := context.WithTimeout(ctx, checkpointTimeout)
		defer cancel()
		_ = store.Prime(ctx)
	}()
}

// changesFiles reports whether a batch runs a tool that edits files, runs
// commands, calls an external tool that may, or delegates to a subagent:
// a checkpoint must bracket it.
func changesFiles(batch []*dispatch) bool {
	for _, d := range batch {
		if d.early != nil || d.tool == nil {
			continue
		}
		switch spec := d.tool.Spec(); {
		case spec.Access == tools.AccessEdit || spec.Access == tools.AccessExec:
			return true
		case spec.Access == tools.AccessExternal && !spec.ReadOnlyHint:
			return true // an MCP server's tool may write files too
		}
		if del, ok := d.tool.(tools.Delegator); ok && del.Delegates() {
			return true
		}
	}
	return false
}

// preserve lets the checkpoint store keep what the files a call will
// change hold now, where it needs to (no git).
func (a *Agent) preserve(d *dispatch, call tools.Call) {
	t, ok := d.tool.(tools.Targeter)
	if !ok || a.cfg.Checkpoints == nil {
		return
	}
	if paths := t.Targets(call); len(paths) > 0 {
		// A store that cannot be written fails the next checkpoint too,
		// which says so; the edit itself goes ahead.
		_ = a.cfg.Checkpoints.Preserve(paths)
	}
}

// maybePrune prunes old checkpoints in the background when a day has
// passed since the store was last pruned. A log it cannot read, which
// would keep none of this session's checkpoints, is not pruned.
func (a *Agent) maybePrune(ctx context.Context) {
	store, keep := a.cfg.Checkpoints, a.cfg.Retention
	if store == nil || keep.Turns <= 0 || keep.Days <= 0 || !store.Due() {
		return
	}
	a.mu.Lock()
	busy := a.ckpt.pruning
	a.ckpt.pruning = true
	a.mu.Unlock()
	if busy {
		return
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		kept, err := a.keptCheckpoints(keep.Turns)
		if err == nil {
			_, err = store.Prune(ctx, checkpoint.Retention{Keep: kept, Before: a.cfg.Now().AddDate(0, 0, -keep.Days)})
		}
		a.mu.Lock()
		a.ckpt.pruning = false
		a.mu.Unlock()
		if err != nil && ctx.Err() == nil {
			a.Notify(Notice{Tone: NoticeWarning, Text: "Pruning old checkpoints failed: " + err.Error()})
		}
	}()
}

// keptCheckpoints are the IDs of the checkpoints of the session's newest
// turns turns, and those the standing rewinds would restore on an undo.
// It reads the log's checkpoint events, not the whole log.
func (a *Agent) keptCheckpoints(turns int) (map[string]bool, error) {
	a.logMu.Lock()
	rewinds, newest := a.proj.Rewinds(), a.proj.Turn()
	a.logMu.Unlock()
	keep := map[string]bool{}
	err := a.scanCheckpoints(0, func(_ session.Event, c session.Checkpoint) bool {
		if c.ID != "" && c.Turn > newest-turns {
			keep[c.ID] = true
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("could not read the session log to find the checkpoints to keep: %w", err)
	}
	for _, r := range rewinds {
		keep[r.Before] = true
	}
	return keep, nil
}

// checkpointEvents is the type of the events that record checkpoints.
var checkpointEvents = []string{session.Checkpoint{}.EventType()}

// scanCheckpoints hands visit the checkpoint events logged at seq from or
// later, in order, until it returns false. It reads the log from there
// without decoding its other events.
func (a *Agent) scanCheckpoints(from int64, visit func(session.Event, session.Checkpoint) bool) error {
	return a.cfg.Log.Scan(from, checkpointEvents, func(e session.Event) bool {
		return visit(e, e.Data.(session.Checkpoint))
	})
}

// CheckpointsOff says why checkpoints stopped during this session, "" while
// they are taken.
func (a *Agent) CheckpointsOff() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ckpt.off
}
