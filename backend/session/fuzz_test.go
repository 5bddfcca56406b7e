package session

import (
	"bufio"
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// seedLogs are real logs written by Create and Append: every event type, a
// closed conversation, and a writer killed mid-tool.
func seedLogs(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	for _, data := range [][]Data{
		everyType(),
		append(completedTurn(1, "hi"), completedTurn(2, "again")...),
		killedDuringTool(1),
	} {
		out = append(out, loggedBytes(f, data...))
	}
	return out
}

// addSeedLogs seeds f with every seed log, whole and with its last third
// cut off mid-line.
func addSeedLogs(f *testing.F) {
	for _, raw := range seedLogs(f) {
		f.Add(raw)
		f.Add(raw[:len(raw)-len(raw)/3])
	}
}

// FuzzRead reads arbitrary bytes as a session log. Read either refuses the
// log as corrupt or of an unknown type, or returns the events on disk in
// seq order followed by repairs that close the open turn: after them every
// dispatched or requested tool call of that turn has a result and no step or
// turn is left open.
func FuzzRead(f *testing.F) {
	addSeedLogs(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		path := writeLog(t, raw)
		_, events, err := Read(path)
		if err != nil {
			var unknown *UnknownTypeError
			if !errors.Is(err, ErrCorrupt) && !errors.As(err, &unknown) {
				t.Fatalf("want a corrupt log or an unknown type error, got %v", err)
			}
			return
		}
		disk, err := readDisk(raw, path)
		if err != nil {
			t.Fatalf("want a scan of the log to accept what Read accepted, got %v", err)
		}
		checkRepaired(t, disk, events)
	})
}

// FuzzOpenRepairs opens arbitrary bytes as a session log. Open accepts
// exactly what Read accepts and loads the same events, writing the repairs
// Read added in memory, so the log reads back unchanged with nothing left to
// repair. It is a target of its own because Open syncs the file, which
// makes each run slower than Read's.
func FuzzOpenRepairs(f *testing.F) {
	addSeedLogs(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		path := writeLog(t, raw)
		_, read, readErr := Read(path)
		l, err := Open(path)
		if (err == nil) != (readErr == nil) {
			t.Fatalf("want Open to fail exactly when Read does (%v), got %v", readErr, err)
		}
		if err != nil {
			return
		}
		if got := l.Events(); !reflect.DeepEqual(got, read) {
			t.Fatalf("want Open to load what Read did:\n%s\ngot\n%s", types(read), types(got))
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		_, again, err := Read(path)
		if err != nil {
			t.Fatalf("want the repaired log to read back, got %v", err)
		}
		if !reflect.DeepEqual(again, read) {
			t.Fatalf("want the repaired log to read back as before:\n%s\ngot\n%s", types(read), types(again))
		}
	})
}

// onDisk is what a log holds before repair.
type onDisk struct {
	events  []Event
	nextSeq int64
}

// readDisk scans a log's bytes without repairing them.
func readDisk(raw []byte, path string) (onDisk, error) {
	br := bufio.NewReader(bytes.NewReader(raw))
	_, headerLen, err := readHeader(br, path)
	if err != nil {
		return onDisk{}, err
	}
	var disk onDisk
	sc, err := scanEvents(br, path, position{off: headerLen, line: 2}, false, func(d decoded, _ int64, _ int) {
		if !d.skip {
			disk.events = append(disk.events, d.event)
		}
	})
	disk.nextSeq = sc.end.seq
	return disk, err
}

// checkRepaired pins Read's events to the log on disk plus repairs with
// the next seqs, and checks that the repairs closed the open turn.
func checkRepaired(t *testing.T, disk onDisk, events []Event) {
	t.Helper()
	n := len(disk.events)
	if len(events) < n || !reflect.DeepEqual(events[:n], disk.events) {
		t.Fatalf("want Read to start with the %d events on disk, got %d events", n, len(events))
	}
	for i, e := range events {
		if i > 0 && e.Seq <= events[i-1].Seq {
			t.Fatalf("event %d: want seq above %d, got %d", i, events[i-1].Seq, e.Seq)
		}
		if i >= n && e.Seq != disk.nextSeq+int64(i-n) {
			t.Fatalf("repair %d: want seq %d, got %d", i-n, disk.nextSeq+int64(i-n), e.Seq)
		}
	}
	tail := events[lastTurnEnd(disk.events)+1:]
	if open := openWork(tail); len(open) > 0 {
		t.Fatalf("want the open turn closed after repair, still open: %v", open)
	}
	if again := closers(events); len(again) > 0 {
		t.Fatalf("want no repairs of a repaired log, got %#v", again)
	}
}

// lastTurnEnd is the index of the last turn/end in events, -1 when none.
// Repair does not revisit turns that ended.
func lastTurnEnd(events []Event) int {
	last := -1
	for i, e := range events {
		if _, ok := e.Data.(TurnEnd); ok {
			last = i
		}
	}
	return last
}

// openWork lists what events leave open: tool calls dispatched or asked
// for by the last assistant message without a result, a step without its
// end, a turn without its end.
func openWork(events []Event) []string {
	answered := map[string]bool{}
	var calls []string
	var asked []string
	var step, turn bool
	for _, e := range events {
		switch d := e.Data.(type) {
		case AssistantMessage:
			asked = asked[:0]
			for _, c := range d.ToolCalls {
				asked = append(asked, c.ID)
			}
		case ToolCall:
			calls = append(calls, d.CallID)
		case ToolResult:
			if d.Replace == nil {
				answered[d.CallID] = true
			}
		case StepStart:
			step = true
		case StepEnd:
			step = false
		case TurnStart:
			turn = true
		case TurnEnd:
			turn = false
		}
	}
	var open []string
	for _, id := range append(calls, asked...) {
		if !answered[id] {
			open = append(open, "tool call "+id)
		}
	}
	if step {
		open = append(open, "step")
	}
	if turn {
		open = append(open, "turn")
	}
	return open
}
