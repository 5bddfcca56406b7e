package linemode

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/tools/fs"
)

// The SDKs' rewindFiles(userMessageId, {dryRun}) / rewind_files() return
// the workspace's files to how they were when a user message was read:
// the uuid is the program's own (SDKUserMessage.uuid) or the one tack
// replayed the message with (--replay-user-messages). tack restores the
// checkpoint taken at the start of the turn that message started, as
// /rewind N --files does; the conversation stays as it is, as the SDKs
// document.

// userTurns are the turns the user messages of a run started, by the
// messages' uuids; the stdin reader reads them while turns run.
type userTurns struct {
	mu     sync.Mutex
	byUUID map[string]int
}

// remember notes the turn the message uuid started; the first turn a
// message starts is the one it stays with.
func (u *userTurns) remember(uuid string, turn int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byUUID == nil {
		u.byUUID = map[string]int{}
	}
	if _, ok := u.byUUID[uuid]; !ok {
		u.byUUID[uuid] = turn
	}
}

func (u *userTurns) turn(uuid string) (int, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	t, ok := u.byUUID[uuid]
	return t, ok
}

// rewindResult is the answer to rewind_files, the SDKs' RewindFilesResult.
type rewindResult struct {
	CanRewind    bool     `json:"canRewind"`
	Error        string   `json:"error,omitempty"`
	FilesChanged []string `json:"filesChanged,omitempty"`
	Insertions   int      `json:"insertions"`
	Deletions    int      `json:"deletions"`
}

// rewindFiles answers rewind_files. A dry run says what a rewind would
// change, and why it cannot be done as a result (canRewind false), as
// claude does; a rewind that fails is an error answer.
func (p *printer) rewindFiles(id, uuid string, dryRun bool) {
	res, err := p.rewindTo(context.Background(), uuid, dryRun)
	switch {
	case err != nil && dryRun:
		p.answer(id, rewindResult{Error: err.Error()}, "")
	case err != nil:
		p.answer(id, nil, err.Error())
	default:
		p.answer(id, res, "")
	}
}

// rewindTo restores, or with dryRun only measures, the files as they were
// when the message uuid started its turn: the files since changed, and
// the lines the rewind takes out (insertions) and puts back (deletions).
func (p *printer) rewindTo(ctx context.Context, uuid string, dryRun bool) (rewindResult, error) {
	turn, ok := p.messages.turn(uuid)
	if !ok {
		return rewindResult{}, fmt.Errorf("no user message %q started a turn in this run; rewind_files takes the uuid "+
			"of a message tack read (the SDK's own, or the one --replay-user-messages echoes), and /rewind N --files "+
			"the turn number of any turn of the session", uuid)
	}
	changes, err := p.ag.Diff(ctx, turn)
	if err != nil {
		return rewindResult{}, fmt.Errorf("no file checkpoint of turn %d: %w", turn, err)
	}
	res := p.measure(changes)
	if dryRun {
		return res, nil
	}
	_, err = p.ag.Rewind(ctx, agent.RewindRequest{Turn: turn, Files: true})
	var outside *agent.OutsideChangesError
	if errors.As(err, &outside) {
		return rewindResult{}, fmt.Errorf("%w; to restore them anyway, send the message /rewind %d --files --force", err, turn)
	}
	return res, err
}

// measure is what undoing changes does: the files it changes, by their
// absolute paths, and the lines it takes out and puts back.
func (p *printer) measure(changes []checkpoint.FileChange) rewindResult {
	res := rewindResult{CanRewind: true, FilesChanged: []string{}}
	root := p.s.Cwd
	if p.s.Checkpoints != nil {
		root = p.s.Checkpoints.Workspace()
	}
	for _, c := range changes {
		res.FilesChanged = append(res.FilesChanged, filepath.Join(root, filepath.FromSlash(c.Path)))
		if fs.Binary(c.Before) || fs.Binary(c.After) {
			continue
		}
		d := fs.FileDiff(c.Path, string(c.Before), string(c.After), c.Before == nil)
		res.Insertions += d.Added
		res.Deletions += d.Removed
	}
	return res
}
