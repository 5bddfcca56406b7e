package session

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// threeTurns is turns 1, 2 and 3 (seqs 0–10, 11–21, 22–32) with prompts a,
// b and c.
func threeTurns() []Data {
	data := completedTurn(1, "a")
	data = append(data, completedTurn(2, "b")...)
	return append(data, completedTurn(3, "c")...)
}

func surfaceTexts(p *Projection) []string {
	var out []string
	all, _ := p.Surface(nil)
	for _, m := range all {
		if m.Role == llm.RoleUser {
			out = append(out, m.Content)
		}
	}
	return out
}

func transcriptTurns(t *testing.T, p *Projection, events Events) []int {
	var out []int
	for _, e := range transcriptOf(t, p, events) {
		if d, ok := e.Data.(TurnStart); ok {
			out = append(out, d.Turn)
		}
	}
	return out
}

func transcriptOf(t *testing.T, p *Projection, events Events) []Event {
	t.Helper()
	tr, err := p.Transcript(events)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func turnNumbers(p *Projection) []int {
	var out []int
	for _, t := range p.Turns() {
		out = append(out, t.Turn)
	}
	return out
}

func TestRewindReturnsTheConversationToBeforeTheTurn(t *testing.T) {
	p, evs := projectEvents(append(threeTurns(), Rewind{Turn: 2, Conversation: true, Back: 11})...)
	if got := surfaceTexts(p); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("want the surface to hold only turn 1's prompt, got %v", got)
	}
	if got := len(surface(t, p)); got != 4 {
		t.Errorf("want turn 1's 4 messages on the surface, got %d", got)
	}
	if got := transcriptTurns(t, p, evs); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("want the transcript to show only turn 1, got turns %v", got)
	}
	if got := turnNumbers(p); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("want Turns to list only turn 1, got %v", got)
	}
	if p.Turn() != 3 {
		t.Errorf("want Turn to stay 3 so the next turn is 4, got %d", p.Turn())
	}
	if got := p.Usage().Turns; got != 3 {
		t.Errorf("want usage to keep counting all 3 turns, which were paid for, got %d", got)
	}
}

func TestTurnsAfterARewindContinueFromTheEarlierPoint(t *testing.T) {
	data := append(threeTurns(), Rewind{Turn: 2, Conversation: true, Back: 11})
	data = append(data, completedTurn(4, "d")...)
	p, evs := projectEvents(data...)
	if got := surfaceTexts(p); !reflect.DeepEqual(got, []string{"a", "d"}) {
		t.Errorf("want prompts a then d on the surface, got %v", got)
	}
	if got := transcriptTurns(t, p, evs); !reflect.DeepEqual(got, []int{1, 4}) {
		t.Errorf("want the transcript to show turns 1 and 4, got %v", got)
	}
	if got := RewoundTurns(testHeader("s1"), events(data...)); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Errorf("want turns 2 and 3 marked rewound, got %v", got)
	}
}

func TestUndoingARewindBringsTheTurnsBack(t *testing.T) {
	// The rewind is seq 33; the turn after it 34–44; the undo 45.
	data := append(threeTurns(), Rewind{Turn: 2, Conversation: true, Back: 11})
	data = append(data, completedTurn(4, "d")...)
	data = append(data, Rewind{Conversation: true, Back: 33, Undo: 33})
	p, evs := projectEvents(data...)
	if got := surfaceTexts(p); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("want prompts a, b, c back on the surface, got %v", got)
	}
	if got := transcriptTurns(t, p, evs); !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Errorf("want the transcript to show turns 1–3 again, got %v", got)
	}
	if got := turnNumbers(p); !reflect.DeepEqual(got, []int{1, 2, 3}) {
		t.Errorf("want Turns 1–3, got %v", got)
	}
	if got := RewoundTurns(testHeader("s1"), events(data...)); !reflect.DeepEqual(got, []int{4}) {
		t.Errorf("want only turn 4, taken back by the undo, marked rewound; got %v", got)
	}
}

func TestRewindBeforeACompactionBringsBackTheUnsummarisedHistory(t *testing.T) {
	// Turns 1 and 2 (0–21) are summarised at 22–24, then turn 3 starts at 25.
	data := compacted()
	data = append(data, Rewind{Turn: 2, Conversation: true, Back: 11})
	p, evs := projectEvents(data...)
	var got []string
	for _, m := range surface(t, p) {
		got = append(got, string(m.Role)+":"+m.Content)
	}
	want := []string{"user:a", "assistant:", "tool:main.go", "assistant:done"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("want turn 1 as it was before the summary, got %v", got)
	}
	for _, e := range transcriptOf(t, p, evs) {
		if e.Type == (CompactionMarker{}).EventType() {
			t.Errorf("want no compaction marker before the compaction happened, got one at seq %d", e.Seq)
		}
	}
}

func TestSavedConversationsSurviveALaterCompaction(t *testing.T) {
	// Compaction rewrites the surface; the conversation saved before turn 2
	// must still hold turn 1 unsummarised.
	data := append(compacted(), completedTurn(4, "x")...)
	data = append(data, Rewind{Turn: 2, Conversation: true, Back: 11})
	p := project(data...)
	if got := surfaceTexts(p); !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("want only turn 1's prompt, got %v", got)
	}
}

func TestFilesOnlyRewindKeepsTheConversation(t *testing.T) {
	p := project(append(threeTurns(), Rewind{Turn: 2, Files: "abc", Before: "def"})...)
	if got := surfaceTexts(p); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("want the conversation unchanged by a files-only rewind, got %v", got)
	}
}

func TestRewindRestoresTheTodosOfItsPoint(t *testing.T) {
	data := completedTurn(1, "a")
	data = append(data, TodoWrite{Turn: 1, Todos: []card.TodoItem{{Content: "one", Status: card.TodoPending}}})
	back := int64(len(data))
	data = append(data, TurnStart{Turn: 2}, TodoWrite{Turn: 2, Todos: []card.TodoItem{{Content: "two"}}})
	data = append(data, Rewind{Turn: 2, Conversation: true, Back: back})
	p := project(data...)
	if got := p.Todos(); len(got) != 1 || got[0].Content != "one" {
		t.Errorf("want turn 1's todos back, got %v", got)
	}
}

func TestContextEstimateAfterARewindCountsTheSurface(t *testing.T) {
	p := project(append(threeTurns(), Rewind{Turn: 2, Conversation: true, Back: 11})...)
	bytes := 0
	for _, m := range surface(t, p) {
		bytes += messageBytes(m)
	}
	if got, want := p.ContextTokens(), bytes/bytesPerToken; got != want {
		t.Errorf("want the context estimated from the remaining surface (%d), got %d", want, got)
	}
}

func TestTurnsCarryPromptCheckpointAndChangedFiles(t *testing.T) {
	data := []Data{
		TurnStart{Turn: 1},
		UserMessage{Turn: 1, Kind: KindPrompt, Text: "write a.txt"},
		Checkpoint{Turn: 1, Phase: PhaseTurn, ID: "c0", Store: "git"},
		Checkpoint{Turn: 1, Step: 1, Phase: PhaseTools, ID: "c0", Store: "git", Changed: []string{"notes.md"}},
		Checkpoint{Turn: 1, Step: 1, Phase: PhaseToolsDone, ID: "c1", Store: "git", Changed: []string{"b.txt", "a.txt"}},
		Checkpoint{Turn: 1, Step: 2, Phase: PhaseToolsDone, ID: "c2", Store: "git", Changed: []string{"a.txt", "c.txt"}},
		TurnEnd{Turn: 1, Reason: StopCompleted},
	}
	p := project(data...)
	got := p.Turns()
	if len(got) != 1 {
		t.Fatalf("want 1 turn, got %d", len(got))
	}
	tp := got[0]
	if tp.Turn != 1 || tp.Seq != 0 || !tp.Time.Equal(at(0)) || tp.Prompt != "write a.txt" || tp.Checkpoint.ID != "c0" {
		t.Errorf("want turn 1 at seq 0 with its prompt and checkpoint c0, got %+v", tp)
	}
	if want := []string{"a.txt", "b.txt", "c.txt"}; !slices.Equal(tp.Changed, want) {
		t.Errorf("want the files tack changed, sorted, without outside changes: %v, got %v", want, tp.Changed)
	}
}

// events makes log events of payloads as project does.
func events(data ...Data) []Event {
	out := make([]Event, len(data))
	for i, d := range data {
		out[i] = Event{Type: d.EventType(), Seq: int64(i), Time: at(i), Data: d}
	}
	return out
}

func TestRewindsListWhatAnUndoWouldUndo(t *testing.T) {
	data := append(threeTurns(), Rewind{Turn: 3, Conversation: true, Back: 22})
	data = append(data, Rewind{Turn: 2, Files: "f", Before: "b"})
	p := project(data...)
	got := p.Rewinds()
	if len(got) != 2 || got[0].Seq != 33 || !slices.Equal(got[0].Turns, []int{3}) || got[1].Seq != 34 || len(got[1].Turns) != 0 {
		t.Fatalf("want the conversation rewind of turn 3 and the files-only one, got %+v", got)
	}
	p = project(append(data, Rewind{Files: "b", Before: "c", Undo: 34})...)
	if got := p.Rewinds(); len(got) != 1 || got[0].Seq != 33 {
		t.Fatalf("want the files-only rewind gone once undone, got %+v", got)
	}
	p = project(append(data, Rewind{Files: "b", Before: "c", Undo: 34}, Rewind{Conversation: true, Back: 33, Undo: 33})...)
	if got := p.Rewinds(); len(got) != 0 {
		t.Fatalf("want no rewind left to undo, got %+v", got)
	}
	if got := turnNumbers(p); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("want all three turns back, got %v", got)
	}
}

// TestRewindsAcrossACheckpointFoldAsWithout: a projection read back from a
// checkpoint keeps the conversations saved before it encoded. Written out
// after every event of a story of rewinds, undos and todo lists and
// folding the rest, it ends as the fold of the whole story does.
func TestRewindsAcrossACheckpointFoldAsWithout(t *testing.T) {
	data := threeTurns()
	data = append(data, TodoWrite{Turn: 3, Todos: []card.TodoItem{{Content: "one", Status: card.TodoPending}}})
	data = append(data, Rewind{Turn: 2, Conversation: true, Back: 11})
	data = append(data, completedTurn(4, "d")...)
	data = append(data, TodoWrite{Turn: 4, Todos: []card.TodoItem{{Content: "one", Status: card.TodoPending}}})
	undo := int64(len(data))
	data = append(data, Rewind{Conversation: true, Back: 34, Undo: 34})
	data = append(data, completedTurn(5, "e")...)
	data = append(data, Rewind{Turn: 1, Conversation: true, Back: 0}, Rewind{Conversation: true, Back: undo + 12, Undo: undo + 12})
	all := events(data...)
	want := project(data...)
	for k := range all {
		head := project(data[:k]...)
		p := readBack(head)
		for _, e := range all[k:] {
			p.Apply(e)
		}
		if !bytes.Equal(encoded(p), encoded(want)) {
			t.Fatalf("checkpoint after %d events: want the fold of the whole story, got\n%+v\nwant\n%+v", k, p, want)
		}
		if got := turnNumbers(p); !reflect.DeepEqual(got, turnNumbers(want)) {
			t.Fatalf("checkpoint after %d events: want turns %v, got %v", k, turnNumbers(want), got)
		}
	}
}
