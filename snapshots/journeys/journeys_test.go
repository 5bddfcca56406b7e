package journeys

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var recordFlag = flag.String("record", "", "record the named scripted journey (or all of them) into testdata/ before the replays")

// TestJourneys replays every journey under testdata/ through the real
// session and program, and fails when the tool calls, tool outcomes, turn
// endings, logged events, model requests or final screen differ from the
// recording. With -record it first writes the named scripted journeys.
func TestJourneys(t *testing.T) {
	if *recordFlag != "" {
		recordJourneys(t, *recordFlag)
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			t.Run(e.Name(), func(t *testing.T) { replay(t, filepath.Join("testdata", e.Name())) })
		}
	}
}

// replay runs the journey in dir and compares the outcome with it.
func replay(t *testing.T, dir string) {
	s, err := readSettings(dir)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(filepath.Join(dir, "session.jsonl"))
	if err != nil {
		t.Fatalf("read the recorded session: %v", err)
	}
	p, err := planFromLog(readLog(t, recorded), s)
	if err != nil {
		t.Fatalf("replay %s: %v", dir, err)
	}
	seed := filepath.Join(dir, "workspace")
	if _, err := os.Stat(seed); errors.Is(err, os.ErrNotExist) {
		seed = ""
	}
	r := start(t, p, seed)
	r.act()
	r.finish()
	compareLogs(t, recorded, r.log())
	checkServer(t, r.srv)
	if !t.Failed() { // a replay that went another way shows another screen too
		matchScreen(t, r.screen, dir)
	}
}

// recordJourneys records the scripted journeys named by which ("all" for
// every one).
func recordJourneys(t *testing.T, which string) {
	var names []string
	found := false
	for _, j := range scriptedJourneys() {
		names = append(names, j.name)
		if which == "all" || which == j.name {
			found = true
			t.Run("record/"+j.name, func(t *testing.T) { record(t, j) })
		}
	}
	if !found {
		t.Fatalf("want a scripted journey named %q (or all), have: %s", which, strings.Join(names, ", "))
	}
}

// record runs a scripted journey and writes what happened into
// testdata/<name>: the workspace seed, the session log, the final screen
// and the settings the log does not hold.
func record(t *testing.T, j scripted) {
	dir := filepath.Join("testdata", j.name)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seed := ""
	if len(j.files) > 0 {
		seed = filepath.Join(dir, "workspace")
	}
	for name, content := range j.files {
		path := filepath.Join(seed, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := start(t, j.plan(), seed)
	r.act()
	r.finish()
	screen, bad := settledScreen(t, r.screen)
	checkPalette(t, bad)
	log := r.log()
	checkServer(t, r.srv)
	s := j.settings
	s.Restarts = r.restarts
	write(t, filepath.Join(dir, "screen.golden"), []byte(screen))
	write(t, filepath.Join(dir, "session.jsonl"), log)
	if !reflect.DeepEqual(s, settings{}) {
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "journey.json"), append(b, '\n'))
	}
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
