package snapshots

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// requireRestored checks what every way out must leave behind: the main
// screen, a visible cursor and bracketed paste off.
func requireRestored(t *testing.T, tt *Term) {
	t.Helper()
	if tt.E.IsAltScreen() {
		t.Error("want the main screen after exit, got the alternate screen")
	}
	if tt.CursorHidden() {
		t.Error("want the cursor shown after exit, got it hidden")
	}
	if tt.ModeSet(ansi.ModeBracketedPaste) {
		t.Error("want bracketed paste off after exit, got it on")
	}
}

func TestExitRestoresTheTerminal(t *testing.T) {
	tt := start(t, NewFake(header()), 100, 30)
	if !tt.E.IsAltScreen() || !tt.ModeSet(ansi.ModeBracketedPaste) {
		t.Fatal("want the program on the alternate screen with bracketed paste on while it runs")
	}
	tt.Ctrl('d')
	if err := tt.Wait(t); err != nil {
		t.Fatalf("want a clean exit, got %v", err)
	}
	requireRestored(t, tt)
}

func TestCtrlCTwiceExitsAndOnceWarns(t *testing.T) {
	tt := start(t, NewFake(header()), 100, 30)
	tt.Ctrl('c')
	tt.WaitText(t, "Press Ctrl+C again to exit.")
	tt.Ctrl('c')
	if err := tt.Wait(t); err != nil {
		t.Fatalf("want a clean exit, got %v", err)
	}
	requireRestored(t, tt)
}

// panicky panics on Ctrl+P, standing in for a bug in Update.
type panicky struct{ tea.Model }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+p" {
		panic("boom in update")
	}
	m, cmd := p.Model.Update(msg)
	return panicky{m}, cmd
}

func TestPanicRestoresTheTerminalAndKeepsTheReport(t *testing.T) {
	g := app.NewGuard(panicky{app.New(options(NewFake(header()), 100, 30))})
	tt := Start(t, g, 100, 30)
	tt.WaitText(t, subscribed)
	tt.Ctrl('p')
	// The guard quits the program itself; bubbletea's own panic handler,
	// which prints on the alternate screen, must not run.
	if err := tt.Wait(t); err != nil {
		t.Fatalf("want the guard to quit the program cleanly, got %v", err)
	}
	requireRestored(t, tt)
	if rep := g.Report(); !strings.Contains(rep, "boom in update") {
		t.Fatalf("want the panic report kept for after the restore, got %q", rep)
	}
}

// TestTerminationRestoresTheTerminal ends the program the way SIGTERM and
// SIGHUP do in tack: by cancelling the program's context.
func TestTerminationRestoresTheTerminal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tt := Start(t, app.New(options(NewFake(header()), 100, 30)), 100, 30, tea.WithContext(ctx))
	tt.WaitText(t, subscribed)
	cancel()
	if err := tt.Wait(t); !errors.Is(err, tea.ErrProgramKilled) {
		t.Fatalf("want the program killed by its context, got %v", err)
	}
	requireRestored(t, tt)
}

func TestFirstRunTakesAMaskedKeyAndContinues(t *testing.T) {
	f := NewFake(header())
	var got string
	fr := app.NewFirstRun(app.FirstRunOptions{
		CredentialsPath: "/workspace/.tack/credentials", Home: "/workspace",
		Chat: options(nil, 100, 30),
		Open: func(key string) (app.Backend, error) { got = key; return f, nil },
	})
	tt := Start(t, fr, 100, 30)
	tt.WaitText(t, "DeepSeek API key:")
	tt.Golden(t, "first_run")
	tt.Type("sk-test")
	tt.WaitText(t, "DeepSeek API key: •••••••")
	if strings.Contains(tt.Text(), "sk-test") {
		t.Fatal("want the key masked, got it on screen")
	}
	tt.Key(vt.KeyEnter)
	tt.WaitText(t, subscribed, "~/project (main)")
	if got != "sk-test" {
		t.Fatalf("want the typed key stored, got %q", got)
	}
}

func TestResumeShowsTheScreenOfTheLiveSession(t *testing.T) {
	var l log
	live := events(running(), turnOpening(&l, 1, "Run the tests"),
		[]agent.Event{reasoning(1, 1, "Running them."), text(1, 1, "Let me run them.")},
		bashCall(&l, 1, 1, "call_1", "go test ./...", lines("ok  \tpkg", 10), 0),
		l.live(session.StepStart{Turn: 1, Step: 2, Model: "deepseek-flash", Effort: llm.EffortHigh},
			session.AssistantMessage{Turn: 1, Step: 2, Text: "All **10** packages pass.", Usage: llm.Usage{Input: 1200, CacheRead: 3400, Output: 250}, Finish: llm.FinishStop},
			session.StepEnd{Turn: 1, Step: 2, Timing: session.StepTiming{ModelWait: 300, Response: 200}},
			session.TurnEnd{Turn: 1, Reason: session.StopCompleted}),
		idle())
	tt := wantResumedLikeLive(t, live, "All 10 packages pass.")
	tt.Golden(t, "resume")
}

// wantResumedLikeLive draws the live events of a finished turn, then
// starts the app again over their logged events, as a resumed session,
// and fails unless it draws the same screen once both show want. It
// returns the live terminal.
func wantResumedLikeLive(t *testing.T, live []agent.Event, want string) *Term {
	t.Helper()
	f := NewFake(header())
	tt := start(t, f, 100, 30)
	f.Push(live...)
	tt.WaitText(t, want)
	tt.WaitGone(t, "esc to cancel")
	liveScreen, _ := tt.Snapshot()
	var history []session.Event
	for _, e := range live {
		if lg, ok := e.(agent.Logged); ok {
			history = append(history, lg.Event)
		}
	}
	resumed := start(t, NewFake(header(), history...), 100, 30)
	resumed.WaitText(t, want)
	if got, _ := resumed.Snapshot(); got != liveScreen {
		t.Errorf("want the resumed screen to equal the live one\nlive:\n%s\nresumed:\n%s", liveScreen, got)
	}
	return tt
}
