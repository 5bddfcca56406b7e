package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDirSlugIsReadableAndCollisionSafe(t *testing.T) {
	a := filepath.Base(Dir("/h", "/home/u/my proj"))
	b := filepath.Base(Dir("/h", "/home/u/my-proj"))
	if !strings.HasPrefix(a, "home-u-my-proj-") || !strings.HasPrefix(b, "home-u-my-proj-") {
		t.Errorf("want readable slugs, got %s and %s", a, b)
	}
	if a == b {
		t.Errorf("want distinct slugs for distinct paths, both are %s", a)
	}
	long := filepath.Base(Dir("/h", "/"+strings.Repeat("deep/", 40)+"leaf"))
	if len(long) > maxSlugPath+9 || !strings.Contains(long, "leaf-") {
		t.Errorf("want a bounded slug keeping the path's tail, got %s", long)
	}
	if got := filepath.Dir(Dir("/h", "/")); got != "/h/sessions" {
		t.Errorf("want workspace dirs under /h/sessions, got %s", got)
	}
}

func TestNewIDSortsByTime(t *testing.T) {
	rand := bytes.NewReader([]byte{0x3f, 0x9a, 0x2c, 0x00, 0x00, 0x01})
	first := NewID(time.Date(2026, 11, 30, 7, 15, 2, 0, time.UTC), rand)
	if first != "20261130-071502-3f9a2c" {
		t.Errorf("want 20261130-071502-3f9a2c, got %s", first)
	}
	second := NewID(time.Date(2026, 11, 30, 7, 15, 3, 0, time.UTC), rand)
	if second <= first {
		t.Errorf("want %s to sort after %s", second, first)
	}
}

func TestFindLooksAcrossWorkspaces(t *testing.T) {
	home := t.TempDir()
	path := PathFor(home, "/elsewhere", "20261130-071502-3f9a2c")
	createLog(t, path)
	got, err := Find(home, "20261130-071502-3f9a2c")
	if err != nil || got != path {
		t.Errorf("want %s, got %s (%v)", path, got, err)
	}
	_, err = Find(home, "nope")
	want := "no session nope under " + filepath.Join(home, "sessions") + "; run `tack --resume` with no id to pick one"
	if !errors.Is(err, ErrNotFound) || err.Error() != want {
		t.Errorf("want ErrNotFound saying %q, got %v", want, err)
	}
	if _, err := Find(home, "../x"); err == nil {
		t.Error("want an error for an id with a path in it")
	}
}

// writeSummaryLog writes a log of size bytes whose middle is filler that is
// not JSON, so a reader that reads it whole fails: the listing must not.
func writeSummaryLog(t testing.TB, path string, h Header, head []Data, tail []Data, size int64) {
	t.Helper()
	var buf bytes.Buffer
	line, _ := encodeHeader(h)
	buf.Write(line)
	enc := newLineEncoder()
	seq := int64(0)
	add := func(b *bytes.Buffer, i int, d Data) {
		line, err := enc.encode(Event{Type: d.EventType(), Seq: seq, Time: h.Created.Add(time.Duration(i) * time.Second), Data: d})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		seq++
	}
	for i, d := range head {
		add(&buf, i, d)
	}
	var end bytes.Buffer
	for i, d := range tail {
		add(&end, 1000+i, d)
	}
	if filler := size - int64(buf.Len()+end.Len()); filler > 0 {
		buf.Write(bytes.Repeat([]byte("#"), int(filler-1)))
		buf.WriteByte('\n')
	}
	buf.Write(end.Bytes())
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestListIsNewestFirstWithTitlesFromTheEnds(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	old := testHeader("20261101-000000-aaaaaa")
	writeSummaryLog(t, PathFor(home, cwd, old.ID), old,
		[]Data{TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "old prompt"}, Title{Title: "Early title"}},
		[]Data{TurnEnd{Turn: 1, Reason: StopCompleted}}, 300<<10)
	recent := testHeader("20261102-000000-bbbbbb")
	recent.Created = t0.Add(time.Hour)
	writeSummaryLog(t, PathFor(home, cwd, recent.ID), recent,
		[]Data{Title{Title: "Early title"}},
		[]Data{Title{Title: "Renamed late"}, TurnStart{Turn: 9}}, 200<<10)
	untitled := testHeader("20261103-000000-cccccc")
	untitled.Created = t0.Add(-time.Hour)
	writeSummaryLog(t, PathFor(home, cwd, untitled.ID), untitled,
		[]Data{TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "small session\nmore"}}, nil, 0)
	other := testHeader("20261104-000000-dddddd")
	other.Cwd = "/other"
	writeSummaryLog(t, PathFor(home, "/other", other.ID), other, nil, nil, 0)

	list, err := List(home, cwd, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list {
		if s.Err != nil {
			t.Errorf("%s: %v", s.ID, s.Err)
		}
		got = append(got, s.ID+" "+s.Title+" "+s.LastActive.Sub(t0).String())
	}
	want := []string{
		"20261102-000000-bbbbbb Renamed late 1h16m41s",
		"20261101-000000-aaaaaa Early title 16m40s",
		"20261103-000000-cccccc small session -59m59s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("want\n%s\ngot\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if list[1].Size != 300<<10 || list[1].Cwd != cwd || !list[1].Created.Equal(t0) || list[1].OpenPID != 0 {
		t.Errorf("want size, cwd, created and no holder, got %+v", list[1])
	}

	all, err := List(home, cwd, true)
	if err != nil || len(all) != 4 {
		t.Fatalf("want 4 sessions across workspaces, got %d (%v)", len(all), err)
	}
	latest, err := Latest(home, cwd)
	if err != nil || latest != list[0].Path {
		t.Errorf("want Latest %s, got %s (%v)", list[0].Path, latest, err)
	}
}

func TestListReadsTurnsBranchAndFirstPrompt(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	h := testHeader("20261101-000000-aaaaaa")
	h.Branch = "fix/lexer"
	writeSummaryLog(t, PathFor(home, cwd, h.ID), h,
		[]Data{TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "\n  Fix the   lexer\nand more"}},
		[]Data{TurnStart{Turn: 12}, UserMessage{Turn: 12, Kind: KindPrompt, Text: "again"}, TurnEnd{Turn: 12, Reason: StopCompleted},
			Title{Title: "Lexer work", Source: "model"}}, 300<<10)
	short := testHeader("20261102-000000-bbbbbb")
	writeSummaryLog(t, PathFor(home, cwd, short.ID), short,
		[]Data{TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "one"}, TurnStart{Turn: 2}}, nil, 0)
	list, err := List(home, cwd, false)
	if err != nil || len(list) != 2 {
		t.Fatalf("want 2 sessions, got %d (%v)", len(list), err)
	}
	byID := map[string]Summary{list[0].ID: list[0], list[1].ID: list[1]}
	long := byID[h.ID]
	if long.Turns != 12 || long.Branch != "fix/lexer" || long.FirstPrompt != "Fix the lexer" || long.Title != "Lexer work" {
		t.Errorf("want 12 turns on fix/lexer, first prompt %q, title %q; got %d on %q, %q, %q",
			"Fix the lexer", "Lexer work", long.Turns, long.Branch, long.FirstPrompt, long.Title)
	}
	if s := byID[short.ID]; s.Turns != 2 || s.Branch != "" || s.FirstPrompt != "one" {
		t.Errorf("want 2 turns, no branch, first prompt one; got %d, %q, %q", s.Turns, s.Branch, s.FirstPrompt)
	}
}

func TestListReportsHolderAndUnreadableLogs(t *testing.T) {
	home, cwd := t.TempDir(), "/w"
	l, err := Create(PathFor(home, cwd, "s-open"), testHeader("s-open"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.WriteFile(PathFor(home, cwd, "s-bad"), []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := List(home, cwd, false)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Summary{}
	for _, s := range list {
		byID[s.ID] = s
	}
	if got := byID["s-open"].OpenPID; got != os.Getpid() {
		t.Errorf("want the open session held by pid %d, got %d", os.Getpid(), got)
	}
	if byID["s-bad"].Err == nil {
		t.Error("want an error for the unreadable log")
	}
}

func TestLatestWithoutSessionsSaysSo(t *testing.T) {
	_, err := Latest(t.TempDir(), "/w")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("want ErrNotFound, got %v", err)
	}
}

// bigAnswer is an event larger than List's window.
func bigAnswer(turn int) Data {
	return AssistantMessage{Turn: turn, Step: 1, Text: strings.Repeat("word ", listWindow/4), Finish: "stop"}
}

func listedTitle(t *testing.T, home, cwd string) string {
	t.Helper()
	list, err := List(home, cwd, false)
	if err != nil || len(list) != 1 {
		t.Fatalf("want one session, got %d (%v)", len(list), err)
	}
	return list[0].Title
}

func TestListShowsTheResumedTitleWhenItWasLoggedMidLog(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	path := PathFor(home, cwd, "20261130-071502-3f9a2c")
	createLog(t, path,
		Title{Title: "first prompt", Source: "prompt"},
		bigAnswer(1),
		Title{Title: "Scripted session", Source: "model"},
		bigAnswer(2), bigAnswer(3))
	want := rebuilt(t, path).Title() // the title a resumed session shows
	if got := listedTitle(t, home, cwd); got != want {
		t.Errorf("want the listed title to be the resumed one, %q, got %q", want, got)
	}
}

func TestReopenedLogKeepsRepeatingItsTitle(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	path := PathFor(home, cwd, "20261130-071502-3f9a2c")
	createLog(t, path,
		Title{Title: "first prompt", Source: "prompt"},
		bigAnswer(1),
		Title{Title: "Scripted session", Source: "model"})
	l := openLog(t, path)
	for turn := 2; turn < 4; turn++ {
		if _, err := l.Append(at(turn), bigAnswer(turn)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := listedTitle(t, home, cwd); got != "Scripted session" {
		t.Errorf("want the title logged before the reopen, %q, got %q", "Scripted session", got)
	}
}

func TestTitleIsNotRepeatedInAShortLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "20261130-071502-3f9a2c.jsonl")
	createLog(t, path, append([]Data{Title{Title: "t", Source: "prompt"}}, completedTurn(1, "hi")...)...)
	_, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	titles := 0
	for _, e := range events {
		if _, ok := e.Data.(Title); ok {
			titles++
		}
	}
	if titles != 1 {
		t.Errorf("want 1 title event in a short log, got %d", titles)
	}
}

func TestNestPutsSubagentSessionsUnderTheirParent(t *testing.T) {
	list := []Summary{{ID: "c2", Parent: "p"}, {ID: "q"}, {ID: "orphan", Parent: "gone"}, {ID: "p"}, {ID: "c1", Parent: "p"}, {ID: "g", Parent: "c1"}}
	var got []string
	for _, s := range Nest(list) {
		got = append(got, s.ID)
	}
	if want := "q orphan p c2 c1 g"; strings.Join(got, " ") != want {
		t.Fatalf("want %s, got %s", want, strings.Join(got, " "))
	}
}

// A session the user named is resumed by the name, as claude --resume
// NAME resumes one /rename named: in this workspace first, then in any;
// a name two sessions share is refused with their ids.
func TestResolveFindsASessionByIDOrName(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	named := func(dir, id string, titles ...Title) string {
		path := PathFor(home, dir, id)
		data := []Data{TurnStart{Turn: 1}}
		for _, title := range titles {
			data = append(data, title)
		}
		createLog(t, path, data...)
		return path
	}
	release := named(cwd, "20261101-000000-aaaaaa", Title{Title: "fix the build", Source: TitlePrompt},
		Title{Title: "Release notes", Source: TitleUser}, Title{Title: "Build fixes", Source: TitleModel})
	elsewhere := named("/other", "20261102-000000-bbbbbb", Title{Title: "Parser work", Source: TitleUser})
	named(cwd, "20261103-000000-cccccc", Title{Title: "Twice", Source: TitleUser})
	named("/other", "20261104-000000-dddddd", Title{Title: "Twice", Source: TitleUser})
	named(cwd, "20261105-000000-eeeeee", Title{Title: "Shared", Source: TitleUser})
	named(cwd, "20261106-000000-ffffff", Title{Title: "shared", Source: TitleModel})
	for term, want := range map[string]string{
		"20261101-000000-aaaaaa": release,
		" release   NOTES ":      release,
		"parser work":            elsewhere,
		"Twice":                  PathFor(home, cwd, "20261103-000000-cccccc"),
	} {
		if got, err := Resolve(home, cwd, term); err != nil || got != want {
			t.Errorf("%q: want %s, got %s (%v)", term, want, got, err)
		}
	}
	if _, err := Resolve(home, cwd, "Shared"); err == nil || !strings.Contains(err.Error(),
		`2 sessions are named "Shared"; resume one by its id: 20261106-000000-ffffff, 20261105-000000-eeeeee`) {
		t.Errorf("want a shared name refused with the ids, got %v", err)
	}
	if _, err := Resolve(home, cwd, "Build fixes"); !errors.Is(err, ErrNotFound) {
		t.Errorf("want a title tack made after the user's name not to name the session, got %v", err)
	}
	if p := rebuilt(t, release); p.Title() != "Release notes" || p.Name() != "Release notes" {
		t.Errorf("want the resumed session to keep the user's name, got title %q, name %q", p.Title(), p.Name())
	}
}
