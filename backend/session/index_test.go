package session

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// manyTurns is n closed turns, enough lines to fill several index strides.
func manyTurns(n int) []Data {
	var data []Data
	for i := 1; i <= n; i++ {
		data = append(data, completedTurn(i, strings.Repeat("p", i%7+1)+string(rune('a'+i%26)))...)
		if i%5 == 0 {
			data = append(data, Title{Title: "title " + string(rune('a'+i%26)), Source: "model"}, ModelSelect{Model: "m", Effort: llm.EffortLow})
		}
	}
	return data
}

// rebuilt is the projection of the log at path folded from its whole file,
// repairs included, as the oracle an index must agree with.
func rebuilt(t *testing.T, path string) *Projection {
	t.Helper()
	p, _ := foldWhole(t, path)
	return p
}

// foldWhole reads the log at path whole and folds every event, with no
// index: the oracle of every faster way to the same projection.
func foldWhole(t *testing.T, path string) (*Projection, []Event) {
	t.Helper()
	h, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	p := NewProjection(h)
	for _, e := range events {
		p.Apply(e)
	}
	return p, events
}

// opened opens the log at path and returns its projection and where its
// fold of the file started, then closes it.
func opened(t *testing.T, path string) (*Projection, int64) {
	t.Helper()
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Projection(), l.st.foldFrom
}

func wantSameProjection(t *testing.T, what string, got, want *Projection) {
	t.Helper()
	if !bytes.Equal(encoded(got), encoded(want)) {
		t.Errorf("%s: want the projection of the whole log, got a different one:\nwant %+v\ngot  %+v", what, want.Clone(true), got.Clone(true))
	}
}

func TestOpenThroughTheIndexFoldsOnlyWhatFollowsIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(30)...)
	if _, err := os.Stat(indexPath(path)); err != nil {
		t.Fatalf("want Close to write the index, got %v", err)
	}
	info, _ := os.Stat(path)
	p, from := opened(t, path)
	wantSameProjection(t, "through the index", p, rebuilt(t, path))
	if from != info.Size() {
		t.Errorf("want Open to fold nothing of a log its index covers (from %d), got from %d", info.Size(), from)
	}
}

func TestIndexBehindItsLogFoldsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(10)...)
	covered, _ := os.Stat(path)
	// Another writer appended without updating the index, as a process
	// killed before Close does.
	appendLines(t, path, len(manyTurns(10)), completedTurn(11, "late")...)
	p, from := opened(t, path)
	wantSameProjection(t, "index behind", p, rebuilt(t, path))
	if from != covered.Size() {
		t.Errorf("want the fold to start where the index ends (%d), got %d", covered.Size(), from)
	}
	if p.Turn() != 11 || p.Prompts()[len(p.Prompts())-1] != "late" {
		t.Errorf("want the appended turn folded in, got turn %d and prompts %v", p.Turn(), p.Prompts())
	}
}

// appendLines appends data to the log at path as a writer would, from seq
// on, without touching its index.
func appendLines(t testing.TB, path string, seq int, data ...Data) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := newLineEncoder()
	for i, d := range data {
		line, err := enc.encode(Event{Type: d.EventType(), Seq: int64(seq + i), Time: at(seq + i), Data: d})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(line); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIndexThatDoesNotMatchItsLogIsRebuilt(t *testing.T) {
	// The other log is as long, but its last turn has another prompt.
	other := filepath.Join(t.TempDir(), "s1.jsonl")
	otherData := manyTurns(12)
	otherData = append(otherData[:len(otherData)-len(completedTurn(12, ""))], completedTurn(12, "qqqqqm")...)
	createLog(t, other, otherData...)
	otherIndex, err := os.ReadFile(indexPath(other))
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) { writeIndexBytes(t, path, []byte("not an index\n")) },
		"cut short": func(t *testing.T, path string) {
			b := readIndexBytes(t, path)
			writeIndexBytes(t, path, b[:len(b)/2])
		},
		"a flipped byte in its head": func(t *testing.T, path string) {
			b := readIndexBytes(t, path)
			end, _ := headEnd(b)
			b[end/2] ^= 0x40
			writeIndexBytes(t, path, b)
		},
		"parts cut short": func(t *testing.T, path string) {
			b := readIndexBytes(t, path)
			writeIndexBytes(t, path, b[:len(b)-1])
		},
		"of another version": func(t *testing.T, path string) {
			b := readIndexBytes(t, path)
			b[len(indexMagic)]++
			writeIndexBytes(t, path, b)
		},
		"of another log": func(t *testing.T, path string) { writeIndexBytes(t, path, otherIndex) },
		"longer than the log": func(t *testing.T, path string) {
			info, _ := os.Stat(path)
			// The log now ends mid-line, before where its index ends.
			if err := os.Truncate(path, info.Size()-200); err != nil {
				t.Fatal(err)
			}
		},
		"over a rewritten middle": func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(b[len(b)/2:], []byte(`"text":"done"`)) + len(b)/2
			copy(b[i:], `"text":"DONE"`)
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s1.jsonl")
			createLog(t, path, manyTurns(12)...)
			spoil(t, path)
			want := rebuilt(t, path)
			p, from := opened(t, path)
			wantSameProjection(t, name, p, want)
			if from != int64(len(headerLine(t, path))) {
				t.Errorf("want a fold from the first event (%d), got one from %d", len(headerLine(t, path)), from)
			}
			if p, from := opened(t, path); from == int64(len(headerLine(t, path))) {
				t.Errorf("want the rebuilt index used by the next Open, got a fold from the start")
			} else {
				wantSameProjection(t, name+", reopened", p, want)
			}
		})
	}
}

func readIndexBytes(t *testing.T, path string) []byte {
	t.Helper()
	return testkit.ReadFile(t, indexPath(path))
}

func writeIndexBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(indexPath(path), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func headerLine(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(line) + "\n"
}

func TestTornLineAfterTheIndexIsRepairedFromTheIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	data := manyTurns(8)
	createLog(t, path, data...)
	clean, _ := os.Stat(path)
	appendLines(t, path, len(data), TurnStart{Turn: 9}, UserMessage{Turn: 9, Kind: KindPrompt, Text: "cut"})
	withTurn, _ := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"step/start","seq":`)
	f.Close()

	want := rebuilt(t, path)
	l := openLog(t, path)
	if l.st.foldFrom != clean.Size() {
		t.Errorf("want the fold to start at the index's end %d, got %d", clean.Size(), l.st.foldFrom)
	}
	if got := types(l.Repaired()); got != "turn/end" {
		t.Errorf("want the open turn closed, got repairs %q", got)
	}
	wantSameProjection(t, "torn", l.Projection(), want)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.HasSuffix(b[:withTurn.Size()], []byte("\n")) || bytes.Contains(b[withTurn.Size():], []byte(`"seq":,`)) ||
		!bytes.Contains(b[withTurn.Size():], []byte(`"turn/end"`)) {
		t.Errorf("want the torn line replaced by the repair, got the tail %q", b[withTurn.Size():])
	}
}

func TestReadEventsFindsAnyLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(40)...)
	_, all, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	l := openLog(t, path)
	var seqs []int64
	var want []Event
	for i := 0; i < len(all); i += 1 + i%(2*indexStride) {
		seqs = append(seqs, all[i].Seq)
		want = append(want, all[i])
	}
	got, err := l.ReadEvents(seqs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("want the %d events asked for, got %d: %s", len(want), len(got), types(got))
	}
	// Events appended since Open are read back too, before any Sync.
	e, err := l.Append(at(1000), TurnStart{Turn: 99})
	if err != nil {
		t.Fatal(err)
	}
	got, err = l.ReadEvents([]int64{e.Seq})
	if err != nil || len(got) != 1 || got[0].Data != (TurnStart{Turn: 99}) {
		t.Errorf("want the appended event read back, got %v, %v", got, err)
	}
	if _, err := l.ReadEvents([]int64{e.Seq + 1}); err == nil {
		t.Errorf("want an error for a seq past the end, got none")
	}
}

func TestHistoryPagesBackThroughTheTranscriptFromStepStarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(20)...)
	l := openLog(t, path)
	want, err := l.Projection().Transcript(l)
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	before, more := l.NextSeq(), true
	for pages := 0; more; pages++ {
		if pages > len(want) {
			t.Fatal("History never reached the start")
		}
		var page []Event
		page, more, err = l.History(before, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) < 5 && more {
			t.Fatalf("want at least 5 events while more remain, got %d", len(page))
		}
		if !startsStep(page[0]) {
			t.Errorf("want every page to start a step or turn, got one starting with %s", page[0].Type)
		}
		got = append(page, got...)
		before = page[0].Seq
	}
	if types(got) != types(want) {
		t.Errorf("want the pages to make up the transcript\n%s\ngot\n%s", types(want), types(got))
	}
}

func TestSyncWritesTheIndexOnceTheLogOutgrowsIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	l, err := Create(path, testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := strings.Repeat("x", 64<<10)
	for i := 0; l.st.size < reindexBytes+(1<<20); i++ {
		if _, err := l.Append(at(i), UserMessage{Kind: KindContext, Text: big}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(indexPath(path)); err == nil {
		t.Fatal("want no index before a Sync")
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	b := readIndexBytes(t, path)
	info, _ := os.Stat(path)
	h, _, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := decodeIndex(b, h, nil)
	if err != nil || ix.covered != info.Size() {
		t.Errorf("want an index of the whole synced log (%d bytes), got %+v, %v", info.Size(), ix, err)
	}
}

// TestRewindAfterOpeningThroughTheIndex: a log opened through its index
// keeps its surface, turns and saved conversations encoded; a rewind
// appended then decodes them and returns to the same conversation as in
// the fold of the whole log, and so does a second open of the result.
func TestRewindAfterOpeningThroughTheIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(12)...)
	back := rebuilt(t, path).Turns()[4].Seq
	l := openLog(t, path)
	if l.st.proj.bulk == nil {
		t.Fatal("want the projection read through the index to keep its bulk encoded")
	}
	for i, d := range []Data{Rewind{Turn: 5, Conversation: true, Back: back}, TurnStart{Turn: 13},
		UserMessage{Turn: 13, Kind: KindPrompt, Text: "after the rewind"}, TurnEnd{Turn: 13, Reason: StopCompleted}} {
		if _, err := l.Append(at(200+i), d); err != nil {
			t.Fatal(err)
		}
	}
	live := l.Projection()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	want := rebuilt(t, path)
	wantSameProjection(t, "after the rewind, in the open log", live, want)
	if got := len(want.Turns()); got != 5 {
		t.Errorf("want turns 1-4 and 13 to stand after rewinding to turn 5, got %d turns", got)
	}
	reopened, _ := opened(t, path)
	wantSameProjection(t, "after the rewind, opened again", reopened, want)
	if !reflect.DeepEqual(reopened.Turns(), want.Turns()) || !reflect.DeepEqual(reopened.SurfaceSeqs(), want.SurfaceSeqs()) {
		t.Error("want the turns and the surface of the reopened log to be the fold's")
	}
	if !reflect.DeepEqual(live.Prompts(), want.Prompts()) {
		t.Errorf("want the prompts of the checkpoint and the one after it, in order, got %q", live.Prompts())
	}
}

// TestTitleFromTheFirstPromptThroughTheIndex: a session without a title
// is named by its first prompt, which a projection read through the index
// finds without listing the prompts.
func TestTitleFromTheFirstPromptThroughTheIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, completedTurn(1, "a")...)
	createLog(t, path+".2", append(completedTurn(1, "a"), completedTurn(2, "b")...)...)
	for _, path := range []string{path, path + ".2"} {
		p, _ := opened(t, path)
		if got, want := p.Title(), rebuilt(t, path).Title(); got != want || want == "" || p.olderPrompts == nil {
			t.Errorf("want the title %q from the encoded prompts, got %q", want, got)
		}
	}
}

// TestIndexPartThatChangedIsFoldedAgain: the parts of an index are read
// when a projection first needs them, and checked then. A part that no
// longer has the checksum its head gives (the index file was replaced or
// damaged since Open) is folded again from the log prefix the index
// covered, so the surface, turns, prompts and saved conversations are
// still the fold's.
func TestIndexPartThatChangedIsFoldedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, manyTurns(12)...)
	want := rebuilt(t, path)
	back := want.Turns()[4].Seq
	l := openLog(t, path)
	b := readIndexBytes(t, path)
	end, _ := headEnd(b)
	for i := end; i < int64(len(b)); i++ {
		b[i] ^= 0x40
	}
	writeIndexBytes(t, path, b)
	p := l.Projection()
	if !reflect.DeepEqual(p.Turns(), want.Turns()) || !reflect.DeepEqual(p.SurfaceSeqs(), want.SurfaceSeqs()) ||
		!reflect.DeepEqual(p.Prompts(), want.Prompts()) {
		t.Error("want the turns, the surface and the prompts of the fold")
	}
	if _, err := l.Append(at(300), Rewind{Turn: 5, Conversation: true, Back: back}); err != nil {
		t.Fatal(err)
	}
	want.Apply(Event{Type: "session/rewind", Seq: l.NextSeq() - 1, Time: at(300), Data: Rewind{Turn: 5, Conversation: true, Back: back}})
	wantSameProjection(t, "rewound after its index changed", l.Projection(), want)
}
