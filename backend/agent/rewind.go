package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/session"
)

// RewindRequest says where to return and what to restore there.
type RewindRequest struct {
	// Turn is the turn to return to the start of; ignored by Undo.
	Turn int
	// Undo undoes the latest rewind that stands instead.
	Undo bool
	// Files restores the workspace; Conversation returns the conversation.
	Files, Conversation bool
	// Force restores files even when that loses changes made outside tack.
	Force bool
}

// RewindResult says what a rewind did.
type RewindResult struct {
	// Turn is the turn rewound to the start of; 0 for an undo.
	Turn int
	// Prompt is that turn's prompt, to edit and send again.
	Prompt string
	// Rewound are the turns taken out of the conversation, Restored the
	// turns an undo brought back.
	Rewound, Restored []int
	// Files is what the restore changed; Kept the paths it left alone
	// because no checkpoint holds them as they are now.
	Files checkpoint.Restored
	Kept  []string
	// Note is for the user: without git, the restore covered only the
	// files tack's edit and write tools changed.
	Note string
}

// OutsideChangesError refuses to restore files that changed outside tack
// since the checkpoint: the restore would lose those changes.
type OutsideChangesError struct{ Paths []string }

func (e *OutsideChangesError) Error() string {
	return fmt.Sprintf("%d files changed outside tack since that point and restoring would lose those changes: %s",
		len(e.Paths), strings.Join(e.Paths, ", "))
}

// ErrNothingToUndo is returned by an undo when no rewind stands.
var ErrNothingToUndo = errors.New("there is no rewind to undo")

// Rewind returns the session to the start of a turn, or undoes the latest
// rewind: the files to the checkpoint (unless files changed outside tack
// since would be lost and Force is not set), the conversation to before
// the turn. The rewound turns stay in the log. It needs the agent idle.
func (a *Agent) Rewind(ctx context.Context, req RewindRequest) (RewindResult, error) {
	if !req.Files && !req.Conversation {
		return RewindResult{}, errors.New("a rewind restores files, the conversation, or both")
	}
	var res RewindResult
	var err error
	busy := "a rewind needs an idle agent; wait for the turn to finish or cancel it"
	if jerr := a.idleJob(ctx, busy, func(ctx context.Context) { res, err = a.rewind(ctx, req) }); jerr != nil {
		return RewindResult{}, jerr
	}
	return res, err
}

// rewindPoint is where a rewind returns to.
type rewindPoint struct {
	rec session.Rewind
	// checkpoint is the workspace state to restore and since the seq of
	// the event that recorded it.
	checkpoint string
	since      int64
	prompt     string
}

func (a *Agent) rewind(ctx context.Context, req RewindRequest) (RewindResult, error) {
	a.logMu.Lock()
	turns, rewinds, events := a.proj.Turns(), a.proj.Rewinds(), a.cfg.Log.Events()
	a.logMu.Unlock()
	var pt rewindPoint
	var err error
	if req.Undo {
		pt, req, err = undoPoint(rewinds, events, req)
	} else {
		pt, err = turnPoint(turns, events, req)
	}
	if err != nil {
		return RewindResult{}, err
	}
	res := RewindResult{Turn: pt.rec.Turn}
	if req.Files {
		if err := a.restoreFiles(ctx, &pt, events, req.Force, &res); err != nil {
			return RewindResult{}, err
		}
	} else {
		a.record(pt.rec)
		_ = a.sync()
	}
	a.logMu.Lock()
	after := a.proj.Turns()
	a.logMu.Unlock()
	res.Rewound, res.Restored = turnsDiff(turns, after), turnsDiff(after, turns)
	if req.Conversation && !req.Undo {
		res.Prompt = pt.prompt
	}
	return res, nil
}

// turnPoint is the start of turn req.Turn, which must stand.
func turnPoint(turns []session.TurnPoint, events []session.Event, req RewindRequest) (rewindPoint, error) {
	i := slices.IndexFunc(turns, func(t session.TurnPoint) bool { return t.Turn == req.Turn })
	if i < 0 {
		return rewindPoint{}, fmt.Errorf("turn %d is not in the conversation; its turns are %s", req.Turn, turnList(turns))
	}
	t := turns[i]
	pt := rewindPoint{
		rec:    session.Rewind{Turn: t.Turn, Conversation: req.Conversation, Back: t.Seq},
		prompt: t.Prompt, checkpoint: t.Checkpoint.ID,
	}
	if req.Files && pt.checkpoint == "" {
		why := "no checkpoint was taken before it"
		if t.Checkpoint.Error != "" {
			why = t.Checkpoint.Error
		}
		return rewindPoint{}, fmt.Errorf("turn %d's files cannot be restored (%s); rewind the conversation only", t.Turn, why)
	}
	pt.since = checkpointSeq(events, t.Seq, func(c session.Checkpoint) bool {
		return c.Turn == t.Turn && c.Phase == session.PhaseTurn
	})
	return pt, nil
}

// undoPoint is the point just before the latest rewind that stands. The
// undo restores what that rewind changed, of what req asks for: req comes
// back narrowed to it.
func undoPoint(rewinds []session.RewindPoint, events []session.Event, req RewindRequest) (rewindPoint, RewindRequest, error) {
	if len(rewinds) == 0 {
		return rewindPoint{}, req, ErrNothingToUndo
	}
	r := rewinds[len(rewinds)-1]
	req.Files = req.Files && r.Files != ""
	req.Conversation = req.Conversation && r.Conversation
	if !req.Files && !req.Conversation {
		return rewindPoint{}, req, fmt.Errorf("the last rewind changed %s, which this undo leaves alone; undo it without --files or --conversation",
			map[bool]string{true: "only the files", false: "only the conversation"}[r.Files != ""])
	}
	pt := rewindPoint{rec: session.Rewind{Conversation: req.Conversation, Back: r.Seq, Undo: r.Seq}, checkpoint: r.Before}
	// The state before the rewind is its "rewind" checkpoint, the last
	// recorded before it.
	for i := len(events) - 1; i >= 0; i-- {
		if c, ok := events[i].Data.(session.Checkpoint); ok && events[i].Seq < r.Seq && c.ID == r.Before {
			pt.since = events[i].Seq
			break
		}
	}
	return pt, req, nil
}

// checkpointSeq is the seq of the first checkpoint event after seq that
// match accepts, or seq itself.
func checkpointSeq(events []session.Event, seq int64, match func(session.Checkpoint) bool) int64 {
	for _, e := range events {
		if c, ok := e.Data.(session.Checkpoint); ok && e.Seq > seq && match(c) {
			return e.Seq
		}
	}
	return seq
}

// restoreFiles takes a checkpoint of the workspace as it is, restores
// pt's, and records the rewind between the restore and its journal's
// removal, so that a crash in between completes the restore on the next
// start rather than rolling it back.
func (a *Agent) restoreFiles(ctx context.Context, pt *rewindPoint, events []session.Event, force bool, res *RewindResult) error {
	store := a.cfg.Checkpoints
	if store == nil {
		return errors.New("this session keeps no checkpoints; rewind the conversation only")
	}
	before, ok := a.checkpoint(ctx, a.turn(), 0, session.PhaseRewind)
	if !ok {
		return fmt.Errorf("could not record the workspace before restoring it: %s", before.Error)
	}
	plan, err := store.Plan(ctx, pt.checkpoint, before.ID)
	if err != nil {
		return fmt.Errorf("%w; rewind the conversation only", err)
	}
	if lost := lostChanges(plan, events, pt.since, before); len(lost) > 0 && !force {
		return &OutsideChangesError{Paths: lost}
	}
	token := checkpoint.NewToken()
	if res.Files, err = store.Restore(ctx, plan, token); err != nil {
		return err
	}
	res.Kept = plan.Kept
	if plan.Kind == checkpoint.KindFiles {
		res.Note = "git is not installed, so the restore covered only the files tack's own edit and write tools " +
			"changed; changes made by shell commands were not undone."
	}
	pt.rec.Files, pt.rec.Before, pt.rec.Journal = pt.checkpoint, before.ID, token
	a.record(pt.rec)
	if err := a.sync(); err == nil {
		_ = store.Finish(token)
	}
	a.checkpoint(context.WithoutCancel(ctx), a.turn(), 0, session.PhaseRestored)
	return nil
}

// lostChanges are the paths the plan would change whose changes since the
// event at since were not all made by tack: the checkpoints taken after
// intervals outside tack list them, and so does before, just taken.
func lostChanges(plan checkpoint.Plan, events []session.Event, since int64, before session.Checkpoint) []string {
	outside := map[string]bool{}
	for _, p := range plan.Outside {
		outside[p] = true
	}
	for _, e := range events {
		if c, ok := e.Data.(session.Checkpoint); ok && e.Seq > since && !c.Phase.ByTack() {
			for _, p := range c.Changed {
				outside[p] = true
			}
		}
	}
	for _, p := range before.Changed {
		outside[p] = true
	}
	var lost []string
	for _, p := range plan.Paths() {
		if outside[p] {
			lost = append(lost, p)
		}
	}
	return lost
}

// turnsDiff are the turns of a not in b.
func turnsDiff(a, b []session.TurnPoint) []int {
	var out []int
	for _, t := range a {
		if !slices.ContainsFunc(b, func(u session.TurnPoint) bool { return u.Turn == t.Turn }) {
			out = append(out, t.Turn)
		}
	}
	return out
}

func turnList(turns []session.TurnPoint) string {
	if len(turns) == 0 {
		return "none yet"
	}
	var b strings.Builder
	for i, t := range turns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(t.Turn))
	}
	return b.String()
}

// Turns are the turns of the conversation as it stands, oldest first.
func (a *Agent) Turns() []session.TurnPoint {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.Turns()
}

// Rewinds are the rewinds that stand, oldest first; an undo undoes the
// latest.
func (a *Agent) Rewinds() []session.RewindPoint {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.Rewinds()
}
