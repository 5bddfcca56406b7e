package pty

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestResumeWithoutAnIDPicksASessionAndContinuesIt: `tack --resume` opens
// the session picker; choosing a session ends that program and starts the
// chosen session's, showing its history and taking the next prompt.
func TestResumeWithoutAnIDPicksASessionAndContinuesIt(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Apples are red."), llmtest.ReplyText("Still red."))
	home, dir := t.TempDir(), t.TempDir()
	askAboutApples(t, srv, home, dir)
	r := start(t, setup{srv: srv, home: home, dir: dir, args: []string{"--resume"}})
	r.script(
		// The list puts the new, current session first; the picker opens
		// with the cursor on the earlier one, which Enter resumes.
		step{want: []string{"Resume session", llmtest.TitleText, "current"},
			until: func(s string) bool { return rowHasAll(s, cursorMark, llmtest.TitleText) }, do: key(vt.KeyEnter)},
		step{want: []string{"Apples are red."}, until: idleScreen,
			do: both(typed("and now?"), key(vt.KeyEnter))},
		step{want: []string{"Still red."}},
	)
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if len(last) < 3 || last[len(last)-2].Content != "Apples are red." {
		t.Fatalf("want the resumed history in the next request, got %+v", last)
	}
}

// TestResumeWithWordsSearchesThePicker: as with claude --resume TERM,
// words that are no session's id open the picker searching for them, and
// Enter resumes what it found.
func TestResumeWithWordsSearchesThePicker(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Apples are red."))
	home, dir := t.TempDir(), t.TempDir()
	askAboutApples(t, srv, home, dir)
	word := strings.Fields(llmtest.TitleText)[1]
	r := start(t, setup{srv: srv, home: home, dir: dir, args: []string{"--resume", word}})
	r.script(
		// The new, current session has no title: the search leaves it out.
		step{want: []string{"Resume session", "Search: " + word, llmtest.TitleText},
			until: func(s string) bool {
				return rowHasAll(s, cursorMark, llmtest.TitleText) && !strings.Contains(s, "current")
			},
			do: key(vt.KeyEnter)},
		step{want: []string{"Apples are red."}, until: idleScreen},
	)
}

// askAboutApples runs one session in dir that asks about apples, and
// exits once the model has titled it (the picker lists it by that title).
func askAboutApples(t *testing.T, srv *llmtest.Server, home, dir string) {
	t.Helper()
	first := start(t, setup{srv: srv, home: home, dir: dir})
	first.waitIdle()
	first.script(
		step{do: both(typed("tell me about apples"), key(vt.KeyEnter))},
		step{want: []string{"Apples are red.", llmtest.TitleText}, until: idleScreen,
			do: func(r *run) { r.Key('d', vt.ModCtrl) }},
	)
	if code := first.exitCode(); code != 0 {
		t.Fatalf("first run: want exit 0, got %d", code)
	}
}

// TestNewCommandStartsAFreshSession: /new ends this session's screen and
// opens a new, empty session with the same settings.
func TestNewCommandStartsAFreshSession(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First answer."), llmtest.ReplyText("Fresh answer."))
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(
		step{do: both(typed("hello"), key(vt.KeyEnter))},
		step{want: []string{"First answer."}, until: idleScreen,
			do: both(typed("/new"), key(vt.KeyEnter))},
		step{until: func(s string) bool { return idleScreen(s) && !strings.Contains(s, "First answer.") },
			do: both(typed("again"), key(vt.KeyEnter))},
		step{want: []string{"Fresh answer."}},
	)
	last := srv.Requests()[1].Messages
	if n := len(last); n != 2 || last[1].Content != "again" {
		t.Fatalf("want the new session's request to hold only the system prompt and the new prompt, got %+v", last)
	}
}

// cursorMark marks the row under a picker's cursor.
const cursorMark = "› "

// rowHasAll reports whether one row of the screen contains every one of
// texts.
func rowHasAll(screen string, texts ...string) bool {
	for _, row := range rowsOf(screen) {
		if containsAll(row, texts) {
			return true
		}
	}
	return false
}
