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
	// checkpoint is the workspace state to restore and since, for a
	// rewind of files, the seq of the event that recorded it.
	checkpoint string
	since      int64
	prompt     string
}

func (a *Agent) rewind(ctx context.Context, req RewindRequest) (RewindResult, error) {
	a.logMu.Lock()
	turns, rewinds := a.proj.Turns(), a.proj.Rewinds()
	a.logMu.Unlock()
	var pt rewindPoint
	var err error
	if req.Undo {
		pt, req, err = a.undoPoint(rewinds, req)
	} else {
		pt, err = a.turnPoint(turns, req)
	}
	if err != nil {
		return RewindResult{}, err
	}
	res := RewindResult{Turn: pt.rec.Turn}
	if req.Files {
		if err := a.restoreFiles(ctx, &pt, req.Force, &res); err != nil {
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
func (a *Agent) turnPoint(turns []session.TurnPoint, req RewindRequest) (rewindPoint, error) {
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
	if !req.Files {
		return pt, nil
	}
	// Its checkpoint is the turn's own, the first taken after it started.
	pt.since = t.Seq
	err := a.scanCheckpoints(t.Seq+1, func(e session.Event, c session.Checkpoint) bool {
		if c.Turn == t.Turn && c.Phase == session.PhaseTurn {
			pt.since = e.Seq
			return false
		}
		return true
	})
	if err != nil {
		return rewindPoint{}, fmt.Errorf("could not find turn %d's checkpoint in the session log: %w", t.Turn, err)
	}
	return pt, nil
}

// undoPoint is the point just before the latest rewind that stands. The
// undo restores what that rewind changed, of what req asks for: req comes
// back narrowed to it.
func (a *Agent) undoPoint(rewinds []session.RewindPoint, req RewindRequest) (rewindPoint, RewindRequest, error) {
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
	if !req.Files {
		return pt, req, nil
	}
	// The state before the rewind is its "rewind" checkpoint, the last
	// recorded before it.
	err := a.scanCheckpoints(0, func(e session.Event, c session.Checkpoint) bool {
		if e.Seq >= r.Seq {
			return false
		}
		if c.ID == r.Before {
			pt.since = e.Seq
		}
		return true
	})
	if err != nil {
		return rewindPoint{}, req, fmt.Errorf("could not find the checkpoint taken before the last rewind in the session log: %w", err)
	}
	return pt, req, nil
}

// restoreFiles takes a checkpoint of the workspace as it is, restores
// pt's, and records the rewind between the restore and its journal's
// removal, so that a crash in between completes the restore on the next
// start rather than rolling it back.
func (a *Agent) restoreFiles(ctx context.Context, pt *rewindPoint, force bool, res *RewindResult) error {
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
	var since []session.Checkpoint
	err = a.scanCheckpoints(pt.since+1, func(_ session.Event, c session.Checkpoint) bool {
		since = append(since, c)
		return true
	})
	if err != nil {
		return fmt.Errorf("could not read the checkpoints since the rewind point from the session log: %w", err)
	}
	if lost := lostChanges(plan, since, before); len(lost) > 0 && !force {
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
// rewind point were not all made by tack: the checkpoints taken since
// after intervals outside tack list them, and so does before, just taken.
func lostChanges(plan checkpoint.Plan, since []session.Checkpoint, before session.Checkpoint) []string {
	outside := map[string]bool{}
	for _, p := range plan.Outside {
		outside[p] = true
	}
	for _, c := range since {
		if !c.Phase.ByTack() {
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
