package journeys

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// What a run reads off the screen and the keys it presses. They are kept
// here, together, because they follow the program's interface.

// keyboard types into the program by writing to the emulator's input
// pipe. It does not go through snapshots.Term's Type and Key: those hold
// the emulator's lock while the unbuffered pipe blocks, and when the
// program's renderer is waiting for that lock to draw a frame, its event
// loop waits for the renderer and its input reader for the event loop,
// nobody reads the pipe and the run deadlocks. Writing to the pipe reads
// no emulator state, so it needs no lock.
type keyboard struct{ e *vt.Emulator }

func (k keyboard) typ(s string) { k.e.SendText(s) }

// The bytes a terminal sends for the keys a run presses (cursor keys in
// normal mode, which is the program's).
const (
	keyEnter = "\r"
	keyEsc   = "\x1b"
	keyTab   = "\t"
	keySpace = " "
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keyCtrlJ = "\n"
	keyCtrlD = "\x04"
)

// keyGuard is more than the time the approval dialog and the question
// panel ignore keys for after they open; the run moves the program's
// clock on by it before answering.
const keyGuard = time.Second

// approvalKeys decides the approval on screen as d says: y allows, a
// allows for the session, Esc denies without a reason, and n opens the
// reason field, where the reason is typed and Enter denies.
func approvalKeys(kb keyboard, d interact.Decision) {
	switch {
	case d.Verdict == interact.Allow:
		kb.typ("y")
	case d.Verdict == interact.AllowSession:
		kb.typ("a")
	case d.Reason == "":
		kb.typ(keyEsc)
	default:
		kb.typ("n")
		kb.typ(d.Reason)
		kb.typ(keyEnter)
	}
}

// questionKeys answers the questions on the panel, one after the other:
// the cursor goes to the first option, then down to the chosen one and
// Enter; for several choices Space toggles every option whose mark differs
// from the answer (recommended options start marked); a custom answer is
// typed after Tab.
func questionKeys(kb keyboard, qs []interact.Question, answers []interact.Answer) {
	for i, q := range qs {
		var a interact.Answer
		if i < len(answers) {
			a = answers[i]
		}
		for range q.Options {
			kb.typ(keyUp)
		}
		cursor := 0
		moveTo := func(j int) {
			for ; cursor < j; cursor++ {
				kb.typ(keyDown)
			}
		}
		for j, o := range q.Options {
			chosen := slices.Contains(a.Selected, o.Label)
			if q.MultiSelect && chosen != o.Recommended {
				moveTo(j)
				kb.typ(keySpace)
			}
			if !q.MultiSelect && chosen && a.Custom == "" {
				moveTo(j)
			}
		}
		if a.Custom != "" {
			if len(q.Options) > 0 {
				kb.typ(keyTab)
			}
			kb.typ(a.Custom)
		}
		kb.typ(keyEnter)
	}
}

// clock is the program's clock: fixed, except that the run moves it on
// past the key guard of dialogs. Nothing the final screen shows reads it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// settledScreen waits until the screen has stopped changing (the program
// draws throttled frames) and returns it with any palette violations.
// Recording trusts it; the replays then check that the screen is the same
// every time.
func settledScreen(t testing.TB, screen func() (string, []string)) (string, []string) {
	t.Helper()
	const still = 20 // polls 10 ms apart with the same screen
	deadline := time.Now().Add(testkit.WaitLimit)
	last, bad := screen()
	for same := 0; same < still; {
		if time.Now().After(deadline) {
			t.Fatalf("want the screen to settle within %v, it kept changing; last:\n%s", testkit.WaitLimit, last)
		}
		time.Sleep(10 * time.Millisecond)
		s, b := screen()
		if s == last {
			same++
		} else {
			same, last, bad = 0, s, b
		}
	}
	return last, bad
}

// matchScreen waits for the screen to equal the golden file in dir
// (rewriting it instead with -update) and fails with both screens when it
// does not within the wait limit. Any colour outside the 16-colour palette
// fails too.
func matchScreen(t testing.TB, screen func() (string, []string), dir string) {
	t.Helper()
	path := filepath.Join(dir, "screen.golden")
	if golden.Updating() {
		got, bad := settledScreen(t, screen)
		checkPalette(t, bad)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden screen: %v (go test ./snapshots/journeys -update writes it)", err)
	}
	var got string
	var bad []string
	testkit.Poll(testkit.WaitLimit, func() bool { got, bad = screen(); return got == string(want) })
	checkPalette(t, bad)
	if got != string(want) {
		t.Errorf("final screen differs from %s (go test ./snapshots/journeys -update rewrites it)\nwant:\n%s\ngot:\n%s", path, want, got)
	}
}

func checkPalette(t testing.TB, bad []string) {
	t.Helper()
	if len(bad) > 0 {
		t.Errorf("final screen leaves the 16-colour palette (%d cells), first: %s", len(bad), bad[0])
	}
}
