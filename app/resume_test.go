//go:build unix

package app

import (
	"fmt"
	"os"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// TestResumedLongSessionShowsTheLiveScreens: a long session is shown as it
// happens in one chat model, and resumed from its log in another, which
// starts from the latest turns and reads the rest as it scrolls up. At
// the bottom, at the top and on the pages between (every page of the
// shortest session, every 40th of the 10,000-message one), the two
// screens are the same. TACK_HUGE_SESSIONS=1 adds a session of 100,000
// messages (every 400th page), which takes half a minute.
func TestResumedLongSessionShowsTheLiveScreens(t *testing.T) {
	sizes := []int{1_000, 10_000}
	if os.Getenv("TACK_HUGE_SESSIONS") == "1" {
		sizes = append(sizes, 100_000)
	}
	for _, messages := range sizes {
		t.Run(fmt.Sprintf("messages=%d", messages), func(t *testing.T) {
			if testing.Short() && messages > 1_000 {
				t.Skip("a 10,000-message session; skipped with -short")
			}
			path, h := writeStory(t, messages)
			_, events, err := session.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			r := resume(t, path)
			defer r.close()
			resumed := r.model
			live := liveModel(h, events, resumed.model, resumed.permission)
			if r.model.tr.Blocks() >= live.tr.Blocks() {
				t.Fatalf("want the resumed model to start with fewer blocks than the whole session's %d, got %d", live.tr.Blocks(), r.model.tr.Blocks())
			}
			wantSameScreen(t, "at the bottom", live, resumed)
			toTop(live)
			toTop(resumed)
			wantSameScreen(t, "at the top", live, resumed)
			every := 1
			if messages > 1_000 {
				every = messages / 250
			}
			for page := 1; live.scroll > 0; page++ {
				live.Update(keyMsg("pgdown"))
				resumed.Update(keyMsg("pgdown"))
				if page%every == 0 || live.scroll == 0 {
					wantSameScreen(t, fmt.Sprintf("page %d from the top", page), live, resumed)
				}
			}
		})
	}
}

func keyMsg(s string) tea.KeyPressMsg {
	switch s {
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl}
	}
	panic(s)
}

// liveModel is the chat model that showed events as they were logged.
// The model and permission mode on its status row are the resumed one's.
func liveModel(h session.Header, events []session.Event, model modelInfo, permission string) *Model {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 120, Height: 40, Colour: true, Cwd: "/w", Home: "/home/u", Branch: "main"})
	m.Update(subscribedMsg{sessionID: h.ID, header: h, sub: be, model: model, permission: permission,
		history: agent.Snapshot{Projection: session.NewProjection(h)}})
	for len(events) > 0 {
		n := min(len(events), 11)
		var batch []agent.Event
		for _, e := range events[:n] {
			batch = append(batch, agent.Logged{Event: e})
		}
		m.Update(eventsMsg{events: batch, model: model, permission: permission})
		events = events[n:]
	}
	return m
}

// toTop scrolls m to the top with one Ctrl+Home, reading history as its
// commands would.
func toTop(m *Model) {
	m.Update(keyMsg("home"))
	readHistory(m, m.be)
}

func wantSameScreen(t *testing.T, where string, live, resumed *Model) {
	t.Helper()
	if l, r := ansi.Strip(screen(live)), ansi.Strip(screen(resumed)); l != r {
		t.Fatalf("%s: want the resumed screen to be the live one\nlive:\n%s\nresumed:\n%s", where, l, r)
	}
	if l, r := screen(live), screen(resumed); l != r {
		t.Fatalf("%s: want the resumed screen styled as the live one", where)
	}
}

// TestResumedSessionRecallsItsPromptsWithUp: the prompts of a resumed
// session are listed when the first Up needs them, in a command, and the
// keys pressed meanwhile wait for them. Listed, Up recalls them, the
// latest first.
func TestResumedSessionRecallsItsPromptsWithUp(t *testing.T) {
	path, _ := writeStory(t, 1_000)
	r := resume(t, path)
	m := r.model
	_, listing := m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if listing == nil || m.editor.Value() != "" {
		t.Fatalf("want the first Up to wait for the prompts to be listed, got the editor at %q", m.editor.Value())
	}
	later := []tea.KeyPressMsg{{Code: tea.KeyUp}, {Code: '!', Text: "!"}, {Code: tea.KeyUp}}
	for _, k := range later {
		m.Update(k)
	}
	m.Update(listing())
	got := m.editor.Value()
	r.close()
	// The oracle: the same keys pressed once the prompts are listed.
	listed := resume(t, path)
	defer listed.close()
	l := listed.model
	l.Update(loadRecall(l.proj.ForDisplay())())
	for _, want := range []string{"Fix failing test 250 in the parser", "Fix failing test 249 in the parser"} {
		l.Update(tea.KeyPressMsg{Code: tea.KeyUp})
		if got := l.editor.Value(); got != want {
			t.Fatalf("want Up to recall %q, got %q", want, got)
		}
	}
	l.Update(later[1])
	l.Update(later[2])
	if want := l.editor.Value(); got != want {
		t.Fatalf("want the keys pressed while the prompts were listed to act as they would after, got %q, want %q", got, want)
	}
}

// TestCtrlRListsAResumedSessionsPromptsWithTheOthers: before Up has listed
// them, Ctrl+R opens at once and lists this session's prompts in the
// command that reads the other sessions'.
func TestCtrlRListsAResumedSessionsPromptsWithTheOthers(t *testing.T) {
	path, _ := writeStory(t, 1_000)
	r := resume(t, path)
	defer r.close()
	m := r.model
	_, read := m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if m.ov.history == nil || read == nil {
		t.Fatal("want Ctrl+R to open the search at once and read the prompts in a command")
	}
	m.Update(read())
	for _, r := range "test 17 " {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got, want := m.editor.Value(), "Fix failing test 17 in the parser"; got != want {
		t.Fatalf("want the search to find this session's prompt %q, got %q", want, got)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	if !m.recall.ready {
		t.Error("want the prompts the search listed kept for Up")
	}
}
