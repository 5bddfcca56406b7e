package session

import (
	"github.com/tack-agent/tack/backend/card"
)

// The parts of a checkpoint that serve rewinds: the notes of each turn and
// the conversations saved before each turn and rewind, which name states
// of the projection's histories and share their todo lists.

func (w *wire) ref(r listRef) {
	w.uint(uint64(r.v))
	w.uint(uint64(r.n))
}

func (r *unwire) ref() listRef { return listRef{v: int(r.uint()), n: int(r.uint())} }

func encodeNotes(w *wire, notes []turnNotes) {
	w.uint(uint64(len(notes)))
	for _, t := range notes {
		w.int(int64(t.turn))
		w.uint(uint64(t.prompt))
		w.bool(t.checkpoint != nil)
		if t.checkpoint != nil {
			encodeCheckpoint(w, *t.checkpoint)
		}
		encodeStrings(w, t.changed)
	}
}

func decodeNotes(r *unwire) []turnNotes {
	return readList(r, func() turnNotes {
		t := turnNotes{turn: int32(r.int()), prompt: int32(r.uint())}
		if r.bool() {
			c := decodeCheckpoint(r)
			t.checkpoint = &c
		}
		t.changed = decodeStrings(r)
		return t
	})
}

func encodeCheckpoint(w *wire, c Checkpoint) {
	w.int(int64(c.Turn))
	w.int(int64(c.Step))
	w.str(string(c.Phase))
	w.str(c.ID)
	w.str(c.Store)
	encodeStrings(w, c.Changed)
	w.uint(uint64(len(c.Skipped)))
	for _, f := range c.Skipped {
		w.str(f.Path)
		w.int(f.Size)
		w.str(f.Reason)
	}
	w.str(c.Error)
	w.str(c.Notice)
}

func decodeCheckpoint(r *unwire) Checkpoint {
	c := Checkpoint{Turn: int(r.int()), Step: int(r.int()), Phase: CheckpointPhase(r.str()), ID: r.str(), Store: r.str()}
	c.Changed = decodeStrings(r)
	c.Skipped = readList(r, func() SkippedFile { return SkippedFile{Path: r.str(), Size: r.int(), Reason: r.str()} })
	c.Error = r.str()
	c.Notice = r.str()
	return c
}

func encodeStrings(w *wire, ss []string) {
	w.uint(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func decodeStrings(r *unwire) []string { return readList(r, r.str) }

// encodeSaved writes saved conversations as a part with a todo table of
// its own, which a reader keeps unread until a rewind asks (savedBlob).
func encodeSaved(w *wire, saved []savedConversation) {
	var body wire
	todos := todoTable{}
	prev := int64(0)
	for _, c := range saved {
		body.int(c.seq - prev)
		prev = c.seq
		body.ref(c.surface)
		body.ref(c.transcript)
		body.ref(c.turns)
		body.ref(c.rewinds)
		body.int(c.lastEnd)
		body.uint(uint64(c.surfaceBytes))
		todos.write(&body, c.todos)
	}
	todos.encode(&body)
	w.uint(uint64(len(saved)))
	w.int(prev)
	w.part(body.b)
}

// savedBlob is the conversations saved before a checkpoint, left in its
// part until a rewind asks for one: nothing held and no time spent
// decoding them on resume (a 100,000-message session saves 25,000).
type savedBlob struct {
	part section
	n    int
	last int64 // the seq of the last
}

// decodeSavedBlob reads what encodeSaved wrote, nil when it saved none.
func decodeSavedBlob(r *unwire) *savedBlob {
	n, last, part := r.uint(), r.int(), r.part()
	if r.err == nil && n > uint64(part.n) {
		r.err = errShortIndex
	}
	if r.err != nil || n == 0 {
		return nil
	}
	return &savedBlob{part: part, n: int(n), last: last}
}

// decode is the conversations of s, read from its part (or folded again
// from the log); nil when neither gives them.
func (s *savedBlob) decode() []savedConversation {
	saved, err := decodePart(s.part, s.decodeList, (*Projection).allSaved)
	if err != nil || len(saved) != s.n || saved[s.n-1].seq != s.last {
		return nil
	}
	return saved
}

func (s *savedBlob) decodeList(r *unwire) []savedConversation {
	saved, ids := make([]savedConversation, s.n), make([]int, s.n)
	prev := int64(0)
	for i := range saved {
		seq := prev + r.int()
		prev = seq
		c := conversation{surface: r.ref(), transcript: r.ref(), turns: r.ref(), rewinds: r.ref(), lastEnd: r.int(), surfaceBytes: int(r.uint())}
		saved[i], ids[i] = savedConversation{seq: seq, conversation: c}, int(r.uint())
	}
	lists := decodeTodoTable(r)
	for i, id := range ids {
		saved[i].todos = lists.get(r, id)
	}
	return saved
}

// todoTable numbers the distinct todo lists a checkpoint part holds, so
// that the lists saved conversations share are written once. 0 is no
// list. Lists are told apart by what they hold, which a list read back
// from a checkpoint and the one it was written from share.
type todoTable struct {
	ids   map[string]int
	lists [][]card.TodoItem
}

func (t *todoTable) write(w *wire, l []card.TodoItem) {
	if l == nil {
		w.uint(0)
		return
	}
	var key wire
	for _, item := range l {
		key.str(item.Content)
		key.str(string(item.Status))
	}
	id, ok := t.ids[string(key.b)]
	if !ok {
		if t.ids == nil {
			t.ids = map[string]int{}
		}
		t.lists = append(t.lists, l)
		id = len(t.lists)
		t.ids[string(key.b)] = id
	}
	w.uint(uint64(id))
}

func (t *todoTable) encode(w *wire) {
	w.uint(uint64(len(t.lists)))
	for _, l := range t.lists {
		w.uint(uint64(len(l)))
		for _, item := range l {
			w.str(item.Content)
			w.str(string(item.Status))
		}
	}
}

// todoLists is a todo table as read.
type todoLists [][]card.TodoItem

func decodeTodoTable(r *unwire) todoLists {
	out := make(todoLists, r.count())
	for i := range out {
		out[i] = make([]card.TodoItem, r.count())
		for j := range out[i] {
			out[i][j] = card.TodoItem{Content: r.str(), Status: card.TodoStatus(r.str())}
		}
	}
	return out
}

// get is list id, failing r for an id the table does not have.
func (l todoLists) get(r *unwire, id int) []card.TodoItem {
	switch {
	case id == 0:
		return nil
	case id > len(l):
		r.err = errShortIndex
		return nil
	}
	return l[id-1]
}

func encodeRewinds(w *wire, rewinds []RewindPoint) {
	w.uint(uint64(len(rewinds)))
	for _, r := range rewinds {
		w.int(r.Seq)
		w.int(int64(r.Turn))
		w.bool(r.Conversation)
		w.int(r.Back)
		w.int(r.Undo)
		w.str(r.Files)
		w.str(r.Before)
		w.str(r.Journal)
		w.uint(uint64(len(r.Turns)))
		for _, t := range r.Turns {
			w.int(int64(t))
		}
	}
}

func decodeRewinds(r *unwire) []RewindPoint {
	return readList(r, func() RewindPoint {
		p := RewindPoint{Seq: r.int()}
		p.Rewind = Rewind{Turn: int(r.int()), Conversation: r.bool(), Back: r.int(), Undo: r.int(),
			Files: r.str(), Before: r.str(), Journal: r.str()}
		p.Turns = readList(r, func() int { return int(r.int()) })
		return p
	})
}
