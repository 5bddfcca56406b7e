package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/card"
)

// CheckpointPhase says when a checkpoint was taken. The changes a
// checkpoint lists happened in the interval that ends with it: during
// tack's own tools or restore for PhaseToolsDone and PhaseRestored, outside
// tack (the user, an editor, another program) for the others.
type CheckpointPhase string

const (
	PhaseTurn      CheckpointPhase = "turn"       // before a turn
	PhaseTools     CheckpointPhase = "tools"      // before a step's edits or commands
	PhaseToolsDone CheckpointPhase = "tools-done" // after them
	PhaseRewind    CheckpointPhase = "rewind"     // before a rewind restores files
	PhaseRestored  CheckpointPhase = "restored"   // after it did
	PhaseDiff      CheckpointPhase = "diff"       // for /diff, of the workspace as it is
)

// ByTack reports whether the changes a checkpoint of this phase lists were
// made by tack itself.
func (p CheckpointPhase) ByTack() bool { return p == PhaseToolsDone || p == PhaseRestored }

type (
	// Checkpoint names the state of the workspace at one point of the
	// session, kept in the checkpoint store (a shadow git repository, or
	// before-images of the files tack's tools change where git is
	// missing). ID is empty, and Error says why, when none could be taken.
	Checkpoint struct {
		Turn  int             `json:"turn"`
		Step  int             `json:"step,omitempty"`
		Phase CheckpointPhase `json:"phase"`
		ID    string          `json:"id,omitempty"`
		Store string          `json:"store,omitempty"` // "git" or "files"
		// Changed are the workspace paths that changed since the session's
		// previous checkpoint.
		Changed []string      `json:"changed,omitempty"`
		Skipped []SkippedFile `json:"skipped,omitempty"`
		Error   string        `json:"error,omitempty"`
		// Notice is for the user: what the checkpoints cover, or that a
		// damaged store was replaced.
		Notice string `json:"notice,omitempty"`
	}
	// SkippedFile is a file a checkpoint does not hold, and why.
	SkippedFile struct {
		Path   string `json:"path"`
		Size   int64  `json:"size,omitempty"`
		Reason string `json:"reason"`
	}
	// Rewind returns the session to an earlier point. With Conversation
	// set, the model's view and the transcript continue as they were just
	// before the event at seq Back: a turn/start, or the rewind this one
	// undoes (then Undo is that seq too). The events from Back on stay in
	// the log, rewound. Files, when set, is the checkpoint the workspace was
	// restored to, and Before the one taken of it just before.
	Rewind struct {
		Turn         int    `json:"turn,omitempty"` // rewound to before this turn; 0 for an undo
		Conversation bool   `json:"conversation,omitempty"`
		Back         int64  `json:"back"`
		Undo         int64  `json:"undo,omitempty"`
		Files        string `json:"files,omitempty"`
		Before       string `json:"before,omitempty"`
		// Journal names the restore's journal in the checkpoint store, so
		// a restore cut short is completed, not rolled back, once this
		// event is in the log.
		Journal string `json:"journal,omitempty"`
	}
)

func (Checkpoint) EventType() string { return "checkpoint" }
func (Rewind) EventType() string     { return "session/rewind" }

// TurnPoint is one turn of the conversation as it stands: a point a rewind
// can return to.
type TurnPoint struct {
	Turn int
	// Seq is the seq of the turn's turn/start.
	Seq    int64
	Time   time.Time
	Prompt string
	// Checkpoint is the one taken before the turn ran; its ID is empty
	// when there is none.
	Checkpoint Checkpoint
	// Changed are the files tack's tools changed during the turn, sorted.
	Changed []string
}

// turnRef is the part of a TurnPoint known at its turn/start.
type turnRef struct {
	turn int
	seq  int64
	time time.Time
}

// turnNotes is what later events tell of a turn. Turn numbers are never
// reused in a log, so notes need no saving across rewinds.
// A long session has one per turn, so they are small: the prompt is an
// index into the projection's prompts (plus one; 0 for none), and the
// checkpoint is shared, being never changed.
type turnNotes struct {
	turn       int32
	prompt     int32
	checkpoint *Checkpoint
	changed    []string
}

// history is a list, appended to and at times replaced whole, whose
// earlier states stay readable: a state is a version and a length (ref).
// cur is the current version and only ever appended to; a replaced
// version is frozen and never changed again.
type history[T any] struct {
	cur    []T
	frozen [][]T
}

// listRef names a state of a history: the first n items of version v.
type listRef struct{ v, n int }

func (h *history[T]) ref() listRef { return listRef{v: len(h.frozen), n: len(h.cur)} }

// at is the state r names; it must not be changed.
func (h *history[T]) at(r listRef) []T {
	if r.v == len(h.frozen) {
		return h.cur[:r.n:r.n]
	}
	return h.frozen[r.v][:r.n:r.n]
}

// replace makes s the current version.
func (h *history[T]) replace(s []T) {
	h.frozen = append(h.frozen, h.cur)
	h.cur = s
}

// restore makes the state r names current again: as it is, when it is
// all of the current version, else as a new version.
func (h *history[T]) restore(r listRef) {
	if r == h.ref() {
		return
	}
	h.replace(slices.Clone(h.at(r)))
}

// clone copies what a copy of the projection may change: the current
// version, for a list whose items change in place.
func (h history[T]) clone() history[T] {
	return history[T]{cur: slices.Clone(h.cur), frozen: slices.Clip(h.frozen)}
}

// share is clone for a list whose items never change once appended (or
// change only in parts, like a surface entry's read-back body, that no
// other copy reads): the copy appends to a fresh array.
func (h history[T]) share() history[T] {
	return history[T]{cur: slices.Clip(h.cur), frozen: slices.Clip(h.frozen)}
}

// conversation is the part of a Projection that a rewind returns to an
// earlier state, as it stood before some event. The transcript's last run
// is still extended in place after a save, so its end then is kept apart.
type conversation struct {
	surface, transcript, turns, rewinds listRef
	lastEnd                             int64
	todos                               []card.TodoItem
	surfaceBytes                        int
}

// RewindPoint is a rewind that stands: one that /redo can undo.
type RewindPoint struct {
	Seq int64
	Rewind
	// Turns are the turns it took back.
	Turns []int
}

// saveConversation remembers the conversation as it stands before the
// event at seq, for a later rewind to return to.
func (p *Projection) saveConversation(seq int64) {
	c := conversation{surface: p.surface.ref(), transcript: p.transcript.ref(), turns: p.turns.ref(),
		rewinds: p.rewinds.ref(), todos: p.todos, surfaceBytes: p.surfaceBytes}
	if n := len(p.transcript.cur); n > 0 {
		c.lastEnd = p.transcript.cur[n-1].End
	}
	// Seqs only grow; a conversation saved twice at one seq (a replayed
	// event) keeps the first.
	last := int64(-1)
	if n := len(p.saved); n > 0 {
		last = p.saved[n-1].seq
	} else if p.savedOld != nil {
		last = p.savedOld.last
	}
	if last < seq {
		p.saved = push(p.saved, savedConversation{seq: seq, conversation: c})
	}
}

// savedConversation is the conversation as it stood before the event at
// seq.
type savedConversation struct {
	seq int64
	conversation
}

// savedAt is the conversation saved before the event at seq. One saved
// before the checkpoint the projection was read from is decoded for the
// asking.
func (p *Projection) savedAt(seq int64) (conversation, bool) {
	list := p.saved
	if p.savedOld != nil && (len(list) == 0 || seq < list[0].seq) {
		list = p.savedOld.decode()
	}
	i, ok := slices.BinarySearchFunc(list, seq, func(s savedConversation, seq int64) int { return cmp.Compare(s.seq, seq) })
	if !ok {
		return conversation{}, false
	}
	return list[i].conversation, true
}

// allSaved is every saved conversation, the checkpoint's decoded.
func (p *Projection) allSaved() []savedConversation {
	if p.savedOld == nil {
		return p.saved
	}
	return append(p.savedOld.decode(), p.saved...)
}

// restoreConversation makes c the conversation.
func (p *Projection) restoreConversation(c conversation) {
	p.surface.restore(c.surface)
	p.surfaceBytes = c.surfaceBytes
	runs := p.transcript.at(c.transcript)
	if n := len(runs); n > 0 && runs[n-1].End != c.lastEnd {
		runs = slices.Clone(runs)
		runs[n-1].End = c.lastEnd
		p.transcript.replace(runs)
	} else {
		p.transcript.restore(c.transcript)
	}
	p.turns.restore(c.turns)
	p.rewinds.restore(c.rewinds)
	p.todos = c.todos
}

func (p *Projection) startTurn(e Event, d TurnStart) {
	p.saveConversation(e.Seq)
	p.turns.cur = push(p.turns.cur, turnRef{turn: d.Turn, seq: e.Seq, time: e.Time})
}

// notes returns the notes of turn n, making them. Notes are kept in turn
// order, and the latest turn's are the ones events add to.
func (p *Projection) notes(n int) *turnNotes {
	if k := len(p.turnNotes); k > 0 && int(p.turnNotes[k-1].turn) == n {
		return &p.turnNotes[k-1]
	}
	i, ok := p.findNotes(n)
	if !ok {
		p.turnNotes = slices.Insert(p.turnNotes, i, turnNotes{turn: int32(n)})
	}
	return &p.turnNotes[i]
}

func (p *Projection) findNotes(n int) (int, bool) {
	return slices.BinarySearchFunc(p.turnNotes, n, func(t turnNotes, n int) int { return cmp.Compare(int(t.turn), n) })
}

// notesOf is the notes of turn n, if any.
func (p *Projection) notesOf(n int) *turnNotes {
	i, ok := p.findNotes(n)
	if !ok {
		return nil
	}
	return &p.turnNotes[i]
}

// notePrompt notes the latest prompt as turn's, if it has none.
func (p *Projection) notePrompt(turn int) {
	if n := p.notes(turn); n.prompt == 0 {
		n.prompt = int32(p.promptCount())
	}
}

func (p *Projection) checkpoint(e Event, d Checkpoint) {
	if CheckpointNote(p.lastCheckpoint, d) != "" {
		p.show(e.Seq)
	}
	p.lastCheckpoint = cloneCheckpoint(d)
	if d.ID != "" {
		p.checkpointID = p.lastCheckpoint.ID
	}
	n := p.notes(d.Turn)
	switch {
	case d.Phase == PhaseTurn && (n.checkpoint == nil || n.checkpoint.ID == ""):
		c := p.lastCheckpoint
		n.checkpoint = &c
	case d.Phase == PhaseToolsDone:
		for _, path := range d.Changed {
			if i, found := slices.BinarySearch(n.changed, path); !found {
				// A new slice: a copy of the projection may share the old.
				n.changed = slices.Insert(slices.Clip(n.changed), i, strings.Clone(path))
			}
		}
	}
}

// cloneCheckpoint copies a checkpoint with its strings (see cloneTodos).
func cloneCheckpoint(d Checkpoint) Checkpoint {
	c := Checkpoint{Turn: d.Turn, Step: d.Step, Phase: CheckpointPhase(strings.Clone(string(d.Phase))),
		ID: strings.Clone(d.ID), Store: strings.Clone(d.Store), Error: strings.Clone(d.Error), Notice: strings.Clone(d.Notice)}
	for _, path := range d.Changed {
		c.Changed = append(c.Changed, strings.Clone(path))
	}
	for _, f := range d.Skipped {
		c.Skipped = append(c.Skipped, SkippedFile{Path: strings.Clone(f.Path), Size: f.Size, Reason: strings.Clone(f.Reason)})
	}
	return c
}

// rewind returns the conversation to where d says. The estimate of the
// context then counts the whole surface, since the last response's usage
// may belong to a rewound turn.
func (p *Projection) rewind(e Event, d Rewind) {
	p.saveConversation(e.Seq)
	before := p.turns.cur
	if d.Conversation {
		c, ok := p.savedAt(d.Back)
		if !ok {
			return
		}
		p.restoreConversation(c)
		p.replaced = true
	} else if d.Undo != 0 {
		p.rewinds.replace(slices.DeleteFunc(slices.Clone(p.rewinds.cur), func(r RewindPoint) bool { return r.Seq == d.Undo }))
	}
	if d.Undo == 0 {
		rp := RewindPoint{Seq: e.Seq, Rewind: Rewind{Turn: d.Turn, Conversation: d.Conversation, Back: d.Back,
			Files: strings.Clone(d.Files), Before: strings.Clone(d.Before), Journal: strings.Clone(d.Journal)}}
		for _, t := range before[len(p.turns.cur):] {
			rp.Turns = append(rp.Turns, t.turn)
		}
		p.rewinds.cur = push(p.rewinds.cur, rp)
	}
}

// Turns are the turns of the conversation as it stands, oldest first:
// turns a rewind took back are not among them.
func (p *Projection) Turns() []TurnPoint {
	p.unpack()
	p.unpackPrompts()
	out := make([]TurnPoint, len(p.turns.cur))
	for i, t := range p.turns.cur {
		out[i] = TurnPoint{Turn: t.turn, Seq: t.seq, Time: t.time}
		if n := p.notesOf(t.turn); n != nil {
			if n.prompt > 0 {
				out[i].Prompt = p.prompts[n.prompt-1]
			}
			if n.checkpoint != nil {
				out[i].Checkpoint = *n.checkpoint
			}
			out[i].Changed = slices.Clone(n.changed)
		}
	}
	return out
}

// Rewinds are the rewinds that stand, oldest first: the latest is what
// undoing a rewind undoes.
func (p *Projection) Rewinds() []RewindPoint { return slices.Clone(p.rewinds.cur) }

// RewoundTurns are the turns of events that a rewind took back, in order:
// they stay in the log but not in the conversation.
func RewoundTurns(h Header, events []Event) []int {
	p := NewProjection(h)
	var all []int
	for _, e := range events {
		p.Apply(e)
		if d, ok := e.Data.(TurnStart); ok {
			all = append(all, d.Turn)
		}
	}
	standing := map[int]bool{}
	for _, t := range p.turns.cur {
		standing[t.turn] = true
	}
	var out []int
	for _, n := range all {
		if !standing[n] {
			out = append(out, n)
		}
	}
	return out
}

// maxSkippedNamed bounds the files a note about skipped files names.
const maxSkippedNamed = 5

// CheckpointNote is what the user is told of checkpoint c, taken after
// prev (the zero Checkpoint for a session's first): its error, its notice,
// and the files it leaves out when they are not those prev left out. It
// is "" when there is nothing to tell.
func CheckpointNote(prev, c Checkpoint) string {
	var parts []string
	if c.Error != "" {
		parts = append(parts, c.Error)
	}
	if c.Notice != "" {
		parts = append(parts, c.Notice)
	}
	if len(c.Skipped) > 0 && !slices.Equal(c.Skipped, prev.Skipped) {
		parts = append(parts, skippedNote(c.Skipped))
	}
	return strings.Join(parts, " ")
}

func skippedNote(files []SkippedFile) string {
	var names []string
	more := 0
	for _, f := range files {
		switch {
		case f.Path == "":
			names = append(names, f.Reason)
		case len(names) < maxSkippedNamed:
			names = append(names, fmt.Sprintf("%s (%s)", f.Path, f.Reason))
		default:
			more++
		}
	}
	if more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	return "Checkpoints leave out: " + strings.Join(names, ", ") + "; /rewind does not restore them."
}
