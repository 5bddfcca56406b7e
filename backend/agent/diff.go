package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/session"
)

// Diff lists what changed in the workspace since the session's first
// checkpoint (turn 0) or since the checkpoint taken before turn, which
// must stand. It takes and records a checkpoint of the workspace as it is,
// so it needs the agent idle.
func (a *Agent) Diff(ctx context.Context, turn int) ([]checkpoint.FileChange, error) {
	store := a.cfg.Checkpoints
	if store == nil {
		return nil, errors.New("this session keeps no checkpoints")
	}
	base, err := a.diffBase(turn)
	if err != nil {
		return nil, err
	}
	var changes []checkpoint.FileChange
	busy := "/diff needs an idle agent; wait for the turn to finish or cancel it"
	jerr := a.idleJob(ctx, busy, func(ctx context.Context) {
		now, ok := a.checkpoint(ctx, a.turn(), 0, session.PhaseDiff)
		if !ok {
			err = fmt.Errorf("could not record the workspace as it is: %s", now.Error)
			return
		}
		changes, err = store.Diff(ctx, base, now.ID)
	})
	if jerr != nil {
		return nil, jerr
	}
	return changes, err
}

// diffBase is the checkpoint /diff compares with.
func (a *Agent) diffBase(turn int) (string, error) {
	if turn > 0 {
		for _, t := range a.Turns() {
			if t.Turn != turn {
				continue
			}
			if t.Checkpoint.ID == "" {
				return "", fmt.Errorf("turn %d has no checkpoint to compare with", turn)
			}
			return t.Checkpoint.ID, nil
		}
		return "", fmt.Errorf("turn %d is not in the conversation; its turns are %s", turn, turnList(a.Turns()))
	}
	first := ""
	err := a.scanCheckpoints(0, func(_ session.Event, c session.Checkpoint) bool {
		first = c.ID
		return first == ""
	})
	switch {
	case err != nil:
		return "", fmt.Errorf("could not find the session's first checkpoint in its log: %w", err)
	case first == "":
		return "", errors.New("no checkpoint yet: the first is taken when the first turn starts")
	}
	return first, nil
}
