//go:build unix

package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// Fault tests at the size of a long day's session. The logs are written at
// test time, never kept in the repository.

// Placeholders in the template of a turn's lines: syntheticTurn's turn
// number appears in its fields and call ids, seqs in the envelopes.
const (
	placeholderTurn = 123456789
	placeholderSeq  = 900000000
)

// hugeLog writes a closed log of at least size bytes of syntheticTurns at
// path, with its index, and returns the number of turns and the log's
// projection. The lines are the encoder's lines for one turn with the
// numbers replaced, which writes 100 MB in a fraction of the time
// encoding every event takes (the first turns are checked against the
// encoder); each event is taken in as Append takes it in.
func hugeLog(t *testing.T, path string, size int64) (int, *Projection) {
	t.Helper()
	if testing.Short() {
		t.Skip("writes a log of " + strconv.FormatInt(size>>20, 10) + " MB; skipped with -short")
	}
	l, err := Create(path, testHeader(idFromPath(path)))
	if err != nil {
		t.Fatal(err)
	}
	var template [][]byte
	for i, d := range syntheticTurn(placeholderTurn) {
		line, err := l.enc.encode(Event{Type: d.EventType(), Seq: placeholderSeq + int64(i), Time: t0, Data: d})
		if err != nil {
			t.Fatal(err)
		}
		template = append(template, bytes.Clone(line))
	}
	turns := 0
	for l.st.size < size {
		turns++
		for i, d := range syntheticTurn(turns) {
			e := Event{Type: d.EventType(), Seq: l.st.nextSeq, Time: t0, Data: d}
			line := bytes.ReplaceAll(template[i], []byte(strconv.Itoa(placeholderTurn)), []byte(strconv.Itoa(turns)))
			line = bytes.Replace(line, []byte(`"seq":`+strconv.Itoa(placeholderSeq+i)+`,`), []byte(`"seq":`+strconv.FormatInt(e.Seq, 10)+`,`), 1)
			if turns <= 2 {
				if want, _ := l.enc.encode(e); !bytes.Equal(line, want) {
					t.Fatalf("the template gives\n%s\nwhere the encoder writes\n%s", line, want)
				}
			}
			if _, err := l.w.Write(line); err != nil {
				t.Fatal(err)
			}
			off := l.st.size
			l.st.size += int64(len(line))
			l.st.ingest(decoded{event: e}, off, len(line)-1)
		}
	}
	p := l.st.proj.Clone(true)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return turns, p
}

func TestHugeLogTornMidLineLoadsFromItsIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	turns, want := hugeLog(t, path, hugeBytes)
	clean, _ := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"turn/start","seq":` + strconv.Itoa(turns*len(syntheticTurn(1))) + `,"time":1,"data":{"tu`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	l := openLog(t, path)
	if l.st.foldFrom != clean.Size() || l.st.size != clean.Size() {
		t.Errorf("want the torn line after the index (%d) dropped without folding the log, got a fold from %d to %d",
			clean.Size(), l.st.foldFrom, l.st.size)
	}
	if len(l.Repaired()) != 0 {
		t.Errorf("want nothing to repair after a closed turn, got %s", types(l.Repaired()))
	}
	wantSameProjection(t, "torn", l.Projection(), want)
	if info, _ := os.Stat(path); info.Size() != clean.Size() {
		t.Errorf("want the log cut back to its last whole line (%d bytes), got %d", clean.Size(), info.Size())
	}
}

func TestHugeLogWithAStaleIndexFoldsOnlyTheNewTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	turns, _ := hugeLog(t, path, hugeBytes)
	covered, _ := os.Stat(path)
	more := append(syntheticTurn(turns+1), syntheticTurn(turns+2)...)
	appendLines(t, path, turns*len(syntheticTurn(1)), more...)
	l := openLog(t, path)
	p := l.Projection()
	if l.st.foldFrom != covered.Size() {
		t.Errorf("want the fold to start where the index ends (%d), got %d", covered.Size(), l.st.foldFrom)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	os.Remove(indexPath(path))
	wantSameProjection(t, "stale index", p, rebuiltProjection(t, path))
	if p.Turn() != turns+2 {
		t.Errorf("want %d turns, got %d", turns+2, p.Turn())
	}
}

func TestHugeLogWithACorruptIndexIsRebuilt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	_, want := hugeLog(t, path, hugeBytes)
	b := readIndexBytes(t, path)
	end, _ := headEnd(b)
	b[end/3] ^= 0x01
	writeIndexBytes(t, path, b)
	l := openLog(t, path)
	if l.st.foldFrom != l.st.headerLen {
		t.Errorf("want a corrupt index ignored and the log folded from its first event, got a fold from %d", l.st.foldFrom)
	}
	wantSameProjection(t, "corrupt index", l.Projection(), want)
}

// rebuiltProjection is ReadProjection of a log without an index.
func rebuiltProjection(t *testing.T, path string) *Projection {
	t.Helper()
	p, err := ReadProjection(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHugeLogKilledMidTurnIsRepairedAsASmallOne: a writer killed while a
// tool ran, its last line torn, at the end of a log of hugeBytes. Open
// repairs it from the index on, appending what it appends to a one-turn
// log with the same ending, and holds the log's lock meanwhile and after.
func TestHugeLogKilledMidTurnIsRepairedAsASmallOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	turns, _ := hugeLog(t, path, hugeBytes)
	covered, _ := os.Stat(path)
	n := turns + 1
	appendLines(t, path, turns*len(syntheticTurn(1)), killedDuringTool(n)...)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"tool/result","seq":`); err != nil {
		t.Fatal(err)
	}
	f.Close()

	l := openLog(t, path)
	if l.st.foldFrom != covered.Size() {
		t.Errorf("want the repair to fold from where the index ends (%d), got from %d", covered.Size(), l.st.foldFrom)
	}
	if got, want := payloads(l.Repaired()), wantKilledDuringToolRepairs(n); !reflect.DeepEqual(got, want) {
		t.Errorf("want the repair a small log gets,\n%#v\ngot\n%#v", want, got)
	}
	if _, err := Open(path); !errors.Is(err, ErrLocked) {
		t.Errorf("want a second Open of the repaired log refused as locked, got %v", err)
	}
	p := l.Projection()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	reopenRepairsNothing(t, path)
	os.Remove(indexPath(path))
	wantSameProjection(t, "repaired", p, rebuiltProjection(t, path))
}
