package session

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// checkpointedTurns is n turns with a checkpoint at the start of each and
// one after its tools, and a rewind every seventh turn.
func checkpointedTurns(n int) []Data {
	var data []Data
	for i := 1; i <= n; i++ {
		turn := completedTurn(i, fmt.Sprintf("prompt %d", i))
		data = append(data, turn[0], Checkpoint{Turn: i, Phase: PhaseTurn, ID: fmt.Sprintf("c%d", i)})
		data = append(data, turn[1:]...)
		data = append(data, Checkpoint{Turn: i, Phase: PhaseToolsDone, ID: fmt.Sprintf("t%d", i), Changed: []string{"a.go"}})
		if i%7 == 0 {
			data = append(data, Rewind{Turn: i, Conversation: true, Back: 0})
		}
	}
	return data
}

// TestScanFindsTheEventsOfItsTypesFromASeq pins Scan to the whole log read
// and filtered: from every kind of start (the first line, inside a block,
// a block's first line, past the end), through the index and through
// lines appended since it, and stopping when visit says so.
func TestScanFindsTheEventsOfItsTypesFromASeq(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, checkpointedTurns(60)...)
	l := openLog(t, path)
	if _, err := l.Append(at(2000), Checkpoint{Turn: 61, Phase: PhaseTurn, ID: "late"}); err != nil {
		t.Fatal(err)
	}
	all, err := l.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wanted := []string{Checkpoint{}.EventType(), Rewind{}.EventType()}
	for _, from := range []int64{-5, 0, 1, indexStride - 1, indexStride, 3*indexStride + 17, int64(len(all)) - 1, int64(len(all)), 1 << 40} {
		var want []Event
		for _, e := range all {
			if e.Seq >= from && slices.Contains(wanted, e.Type) {
				want = append(want, e)
			}
		}
		var got []Event
		err := l.Scan(from, wanted, func(e Event) bool { got = append(got, e); return true })
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Scan from %d: want %d events (%s), got %d (%s), %v", from, len(want), types(want), len(got), types(got), err)
		}
	}
	var got []Event
	err = l.Scan(0, wanted[:1], func(e Event) bool { got = append(got, e); return len(got) < 3 })
	if err != nil || len(got) != 3 || got[2].Data.(Checkpoint).ID != "c2" {
		t.Errorf("want Scan to stop at the third checkpoint, c2, got %s, %v", types(got), err)
	}
}
