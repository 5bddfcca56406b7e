package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// paragraphs streams n numbered paragraphs as one delta each.
func paragraphs(from, n int) []agent.Event {
	var evs []agent.Event
	for i := from; i < from+n; i++ {
		evs = append(evs, agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: fmt.Sprintf("Paragraph %d.\n\n", i)}})
	}
	return evs
}

func TestNewOutputFollowsOnlyAtTheBottom(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 60, Height: 14})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 14})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be})
	start := []agent.Event{
		agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
	}
	m.Update(eventsMsg{events: append(start, paragraphs(1, 20)...)})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Paragraph 20.") {
		t.Fatalf("want the newest paragraph on screen while at the bottom, got\n%s", s)
	}

	m.Update(keys.Key("pgup"))
	before := ansi.Strip(screen(m))
	m.Update(eventsMsg{events: paragraphs(21, 5)})
	if after := ansi.Strip(screen(m)); after != before {
		t.Fatalf("want the scrolled-up view to stay still as output arrives, got\n%s\nwant\n%s", after, before)
	}

	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	m.Update(eventsMsg{events: paragraphs(26, 3)})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Paragraph 28.") {
		t.Fatalf("want the view back at the bottom to follow new output, got\n%s", s)
	}
}

// viewportTop is the first row of the transcript area m draws.
func viewportTop(m *Model) string {
	return strings.TrimRight(ansi.Strip(strings.Split(screen(m), "\n")[0]), " ")
}

// scrolledUp is a 60×14 chat model showing a session of events, scrolled
// up screens times.
func scrolledUp(events []session.Event, screens int) *Model {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 60, Height: 14})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 14})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be, history: snapshotOf(events)})
	for range screens {
		m.Update(keys.Key("pgup"))
	}
	return m
}

// scrolledToPrompt is scrolledUp a few screens and on to a row that heads
// a turn, which no display setting changes; top is that row.
func scrolledToPrompt(t *testing.T, events []session.Event) (m *Model, top string) {
	t.Helper()
	m = scrolledUp(events, 4)
	for range 30 {
		if top := viewportTop(m); strings.HasPrefix(top, "› Fix test") {
			return m, top
		}
		m.scrollBy(1)
	}
	t.Fatalf("want a prompt at the top of the view scrolled up, got\n%s", ansi.Strip(screen(m)))
	return nil, ""
}

// Expanding cards, showing reasoning and their way back re-lay out every
// row around a reader scrolled up into a session; the row they were
// reading stays at the top of the view. At the bottom, the view stays at
// the bottom.
func TestTogglesKeepTheScrolledUpViewInPlace(t *testing.T) {
	m, top := scrolledToPrompt(t, history(40))
	for _, key := range []string{"ctrl+o", "ctrl+t", "ctrl+o", "ctrl+t", "ctrl+o"} {
		m.Update(keys.Key(key))
		if got := viewportTop(m); got != top {
			t.Fatalf("after %s: want %q still at the top of the view, got %q in\n%s", key, top, got, ansi.Strip(screen(m)))
		}
	}

	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	m.Update(keys.Key("ctrl+o"))
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Tool and context cards expanded.") {
		t.Fatalf("want the view at the bottom to stay there and show the notice, got\n%s", s)
	}
}

// scrolledToCard is scrolledToPrompt and on to the header of the tool
// card below that prompt; top is that header.
func scrolledToCard(t *testing.T) (m *Model, top string) {
	t.Helper()
	m, _ = scrolledToPrompt(t, history(40))
	for range 30 {
		if top := viewportTop(m); strings.HasPrefix(top, "✓ Bash(go test") {
			return m, top
		}
		m.scrollBy(-1)
	}
	t.Fatalf("want a tool card at the top of the view scrolled up, got\n%s", ansi.Strip(screen(m)))
	return nil, ""
}

// firstText is the first row of the view with text on it.
func firstText(m *Model) string {
	for _, r := range viewRows(m) {
		if r != "" {
			return r
		}
	}
	return ""
}

// Hiding tool cards takes away the card a reader scrolled up to; what
// came below it moves up to the top of the view, and showing cards again
// brings the card back to the top, as long as the reader stayed put.
func TestHidingTheCardAtTheTopOfTheViewAndBackKeepsThePlace(t *testing.T) {
	m, top := scrolledToCard(t)
	m.Update(keys.Key("ctrl+o"))
	if got := viewportTop(m); got != top {
		t.Fatalf("expanded: want %q still at the top of the view, got %q in\n%s", top, got, ansi.Strip(screen(m)))
	}
	m.Update(keys.Key("ctrl+o"))
	if got := firstText(m); got != "## Fixed" {
		t.Fatalf("hidden: want the answer below the card at the top of the view, got %q in\n%s", got, ansi.Strip(screen(m)))
	}
	m.Update(keys.Key("ctrl+t"))
	m.Update(keys.Key("ctrl+t"))
	m.Update(keys.Key("ctrl+o"))
	if got := viewportTop(m); got != top {
		t.Fatalf("collapsed again: want %q back at the top of the view, got %q in\n%s", top, got, ansi.Strip(screen(m)))
	}

	m.Update(keys.Key("ctrl+o"))
	m.Update(keys.Key("ctrl+o"))
	m.scrollBy(-1)
	m.Update(keys.Key("ctrl+o"))
	if got := viewportTop(m); got != "## Fixed" {
		t.Fatalf("scrolled while hidden: want the row read then, %q, at the top of the view, got %q in\n%s", "## Fixed", got, ansi.Strip(screen(m)))
	}
}

// A resize re-wraps every row; a reader scrolled up keeps what they were
// reading in view.
func TestResizeKeepsTheScrolledUpViewInPlace(t *testing.T) {
	m, top := scrolledToPrompt(t, history(40))
	for _, size := range []tea.WindowSizeMsg{{Width: 100, Height: 20}, {Width: 40, Height: 12}, {Width: 60, Height: 14}} {
		m.Update(size)
		if s := ansi.Strip(screen(m)); !strings.Contains(s, top) {
			t.Fatalf("after a resize to %dx%d: want %q still in view, got\n%s", size.Width, size.Height, top, s)
		}
	}
	if got := viewportTop(m); got != top {
		t.Errorf("back at the first size: want %q at the top of the view, got %q", top, got)
	}
}

// A resize re-wraps a long paragraph to fewer or more rows; a reader
// scrolled up into its middle keeps the words they were reading in view.
func TestResizeKeepsTheWordsReadInALongParagraphInView(t *testing.T) {
	events := history(12)
	seq, turn := int64(len(events)), 1000
	words := make([]string, 600)
	for i := range words {
		words[i] = fmt.Sprintf("w%03d", i)
	}
	for _, d := range []session.Data{
		session.TurnStart{Turn: turn},
		session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: "Say many words"},
		session.StepStart{Turn: turn, Step: 1},
		session.AssistantMessage{Turn: turn, Step: 1, Text: strings.Join(words, " ")},
		session.StepEnd{Turn: turn, Step: 1},
		session.TurnEnd{Turn: turn, Reason: session.StopCompleted},
	} {
		seq++
		events = append(events, session.Event{Type: d.EventType(), Seq: seq, Data: d})
	}
	m := scrolledUp(events, 3)
	top := strings.Fields(viewportTop(m))
	if len(top) == 0 || !strings.HasPrefix(top[0], "w") {
		t.Fatalf("want the view scrolled into the long paragraph, got\n%s", ansi.Strip(screen(m)))
	}
	for _, size := range []tea.WindowSizeMsg{{Width: 120, Height: 14}, {Width: 30, Height: 14}} {
		m.Update(size)
		if s := ansi.Strip(screen(m)); !strings.Contains(s, top[0]) {
			t.Fatalf("after a resize to %dx%d: want %s still in view, got\n%s", size.Width, size.Height, top[0], s)
		}
	}
}

// allRows is every row m's transcript area can show, banner included,
// plain: its oracle for where a view should be, as it renders every block.
func allRows(m *Model) []string {
	rows := m.bannerRows()
	for h := m.tr.Lines() + 100; ; h *= 2 {
		if tr := m.tr.Render(0, h); len(tr) < h {
			rows = append(slices.Clone(rows), tr...)
			break
		}
	}
	for i, r := range rows {
		rows[i] = strings.TrimRight(ansi.Strip(r), " ")
	}
	return rows
}

// viewRows is the plain rows of m's transcript area.
func viewRows(m *Model) []string {
	rows := strings.Split(ansi.Strip(screen(m)), "\n")[:m.viewportRows()]
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return rows
}

// Showing reasoning leaves every block below a scrolled-up view with an
// estimated height; paging down over them still moves a page less a row,
// counted as the rows render, and paging back up returns.
func TestPagingAfterAToggleMovesAPageOfRenderedRows(t *testing.T) {
	m, top := scrolledToPrompt(t, history(40))
	m.Update(keys.Key("ctrl+t"))
	oracle, _ := scrolledToPrompt(t, history(40))
	oracle.Update(keys.Key("ctrl+t"))
	all := allRows(oracle)
	start := slices.Index(all, top)
	vp := m.viewportRows()
	want := func(at int) []string {
		at = min(at, len(all)-vp)
		return all[at : at+vp]
	}
	for i := 0; i <= 3; i++ {
		if got := viewRows(m); !slices.Equal(got, want(start+i*(vp-1))) {
			t.Fatalf("after %d pages down: want the view\n%s\ngot\n%s", i, strings.Join(want(start+i*(vp-1)), "\n"), strings.Join(got, "\n"))
		}
		m.Update(keys.Key("pgdown"))
	}
	for range 4 {
		m.Update(keys.Key("pgup"))
	}
	if got := viewportTop(m); got != top {
		t.Errorf("back four pages up: want %q at the top of the view, got %q", top, got)
	}
}

// Ctrl+Home, or paging up, from the bottom of a resumed session reaches
// blocks never drawn, whose heights are estimates, and a toggle at the
// top makes them estimates again; the view shows the transcript's first
// rows all the same, every row of it filled.
func TestTheTopOfAResumedSessionShowsItsFirstRows(t *testing.T) {
	for _, c := range []struct{ up, then string }{{"ctrl+home", ""}, {"pgup", ""}, {"ctrl+home", "ctrl+t"}, {"ctrl+home", "ctrl+o"}} {
		m := scrolledUp(history(40), 0)
		for range 200 {
			m.Update(keys.Key(c.up))
		}
		if c.then != "" {
			m.Update(keys.Key(c.then))
		}
		oracle := scrolledUp(history(40), 0)
		oracle.tr.SetSettings(m.tr.Settings())
		want := allRows(oracle)[:m.viewportRows()]
		if got := viewRows(m); !slices.Equal(got, want) {
			t.Fatalf("%s %s: want the first rows\n%s\ngot\n%s", c.up, c.then, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
	}
}

// A failed read of earlier history adds its notice at the bottom of the
// transcript; a reader scrolled up stays at what they were reading.
func TestAFailedReadOfEarlierHistoryKeepsTheScrolledUpView(t *testing.T) {
	m, top := scrolledToPrompt(t, history(40))
	m.Update(earlierMsg{load: m.earlier.load, err: fmt.Errorf("the disk is gone")})
	if got := viewportTop(m); got != top {
		t.Fatalf("want %q still at the top of the view, got %q in\n%s", top, got, ansi.Strip(screen(m)))
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	if s := ansi.Strip(screen(m)); !strings.Contains(strings.Join(strings.Fields(s), " "), "Could not read the earlier history of this session: the disk is gone") {
		t.Fatalf("want the failure told at the bottom, got\n%s", s)
	}
}
