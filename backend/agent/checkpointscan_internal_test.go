package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
	"github.com/tack-agent/tack/snapshots/testkit/procstat"
)

// checkpointedStory logs a story of turns turns, each with a checkpoint
// "c<n>" taken before it ran and "t<n>" after its tools, and before the
// last turn a rewind of turn rewound's files that stands, whose "before"
// checkpoint is "b<rewound>". It returns the open log.
func checkpointedStory(t testing.TB, turns, rewound int) *session.Log {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	log, err := session.Create(path, session.Header{Version: 1, ID: "s", Created: time.Unix(0, 0), Cwd: dir, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	at := time.Unix(1, 0)
	add := func(d session.Data) session.Event {
		e, err := log.Append(at, d)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	var back int64
	for n := 1; n <= turns; n++ {
		if n == turns {
			add(session.Checkpoint{Turn: n - 1, Phase: session.PhaseRewind, ID: fmt.Sprintf("b%d", rewound)})
			add(session.Rewind{Turn: rewound, Back: back, Files: fmt.Sprintf("c%d", rewound), Before: fmt.Sprintf("b%d", rewound)})
		}
		story := sessiontest.Turn(n, dir, "m", n == turns)
		start := add(story[0])
		if n == rewound {
			back = start.Seq
		}
		add(session.Checkpoint{Turn: n, Phase: session.PhaseTurn, ID: fmt.Sprintf("c%d", n)})
		for i, d := range story[1:] {
			add(d)
			if i == 4 { // after the tool result
				add(session.Checkpoint{Turn: n, Phase: session.PhaseToolsDone, ID: fmt.Sprintf("t%d", n), Changed: []string{"lexer.go"}})
			}
		}
	}
	if err := log.Sync(); err != nil {
		t.Fatal(err)
	}
	return log
}

// checkpointsOf are the checkpoint events of the whole log, read back
// whole: the oracle the targeted scans must agree with.
func checkpointsOf(t *testing.T, log *session.Log) []session.Event {
	t.Helper()
	all, err := log.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []session.Event
	for _, e := range all {
		if _, ok := e.Data.(session.Checkpoint); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestKeptCheckpointsAreThoseOfTheNewestTurnsAndOfTheRewinds(t *testing.T) {
	log := checkpointedStory(t, 30, 12)
	a := &Agent{cfg: Config{Log: log}, proj: log.Projection()}
	got, err := a.keptCheckpoints(5)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"b12": true}
	for _, e := range checkpointsOf(t, log) {
		if c := e.Data.(session.Checkpoint); c.Turn > 25 {
			want[c.ID] = true
		}
	}
	if len(want) != 11 || len(got) != len(want) {
		t.Fatalf("want the 10 checkpoints of turns 26-30 and b12 kept, got %v (the log has %v)", got, want)
	}
	for id := range want {
		if !got[id] {
			t.Errorf("want %s kept, got %v", id, got)
		}
	}
}

// pruneRecorder is a store due for a prune that records what it is asked
// to keep.
type pruneRecorder struct {
	Checkpoints
	kept []map[string]bool
}

func (p *pruneRecorder) Due() bool { return true }

func (p *pruneRecorder) Prune(_ context.Context, r checkpoint.Retention) (int, error) {
	p.kept = append(p.kept, r.Keep)
	return 0, nil
}

// unreadableLog is a log whose file can no longer be read back.
type unreadableLog struct{ *session.Log }

func (unreadableLog) Scan(int64, []string, func(session.Event) bool) error {
	return errors.New("read session log: input/output error")
}

// TestPruneSkipsALogItCannotRead: a prune keeps only the checkpoints it
// names, so one that could not read which to keep must not run.
func TestPruneSkipsALogItCannotRead(t *testing.T) {
	log := checkpointedStory(t, 3, 1)
	for _, readable := range []bool{true, false} {
		store := &pruneRecorder{}
		var l Log = log
		if !readable {
			l = unreadableLog{log}
		}
		a := &Agent{cfg: Config{Log: l, Checkpoints: store, Retention: Retention{Turns: 1, Days: 1}, Now: time.Now}, proj: log.Projection()}
		a.maybePrune(context.Background())
		a.bg.Wait()
		if readable && (len(store.kept) != 1 || !store.kept[0]["c3"]) {
			t.Errorf("want one prune keeping c3, got %v", store.kept)
		}
		if !readable && len(store.kept) != 0 {
			t.Errorf("want no prune of an unreadable log, got %v", store.kept)
		}
		if got := len(a.notices); readable != (got == 0) || !readable && !strings.Contains(a.notices[0].Text, "could not read the session log") {
			t.Errorf("want a notice only when the log cannot be read, got %v", a.notices)
		}
	}
}

func TestRewindPointsFindTheirCheckpointsInTheLog(t *testing.T) {
	log := checkpointedStory(t, 30, 12)
	a := &Agent{cfg: Config{Log: log}, proj: log.Projection()}
	var c25, b12 int64 = -1, -1
	for _, e := range checkpointsOf(t, log) {
		switch e.Data.(session.Checkpoint).ID {
		case "c25":
			c25 = e.Seq
		case "b12":
			b12 = e.Seq
		}
	}
	pt, err := a.turnPoint(a.proj.Turns(), RewindRequest{Turn: 25, Files: true})
	if err != nil || pt.checkpoint != "c25" || pt.since != c25 {
		t.Errorf("want turn 25's point at checkpoint c25, seq %d, got %q at seq %d, %v", c25, pt.checkpoint, pt.since, err)
	}
	pt, _, err = a.undoPoint(a.proj.Rewinds(), RewindRequest{Undo: true, Files: true})
	if err != nil || pt.checkpoint != "b12" || pt.since != b12 {
		t.Errorf("want the undo's point at checkpoint b12, seq %d, got %q at seq %d, %v", b12, pt.checkpoint, pt.since, err)
	}
	if base, err := a.diffBase(0); err != nil || base != "c1" {
		t.Errorf("want /diff to compare with the first checkpoint, c1, got %q, %v", base, err)
	}
}

// BenchmarkCheckpointLookups finds the checkpoints a prune keeps, a
// rewind's point and an undo's point in a session of 100,000 messages
// (10,000 under -short, the CI smoke).
func BenchmarkCheckpointLookups(b *testing.B) {
	messages := 100_000
	if testing.Short() {
		messages = 10_000
	}
	log := checkpointedStory(b, messages/sessiontest.MessagesPerTurn, 100)
	a := &Agent{cfg: Config{Log: log}, proj: log.Projection()}
	turns := a.proj.Turns()
	last := turns[len(turns)-1].Turn
	newest := fmt.Sprintf("c%d", last)
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"kept", func() error {
			kept, err := a.keptCheckpoints(100)
			if err == nil && (!kept["b100"] || !kept[newest] || len(kept) < 100) {
				err = fmt.Errorf("want b100, %s and the newest turns' checkpoints kept, got %d of them", newest, len(kept))
			}
			return err
		}},
		{"rewind", func() error {
			pt, err := a.turnPoint(turns, RewindRequest{Turn: last, Files: true})
			if err == nil && pt.checkpoint != newest {
				err = fmt.Errorf("want turn %d's point at %s, got %q", last, newest, pt.checkpoint)
			}
			return err
		}},
		{"undo", func() error {
			pt, _, err := a.undoPoint(a.proj.Rewinds(), RewindRequest{Undo: true, Files: true})
			if err == nil && pt.checkpoint != "b100" {
				err = fmt.Errorf("want the undo's point at b100, got %q", pt.checkpoint)
			}
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cpu := procstat.CPUTime()
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((procstat.CPUTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}
