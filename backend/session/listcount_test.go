package session

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// listedMessages is the message count List gives the one session of
// workspace cwd under home.
func listedMessages(t *testing.T, home, cwd string) int {
	t.Helper()
	list, err := List(home, cwd, false)
	if err != nil || len(list) != 1 || list[0].Err != nil {
		t.Fatalf("want one readable session, got %+v, %v", list, err)
	}
	return list[0].Messages
}

// foldedMessages is the message count of the log at path folded whole
// from its file: the oracle List's count must agree with.
func foldedMessages(t *testing.T, path string) (messages int, nextSeq int) {
	t.Helper()
	p, events := foldWhole(t, path)
	return p.Usage().Messages, int(events[len(events)-1].Seq) + 1
}

// countedSession is a closed session of workspace cwd under home whose
// messages include a compaction summary, steering and a pruned result,
// which are not all messages of their own.
func countedSession(t *testing.T, home, cwd string, turns int) string {
	t.Helper()
	data := manyTurns(turns)
	data = append(data, UserMessage{Turn: turns, Kind: KindSummary, Text: "summary", Replace: &Span{Start: 0, End: 40}})
	next := completedTurn(turns+1, "after the summary")
	data = append(data, next[:2]...)
	data = append(data, SteeringMessage{Turn: turns + 1, Text: "and the tests"})
	data = append(data, next[2:]...)
	data = append(data, ToolResult{CallID: "x", Name: "bash", Text: "[pruned]", Replace: &Span{Start: 60, End: 60}})
	path := PathFor(home, cwd, "20261130-090000-aaaaaa")
	createLog(t, path, data...)
	return path
}

// TestListCountsMessagesFromTheIndexAndWhatFollowsIt pins List's message
// count to the fold of the whole log, through a current index, with lines
// after it (in the window List reads and beyond it), with a torn last
// line, and with an index that is not this log's.
func TestListCountsMessagesFromTheIndexAndWhatFollowsIt(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	path := countedSession(t, home, cwd, 40)
	check := func(what string) {
		t.Helper()
		want, _ := foldedMessages(t, path)
		if got := listedMessages(t, home, cwd); got != want {
			t.Errorf("%s: want %d messages, got %d", what, want, got)
		}
	}
	check("closed")
	_, seq := foldedMessages(t, path)
	appendLines(t, path, seq, completedTurn(41, "after the index")...)
	check("a turn after the index")
	var far []Data
	for n := 42; n < 160; n++ {
		far = append(far, completedTurn(n, fmt.Sprintf("turn %d, far past the index", n))...)
	}
	_, seq = foldedMessages(t, path)
	before, _ := os.Stat(path)
	appendLines(t, path, seq, far...)
	if after, _ := os.Stat(path); after.Size()-before.Size() < 2*listWindow {
		t.Fatalf("want more lines after the index than List's windows hold, got %d bytes", after.Size()-before.Size())
	}
	check("turns far past the index")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"user/message","seq":`)
	f.Close()
	check("a torn last line")
	// Another log of the same header: its index matches the header but
	// not the log, which is then counted whole.
	other := t.TempDir()
	otherPath := countedSession(t, other, cwd, 60)
	writeIndexBytes(t, path, readIndexBytes(t, otherPath))
	check("another log's index")
}

// TestListCountsALogWithoutAnIndexWhole: a log killed before it wrote its
// first index, or indexed by an older tack, is counted whole, as long as a
// log gets before its first index; a longer one is unknown until opening
// it rebuilds its index.
func TestListCountsALogWithoutAnIndexWhole(t *testing.T) {
	for _, tc := range []struct {
		turns int
		pad   int // bytes of one more tool result
		known bool
	}{{5, 0, true}, {200, 0, true}, {5, 2 << 20, true}, {5, maxUnindexedCount, false}} {
		home, cwd := t.TempDir(), "/work/proj"
		path := countedSession(t, home, cwd, tc.turns)
		if tc.pad > 0 {
			_, seq := foldedMessages(t, path)
			appendLines(t, path, seq, ToolResult{CallID: "big", Name: "bash", Text: strings.Repeat("x", tc.pad)})
		}
		os.Remove(indexPath(path))
		info, _ := os.Stat(path)
		if long := tc.turns > 5 || tc.pad > 0; long && info.Size() <= 2*listWindow {
			t.Fatalf("want a log longer than List's windows, got %d bytes", info.Size())
		}
		want, _ := foldedMessages(t, path)
		if !tc.known {
			want = -1
		}
		if got := listedMessages(t, home, cwd); got != want {
			t.Errorf("%d bytes without an index: want %d messages, got %d", info.Size(), want, got)
		}
		writeIndexBytes(t, path, []byte("not an index\n"))
		if got := listedMessages(t, home, cwd); got != want {
			t.Errorf("%d bytes with a garbage index: want %d messages, got %d", info.Size(), want, got)
		}
		if !tc.known {
			l := openLog(t, path)
			l.Close()
			if want, _ = foldedMessages(t, path); listedMessages(t, home, cwd) != want || want == 0 {
				t.Errorf("want %d messages once opening rebuilt the index, got %d", want, listedMessages(t, home, cwd))
			}
		}
	}
}

// TestCountMessagesAgreesWithTheFoldLineByLine: the counter reads only
// each line's type, so lines that name a replace field in the ways
// encoding/json accepts (any case, null), and texts that merely quote
// one, are checked against the fold of the same log, as are logs of
// every event type.
func TestCountMessagesAgreesWithTheFoldLineByLine(t *testing.T) {
	header, err := encodeHeader(testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
		`{"type":"user/message","seq":1,"time":1,"data":{"turn":1,"kind":"prompt","text":"say \"replace\":{\"start\":0} back"}}`,
		`{"type":"user/message","seq":2,"time":1,"data":{"turn":1,"kind":"summary","text":"s","Replace":{"start":0,"end":1}}}`,
		`{"type":"user/message","seq":3,"time":1,"data":{"turn":1,"kind":"summary","text":"s","replace":null}}`,
		`{"type":"steering/message","seq":4,"time":1,"data":{"turn":1,"text":"and"}}`,
		`{"type":"tool/result","seq":5,"time":1,"data":{"turn":1,"call_id":"c","name":"bash","text":"[pruned]","REPLACE":{"start":3,"end":3}}}`,
		`{"type":"tool/result","seq":6,"time":1,"data":{"turn":1,"call_id":"c","name":"bash","text":"ok"}}`,
	}
	logs := [][]byte{append(header, strings.Join(lines, "\n")+"\n"...)}
	for _, data := range [][]Data{everyType(), killedDuringTool(1)} {
		logs = append(logs, loggedBytes(t, data...))
	}
	for i, raw := range logs {
		path := writeLog(t, raw)
		h, _, err := Read(path)
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
		disk, err := readDisk(raw, path)
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
		p := NewProjection(h)
		for _, e := range disk.events {
			p.Apply(e)
		}
		body := raw[bytes.IndexByte(raw, '\n')+1:]
		if got, want := countMessages(body), p.Usage().Messages; got != want {
			t.Errorf("log %d: want the fold's %d messages, got %d", i, want, got)
		}
	}
}
