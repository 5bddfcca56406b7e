package session

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestEveryEventTypeRoundTripsThroughTheLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "s1.jsonl")
	want := everyType()
	createLog(t, path, want...)

	h, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if h != testHeader("s1") {
		t.Errorf("want header %+v, got %+v", testHeader("s1"), h)
	}
	// The sample leaves a turn and its step closed, so repair adds nothing.
	if len(events) != len(want) {
		t.Fatalf("want %d events, got %d: %s", len(want), len(events), types(events))
	}
	for i, e := range events {
		if e.Seq != int64(i) || !e.Time.Equal(at(i)) || e.Type != want[i].EventType() {
			t.Errorf("event %d: want seq %d time %v type %s, got %d %v %s", i, i, at(i), want[i].EventType(), e.Seq, e.Time, e.Type)
		}
		if !reflect.DeepEqual(e.Data, want[i]) {
			t.Errorf("event %d (%s): want %#v, got %#v", i, e.Type, want[i], e.Data)
		}
	}
}

func TestLogFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions", "w")
	path := filepath.Join(dir, "s1.jsonl")
	createLog(t, path)
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: want mode %v, got %v", p, want, got)
		}
	}
}

func TestLogLinesCarryEnvelopeAndIgnorableFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, TurnStart{Turn: 1}, Title{Title: "x <y>", Source: "prompt"})
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	want := []string{
		`{"type":"session","version":1,"id":"s1","created":1795000000000,"cwd":"/work/proj","model":"deepseek-v4-flash"}`,
		`{"type":"turn/start","seq":0,"time":1795000000000,"data":{"turn":1}}`,
		`{"type":"session/title","seq":1,"time":1795000001000,"data":{"title":"x <y>","source":"prompt"},"ignorable":true}`,
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("want lines\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(lines, "\n"))
	}
}

func TestAppendContinuesSeqAfterReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, completedTurn(1, "a")...)
	l := openLog(t, path)
	e, err := l.Append(at(100), TurnStart{Turn: 2})
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 11 {
		t.Errorf("want seq 11, got %d", e.Seq)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(at(101), TurnStart{Turn: 3}); !errors.Is(err, ErrClosed) {
		t.Errorf("want ErrClosed after Close, got %v", err)
	}
	_, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(events); n != 13 || events[11].Type != "turn/start" || events[12].Type != "turn/end" {
		t.Errorf("want 11 events, the new turn/start and its repair turn/end, got %d: %s", n, types(events))
	}
}

func TestCreateRefusesAnExistingLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path)
	if _, err := Create(path, testHeader("s1")); err == nil || !errors.Is(err, os.ErrExist) {
		t.Errorf("want an already-exists error, got %v", err)
	}
}

func TestCreatedHeaderIsReadableBeforeTheFirstSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws", "s1.jsonl")
	l, err := Create(path, testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h, events, err := Read(path)
	if err != nil || h.ID != "s1" || len(events) != 0 {
		t.Fatalf("want header s1 and no events before any Sync, got %+v, %d events, %v", h, len(events), err)
	}
	if err := l.Sync(); err != nil {
		t.Fatalf("want the first Sync to make the new log durable, got %v", err)
	}
}

func TestAppendRefusesTheTranscriptMarker(t *testing.T) {
	l, err := Create(filepath.Join(t.TempDir(), "s1.jsonl"), testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(t0, CompactionMarker{}); err == nil {
		t.Error("want an error appending a CompactionMarker, got nil")
	}
}

func TestUnknownRequiredTypeIsRefusedNamingTypeLineAndFile(t *testing.T) {
	path := writeFile(t,
		`{"type":"session","version":1,"id":"s1","created":1,"cwd":"/w","model":"m"}`,
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
		`{"type":"goal/set","seq":1,"time":2,"data":{"goal":"x"}}`,
		`{"type":"turn/end","seq":2,"time":3,"data":{"turn":1,"reason":"completed"}}`,
	)
	for name, load := range map[string]func() error{
		"Read": func() error { _, _, err := Read(path); return err },
		"Open": func() error { _, err := Open(path); return err },
	} {
		err := load()
		var unknown *UnknownTypeError
		if !errors.As(err, &unknown) {
			t.Fatalf("%s: want *UnknownTypeError, got %v", name, err)
		}
		want := "session log " + path + ` uses event type goal/set at line 3, which this version of tack does not know; upgrade tack to open it`
		if err.Error() != want {
			t.Errorf("%s: want %q, got %q", name, want, err.Error())
		}
	}
}

func TestUnknownIgnorableTypeIsSkippedButKeepsItsSeq(t *testing.T) {
	path := writeFile(t,
		`{"type":"session","version":1,"id":"s1","created":1,"cwd":"/w","model":"m"}`,
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
		`{"type":"hook/invoked","seq":1,"time":2,"data":{"hook":"x"},"ignorable":true}`,
		`{"type":"turn/end","seq":2,"time":3,"data":{"turn":1,"reason":"completed"}}`,
	)
	l := openLog(t, path)
	if got := types(l.Events()); got != "turn/start turn/end" {
		t.Errorf("want the unknown event skipped, got %s", got)
	}
	e, err := l.Append(t0, TurnStart{Turn: 2})
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 3 {
		t.Errorf("want the next seq 3 after the skipped event, got %d", e.Seq)
	}
}

// TestBrokenLogIsCorruptionNamingTheLine pins what Read says of a log
// broken before its last line: which line, and what to do about it.
func TestBrokenLogIsCorruptionNamingTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, start, end, want string
	}{
		{"seq gap", `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`,
			`{"type":"turn/end","seq":2,"time":3,"data":{"turn":1,"reason":"completed"}}`, "line 3"},
		{"broken line before the last", `{"type":"turn/start","seq":0,"ti`,
			`{"type":"turn/end","seq":1,"time":3,"data":{"turn":1,"reason":"completed"}}`, "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, `{"type":"session","version":1,"id":"s1","created":1,"cwd":"/w","model":"m"}`, tc.start, tc.end)
			_, _, err := Read(path)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "start a new session, or repair or delete that line") {
				t.Errorf("want ErrCorrupt naming %s and what to do, got %v", tc.want, err)
			}
		})
	}
}

func TestNewerFormatVersionIsRefused(t *testing.T) {
	path := writeFile(t, `{"type":"session","version":2,"id":"s1","created":1,"cwd":"/w","model":"m"}`)
	if _, _, err := Read(path); err == nil || !strings.Contains(err.Error(), "upgrade tack") {
		t.Errorf("want an upgrade error, got %v", err)
	}
}

func TestConcurrentAppendsGetContiguousSeqs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	l, err := Create(path, testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if _, err := l.Append(at(i), CommandRun{ID: strconv.Itoa(w), Name: "x"}); err != nil {
					t.Error(err)
				}
				if i%50 == 0 {
					l.Events()
					if err := l.Sync(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	_, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != writers*each {
		t.Errorf("want %d events, got %d", writers*each, len(events))
	}
}

func TestCreateInAnUnwritableHomeSaysWhatToDo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "home")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Create(PathFor(file, "/w", "s1"), testHeader("s1"))
	if err == nil || !strings.Contains(err.Error(), "set TACK_HOME to a directory tack may write") {
		t.Errorf("want an error saying to set TACK_HOME, got %v", err)
	}
}

// TestHeaderLongerThanItsBufferIsRead: the header is read with a small
// buffer; a working directory longer than that still opens, through the
// index and without it.
func TestHeaderLongerThanItsBufferIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	h := testHeader("s1")
	h.Cwd = "/" + strings.Repeat("d", 3*headerBufferSize)
	l, err := Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range completedTurn(1, "a") {
		if _, err := l.Append(at(i), d); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, through := range []string{"index", "log"} {
		l, err := Open(path)
		if err != nil {
			t.Fatalf("through the %s: %v", through, err)
		}
		if got := l.Header().Cwd; got != h.Cwd || l.NextSeq() != 11 {
			t.Errorf("through the %s: want the %d-byte cwd and 11 events, got %d bytes and %d", through, len(h.Cwd), len(got), l.NextSeq())
		}
		l.Close()
		os.Remove(indexPath(path))
	}
}
