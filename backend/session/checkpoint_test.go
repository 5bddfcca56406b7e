package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
)

var update = flag.Bool("update", false, "rewrite testdata/checkpoint.golden")

// foldedEverything is a projection in which every field holds something:
// a closed turn, one event of every type, then an open turn with a todo
// list, a prompt and a pruned tool result.
func foldedEverything() (*Projection, Events) {
	data := append(completedTurn(1, "a"), everyType()...)
	data = append(data,
		TurnStart{Turn: 2},
		UserMessage{Turn: 2, Kind: KindPrompt, Text: "second prompt"},
		TodoWrite{Turn: 2, Todos: []card.TodoItem{{Content: "b", Status: "in_progress"}}},
		ToolResult{Turn: 2, CallID: "a-c1", Name: "bash", Text: "[pruned]", Replace: &Span{Start: 5, End: 5}},
		Title{Title: "Release notes", Source: TitleUser},
	)
	return projectEvents(data...)
}

// withoutBodies is p without the message bodies a checkpoint leaves out.
func withoutBodies(p *Projection) *Projection {
	strip := func(entries []surfaceEntry) []surfaceEntry {
		out := slices.Clone(entries)
		for i := range out {
			out[i].msg = nil
		}
		return out
	}
	p.surface.cur = strip(p.surface.cur)
	p.surface.frozen = slices.Clone(p.surface.frozen)
	for v := range p.surface.frozen {
		p.surface.frozen[v] = strip(p.surface.frozen[v])
	}
	return p
}

// encoded is the checkpoint bytes of p, its head and then its parts.
func encoded(p *Projection) []byte {
	var w wire
	encodeProjection(&w, p)
	return append(w.b, w.parts...)
}

// readBack is p written to a checkpoint and read back, its parts in
// memory.
func readBack(p *Projection) *Projection {
	var w wire
	encodeProjection(&w, p)
	return decodeProjection(&unwire{b: w.b, src: &partSource{mem: w.parts}}, p.header)
}

func TestCheckpointRoundTripsEveryField(t *testing.T) {
	p, _ := foldedEverything()
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		// refs is how a copy is made; bulk, olderPrompts and savedOld are
		// how a checkpoint is read, broken why it could not be.
		if name := v.Type().Field(i).Name; !slices.Contains([]string{"refs", "bulk", "broken", "olderPrompts", "savedOld"}, name) && v.Field(i).IsZero() {
			t.Errorf("want the fixture to set Projection.%s, so the checkpoint is seen to keep it; "+
				"extend foldedEverything (and encodeProjection, if it does not write the field)", name)
		}
	}
	got := readBack(p)
	if got.savedOld == nil || len(got.saved) != 0 {
		t.Errorf("want the saved conversations kept encoded, got %d decoded", len(got.saved))
	}
	if got.bulk == nil || len(got.surface.cur) != 0 || len(got.turns.cur) != 0 || len(got.turnNotes) != 0 {
		t.Errorf("want the surface, turns and notes kept encoded until needed, got %d, %d and %d decoded",
			len(got.surface.cur), len(got.turns.cur), len(got.turnNotes))
	}
	if got.olderPrompts == nil || len(got.prompts) != 0 {
		t.Errorf("want the prompts kept encoded until listed, got %d decoded", len(got.prompts))
	}
	if want := promptTitle(p.prompts[0]); got.Title() != "Release notes" || promptTitle(got.olderPrompts.first) != want {
		t.Errorf("want the title and the first prompt (%q) read from the encoded prompts, got %q and %q", want, got.Title(), got.olderPrompts.first)
	}
	got.unpack()
	got.unpackPrompts()
	got.saved, got.savedOld = got.allSaved(), nil
	if want := withoutBodies(p.Clone(true)); !reflect.DeepEqual(got, want) {
		t.Errorf("want the checkpoint to read back as the projection written\nwant %+v\ngot  %+v", want, got)
	}
}

// TestCheckpointVersion guards indexVersion: an index written by a tack
// whose fold gave a different projection must not be read as current.
// When this fails, what a fold produces (or the encoding) has changed:
// bump indexVersion and run the test with -update.
func TestCheckpointVersion(t *testing.T) {
	p, _ := foldedEverything()
	sum := sha256.Sum256(encoded(p))
	got := fmt.Sprintf("indexVersion %d\ncheckpoint sha256 %s\n", indexVersion, hex.EncodeToString(sum[:]))
	path := filepath.Join("testdata", "checkpoint.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		wantVersion, _, _ := strings.Cut(string(want), "\n")
		if strings.HasPrefix(got, wantVersion+"\n") {
			t.Fatalf("the checkpoint of the same fold changed under %s: bump indexVersion in index.go, "+
				"then run go test ./backend/session -run CheckpointVersion -update", wantVersion)
		}
		t.Fatalf("want %s, got %s; run with -update after bumping indexVersion", want, got)
	}
}

// TestCheckpointKeepsAnUnneededBulkAsRead: a projection read from a
// checkpoint that never needed its surface, turns and notes writes them
// back as it read them, without decoding them.
func TestCheckpointKeepsAnUnneededBulkAsRead(t *testing.T) {
	p, _ := foldedEverything()
	first := encoded(p)
	got := readBack(p)
	again := encoded(got.ForDisplay())
	if !bytes.Equal(again, first) {
		t.Errorf("want a copy of the read projection to write the same checkpoint (%d bytes), got %d bytes", len(first), len(again))
	}
	if got.bulk == nil || got.olderPrompts == nil {
		t.Error("want the bulk and the prompts still encoded after writing them")
	}
	got.unpack()
	got.unpackPrompts()
	if !bytes.Equal(encoded(got), first) {
		t.Error("want the decoded bulk to write the same checkpoint again")
	}
}
