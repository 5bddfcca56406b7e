package session

import (
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
type turnNotes struct {
	prompt     string
	checkpoint Checkpoint
	changed    []string
}

// conversation is the part of a Projection that a rewind returns to an
// earlier state. Its slices are only appended to or replaced whole, never
// changed in place, so a saved copy stays valid while the projection goes
// on.
type conversation struct {
	surface    []surfaceEntry
	transcript []Event
	todos      []card.TodoItem
	turns      []turnRef
	rewinds    []RewindPoint
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
	if p.saved == nil {
		p.saved = map[int64]conversation{}
	}
	p.saved[seq] = conversation{
		surface:    slices.Clip(p.surface),
		transcript: slices.Clip(p.transcript),
		todos:      p.todos,
		turns:      slices.Clip(p.turns),
		rewinds:    slices.Clip(p.rewinds),
	}
}

func (p *Projection) startTurn(e Event, d TurnStart) {
	p.saveConversation(e.Seq)
	p.turns = push(p.turns, turnRef{turn: d.Turn, seq: e.Seq, time: e.Time})
}

// notes returns the notes of turn n, making them.
func (p *Projection) notes(n int) *turnNotes {
	if p.turnNotes == nil {
		p.turnNotes = map[int]*turnNotes{}
	}
	t := p.turnNotes[n]
	if t == nil {
		t = &turnNotes{}
		p.turnNotes[n] = t
	}
	return t
}

func (p *Projection) notePrompt(d UserMessage) {
	if n := p.notes(d.Turn); n.prompt == "" {
		n.prompt = d.Text
	}
}

func (p *Projection) checkpoint(e Event, d Checkpoint) {
	if CheckpointNote(p.lastCheckpoint, d) != "" {
		p.show(e)
	}
	p.lastCheckpoint = d
	n := p.notes(d.Turn)
	switch {
	case d.Phase == PhaseTurn && n.checkpoint.ID == "":
		n.checkpoint = d
	case d.Phase == PhaseToolsDone:
		for _, path := range d.Changed {
			if i, found := slices.BinarySearch(n.changed, path); !found {
				n.changed = slices.Insert(n.changed, i, path)
			}
		}
	}
}

// rewind returns the conversation to where d says. The estimate of the
// context then counts the whole surface, since the last response's usage
// may belong to a rewound turn.
func (p *Projection) rewind(e Event, d Rewind) {
	p.saveConversation(e.Seq)
	before := p.turns
	if d.Conversation {
		c, ok := p.saved[d.Back]
		if !ok {
			return
		}
		p.surface, p.transcript, p.todos, p.turns, p.rewinds = c.surface, c.transcript, c.todos, c.turns, c.rewinds
		p.replaced = true
	} else if d.Undo != 0 {
		p.rewinds = slices.DeleteFunc(slices.Clone(p.rewinds), func(r RewindPoint) bool { return r.Seq == d.Undo })
	}
	if d.Undo == 0 {
		rp := RewindPoint{Seq: e.Seq, Rewind: d}
		for _, t := range before[len(p.turns):] {
			rp.Turns = append(rp.Turns, t.turn)
		}
		p.rewinds = push(p.rewinds, rp)
	}
}

// Turns are the turns of the conversation as it stands, oldest first:
// turns a rewind took back are not among them.
func (p *Projection) Turns() []TurnPoint {
	out := make([]TurnPoint, len(p.turns))
	for i, t := range p.turns {
		out[i] = TurnPoint{Turn: t.turn, Seq: t.seq, Time: t.time}
		if n := p.turnNotes[t.turn]; n != nil {
			out[i].Prompt, out[i].Checkpoint, out[i].Changed = n.prompt, n.checkpoint, slices.Clone(n.changed)
		}
	}
	return out
}

// Rewinds are the rewinds that stand, oldest first: the latest is what
// undoing a rewind undoes.
func (p *Projection) Rewinds() []RewindPoint { return slices.Clone(p.rewinds) }

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
	for _, t := range p.turns {
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
