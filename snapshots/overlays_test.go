package snapshots

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// overlaySizes are the sizes every overlay is pinned at: roomy and cramped.
var overlaySizes = []struct{ w, h int }{{100, 30}, {50, 14}}

// ticking is a clock that moves one second per reading, so the keystroke
// guard of questions and approvals has passed by the next key.
func ticking() func() time.Time {
	var mu sync.Mutex
	now := frozen
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// startOverlay runs the chat screen over f with a ticking clock.
func startOverlay(t *testing.T, f *Fake, w, h int, tweak ...func(*app.Options)) *Term {
	t.Helper()
	o := options(f, w, h)
	o.Now = ticking()
	for _, fn := range tweak {
		fn(&o)
	}
	tt := Start(t, app.New(o), w, h)
	tt.WaitText(t, "deepseek-flash")
	if f.Broker != nil { // a question or approval is put before the program starts
		tt.WaitFor(t, "the program showing the pending request", func(string) bool { return f.Showing() })
	}
	return tt
}

// ask puts qs in front of the program through a broker and returns the
// answers or error the asking side gets.
func ask(t *testing.T, f *Fake, qs ...interact.Question) <-chan error {
	b, ctx := mountBroker(t, f)
	done := make(chan error, 1)
	go func() { _, err := b.Ask(ctx, qs); done <- err }()
	return done
}

// approve puts an approval in front of the program.
func approve(t *testing.T, f *Fake, a interact.Approval) {
	b, ctx := mountBroker(t, f)
	go func() { _, _ = b.Approve(ctx, a) }()
}

// mountBroker gives f a broker for the test's requests, and the context
// they are asked in, cancelled when the test ends.
func mountBroker(t *testing.T, f *Fake) (*interact.Broker, context.Context) {
	b := interact.NewBroker()
	t.Cleanup(b.Mount())
	f.Broker = b
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return b, ctx
}

func checksQuestion(multi bool) interact.Question {
	return interact.Question{ID: "checks", Header: "CI", Question: "Which checks should run on every push?",
		MultiSelect: multi, AllowCustom: true, Options: []interact.Option{
			{Label: "go vet", Recommended: true},
			{Label: "staticcheck", Description: "Slower, catches more."},
			{Label: "race tests"},
		}}
}

// overlayCase drives one overlay open; want is text the screen shows once
// it is ready for its golden.
type overlayCase struct {
	name  string
	setup func(t *testing.T, f *Fake) []func(*app.Options)
	drive func(t *testing.T, tt *Term)
	want  []string
}

var overlayCases = []overlayCase{
	{name: "question_single", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		ask(t, f, checksQuestion(false), interact.Question{ID: "second", Question: "And then?", Options: []interact.Option{{Label: "Ship"}}})
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeyDown) }, want: []string{"› 2. staticcheck"}},
	{name: "question_multi", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		ask(t, f, checksQuestion(true))
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeyDown); tt.Key(vt.KeySpace) }, want: []string{"[x] staticcheck"}},
	{name: "question_custom", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		ask(t, f, checksQuestion(true))
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeyTab); tt.Type("only on main") }, want: []string{"only on main"}},
	{name: "question_validation", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		ask(t, f, checksQuestion(true))
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeySpace); tt.Key(vt.KeyEnter) }, want: []string{"Select at least one"}},
	{name: "question_paged", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		ask(t, f, interact.Question{ID: "plan", Header: "Plan review", Question: "Approve this plan and leave plan mode?",
			Detail: "## Plan\n\n" + lines("- Step", 30), Options: []interact.Option{{Label: "Approve"}, {Label: "Keep planning"}}, AllowCustom: true})
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeyPgDown) }, want: []string{"↑ ", "↓ "}},
	{name: "approval_bash", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		approve(t, f, interact.Approval{CallID: "c1", Tool: "bash", Summary: "git status; go vet ./...", Remember: "git status, go vet",
			Card: &card.Card{Kind: card.Terminal, Description: "Check the tree", Terminal: &card.TerminalView{Command: "git status; go vet ./..."}}})
		return nil
	}, want: []string{"Allow once"}},
	{name: "approval_edit", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		approve(t, f, interact.Approval{CallID: "c2", Tool: "edit", Summary: "Edit main.go", Remember: "edit",
			Card: &card.Card{Kind: card.Diff, Title: "Edit main.go", Diffs: []card.FileDiff{{Path: "main.go", Added: 1, Removed: 1,
				Lines: []card.DiffLine{{Op: card.OpContext, Text: "func main() {"}, {Op: card.OpDelete, Text: "\tfmt.Println(\"hello\")"},
					{Op: card.OpAdd, Text: "\tfmt.Println(\"hello\", os.Args[1])"}, {Op: card.OpContext, Text: "}"}}}}}})
		return nil
	}, want: []string{"Allow once"}},
	{name: "model_picker", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		f.Catalog = []llm.Model{
			{Provider: "deepseek", ID: "deepseek-flash", Name: "DeepSeek V4.1 Flash", ContextWindow: 1_000_000, Price: llm.Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20}, DefaultEffort: llm.EffortHigh},
			{Provider: "deepseek", ID: "deepseek-v4-pro", Name: "DeepSeek V4 Pro", ContextWindow: 1_000_000, Price: llm.Price{CacheHit: 0.044, CacheMiss: 1.32, Output: 3.96}, DefaultEffort: llm.EffortHigh},
			{Provider: "openai", ID: "local-qwen", Name: "Local Qwen", ContextWindow: 128_000},
		}
		return nil
	}, drive: func(t *testing.T, tt *Term) {
		tt.Type("/model")
		tt.Key(vt.KeyEnter)
		tt.WaitText(t, "Select model")
		tt.Type("v4")
	}, want: []string{"Filter: v4"}},
	{name: "session_picker", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		at := func(m int) time.Time { return frozen.Add(-time.Duration(m) * time.Minute) }
		f.Listing = []session.Summary{
			{ID: sessionID, Cwd: "/workspace/project", Title: "This session", Branch: "main", Turns: 1, Messages: 4, LastActive: at(0), Size: 2048},
			{ID: "20260313-180000-aa11", Cwd: "/workspace/project", Title: "Fix the lexer", FirstPrompt: "the lexer drops the last token",
				Branch: "fix/lexer", Turns: 7, Messages: 31, LastActive: at(900), Size: 48_000, OpenPID: 4242},
			{ID: "20260312-100000-bb22", Cwd: "/workspace/project", Title: "Write the docs", Branch: "main", Turns: 23, Messages: 1_210, LastActive: at(2000), Size: 1_300_000},
		}
		f.All = f.Listing
		return nil
	}, drive: func(t *testing.T, tt *Term) {
		tt.Type("/resume")
		tt.Key(vt.KeyEnter)
	}, want: []string{"Write the docs"}},
	{name: "command_menu", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		f.CommandList = []commands.Command{
			{Name: "model", Description: "List models, or switch model and reasoning effort", Input: commands.Input{Hint: "[[provider/]model] [effort]"}},
			{Name: "mcp", Description: "List MCP servers"},
			{Name: "help", Description: "Show keyboard shortcuts and commands"},
			{Name: "compact", Description: "Summarise the conversation to free context"},
		}
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Type("/m") }, want: []string{"> /m", "/model [[provider/]model]"}},
	{name: "file_menu", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		home := t.TempDir()
		root := filepath.Join(home, "project")
		testkit.WriteTree(t, root, map[string]string{"main.go": "x", "main_test.go": "x", "cmd/tack/main.go": "x",
			"docs/manual.md": "x", ".hidden/main.go": "x"})
		f.Workspace = root
		return []func(*app.Options){func(o *app.Options) { o.Cwd, o.Home = root, home }}
	}, drive: func(t *testing.T, tt *Term) { tt.Type("look at @ma") }, want: []string{"look at @ma", "File · main.go"}},
	{name: "history_search", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		var l log
		for i, p := range []string{"Fix the failing parser test", "Add a README section on install", "Fix the lexer's last token"} {
			f.Logged = append(f.Logged, l.event(session.TurnStart{Turn: i + 1}),
				l.event(session.UserMessage{Turn: i + 1, Kind: session.KindPrompt, Text: p}),
				l.event(session.TurnEnd{Turn: i + 1, Reason: session.StopCompleted}))
		}
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Ctrl('r'); tt.Type("fix") }, want: []string{"History search: fix", "2/3"}},
	{name: "help", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		f.CommandList = []commands.Command{{Name: "compact", Description: "Summarise the conversation to free context"}}
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Type("?") }, want: []string{"Keyboard shortcuts"}},
	{name: "rewind_picker", setup: func(t *testing.T, f *Fake) []func(*app.Options) {
		var l log
		for i, p := range []string{"Write the parser", "Make the parser tests pass", "Explain the lexer"} {
			turn := i + 1
			f.Logged = append(f.Logged, l.event(session.TurnStart{Turn: turn}),
				l.event(session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: p}))
			if turn < 3 {
				f.Logged = append(f.Logged, l.event(session.Checkpoint{Turn: turn, Phase: session.PhaseTurn, ID: "c" + p[:4], Store: "git"}),
					l.event(session.Checkpoint{Turn: turn, Step: 1, Phase: session.PhaseToolsDone, ID: "d" + p[:4], Store: "git",
						Changed: []string{"parser.go", "parser_test.go"}[:turn]}))
			}
			f.Logged = append(f.Logged, l.event(session.TurnEnd{Turn: turn, Reason: session.StopCompleted}))
		}
		return nil
	}, drive: func(t *testing.T, tt *Term) { tt.Key(vt.KeyEscape); tt.Key(vt.KeyEscape) }, want: []string{"Turn 1  Write the parser"}},
}

// TestOverlayScreens pins every overlay mounted in the running program at
// 100×30 and 50×14.
func TestOverlayScreens(t *testing.T) {
	for _, c := range overlayCases {
		for _, size := range overlaySizes {
			t.Run(c.name+"_"+sizeName(size.w, size.h), func(t *testing.T) {
				f := NewFake(header())
				tweak := c.setup(t, f)
				tt := startOverlay(t, f, size.w, size.h, tweak...)
				if c.drive != nil {
					c.drive(t, tt)
				}
				tt.WaitText(t, c.want...)
				tt.Golden(t, c.name+"_"+sizeName(size.w, size.h))
			})
		}
	}
}

// screenText is the screen's rows without the size header or styles.
func screenText(tt *Term) string {
	s, _ := tt.Snapshot()
	return s[strings.Index(s, "\n")+1 : strings.Index(s, "└")]
}

// TestOverlaysLeaveNoStaleRows opens overlays at 100×30, shrinks the
// terminal to 50×14 while they are open, and closes them: the shrunk screen
// must equal a program started at 50×14 with the overlay open, and the
// closed one a program that never opened it.
func TestOverlaysLeaveNoStaleRows(t *testing.T) {
	for _, name := range []string{"question_single", "approval_bash", "model_picker", "session_picker", "history_search", "command_menu"} {
		t.Run(name, func(t *testing.T) {
			var c overlayCase
			for _, oc := range overlayCases {
				if oc.name == name {
					c = oc
				}
			}
			open := func(w, h int) (*Term, *Fake) {
				f := NewFake(header())
				tt := startOverlay(t, f, w, h, c.setup(t, f)...)
				if c.drive != nil {
					c.drive(t, tt)
				}
				tt.WaitText(t, c.want...)
				return tt, f
			}
			want, _ := open(50, 14)
			wantOpen := screenText(want)
			want.Key(vt.KeyEscape)
			tt, _ := open(100, 30)
			tt.E.Resize(50, 14)
			tt.P.Send(tea.WindowSizeMsg{Width: 50, Height: 14})
			tt.WaitFor(t, "the overlay as a program started at 50×14 shows it", func(string) bool { return screenText(tt) == wantOpen })
			tt.Key(vt.KeyEscape)
			want.WaitFor(t, "the overlay closed", func(string) bool { return !strings.Contains(screenText(want), c.want[len(c.want)-1]) })
			tt.WaitFor(t, "the same screen as a program that closed it at 50×14", func(string) bool { return screenText(tt) == screenText(want) })
		})
	}
}

// denseAnswer is an answer whose every row is text from edge to edge, so
// any transcript cell an overlay fails to clear shows.
func denseAnswer(rows int) string {
	var b strings.Builder
	for i := range rows {
		b.WriteString(strings.Repeat("behind"+itoa(i%10)+" ", 30))
		b.WriteString("\n\n")
	}
	return b.String()
}

// TestFloatingOverlaysClearBehindThem opens the model picker and the
// details dialog over a transcript full of text: no transcript text may
// show on the rows of their frame, beside it, or on the row above and
// below it.
func TestFloatingOverlaysClearBehindThem(t *testing.T) {
	for _, c := range []struct{ name, command, want string }{
		{"model_picker", "/model", "Select model"},
		{"details", "/details", "Transcript details"},
	} {
		for _, size := range overlaySizes {
			t.Run(c.name+"_"+sizeName(size.w, size.h), func(t *testing.T) {
				f := NewFake(header())
				f.Catalog = []llm.Model{{Provider: "deepseek", ID: "deepseek-v4-flash", Name: "DeepSeek V4 Flash", ContextWindow: 1_000_000}}
				var l log
				f.Logged = append(f.Logged, l.event(session.TurnStart{Turn: 1}),
					l.event(session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "Fill the screen"}),
					l.event(session.AssistantMessage{Turn: 1, Step: 1, Text: denseAnswer(20), Finish: llm.FinishStop}),
					l.event(session.TurnEnd{Turn: 1, Reason: session.StopCompleted}))
				tt := startOverlay(t, f, size.w, size.h)
				tt.WaitText(t, "behind9")
				tt.Type(c.command)
				tt.Key(vt.KeyEnter)
				screen := tt.WaitText(t, c.want)
				if err := testkit.FrameClear(screen); err != nil {
					t.Fatal(err)
				}
				if size.w == 100 {
					tt.Golden(t, c.name+"_over_transcript")
				}
			})
		}
	}
}

// TestApprovalKeepsTheCommandAndDenyOnSmallScreens opens a bash approval
// on small terminals: the command it asks about and the Deny choice must
// both be on the screen, above the status row, which the dialog may take.
func TestApprovalKeepsTheCommandAndDenyOnSmallScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{40, 12}, {60, 20}} {
		t.Run(sizeName(size.w, size.h), func(t *testing.T) {
			f := NewFake(header())
			command := "curl -fsSL https://proxy.golang.org/github.com/charmbracelet/x/@v/list | sort -V | tail -n 5"
			tt := startWithBroker(t, f, options(f, size.w, size.h))
			approveNow(t, f, tt, interact.Approval{CallID: "c1", Tool: "bash", Summary: command, Remember: "curl",
				Why: "wants the network: proxy.golang.org", Card: &card.Card{Kind: card.Terminal,
					Description: "List the module's versions", Terminal: &card.TerminalView{Command: command}}})
			screen := tt.WaitText(t, "Allow bash?", "Deny", "$ curl -fsSL", "tail -n 5")
			if !strings.Contains(screen, "\n>") {
				t.Fatalf("want the editor kept, got\n%s", screen)
			}
			tt.Golden(t, "approval_bash_"+sizeName(size.w, size.h))
		})
	}
}

// startWithBroker runs the chat screen over f with a broker mounted and
// waits until it has subscribed (the status row names the model), so a
// request put later finds a settled screen.
func startWithBroker(t *testing.T, f *Fake, o app.Options) *Term {
	t.Helper()
	b := interact.NewBroker()
	t.Cleanup(b.Mount())
	f.Broker = b
	tt := Start(t, app.New(o), o.Width, o.Height)
	tt.WaitText(t, subscribed)
	return tt
}

// approveNow puts a in front of the running program through f's broker
// and waits until the program shows it.
func approveNow(t *testing.T, f *Fake, tt *Term, a interact.Approval) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _, _ = f.Broker.Approve(ctx, a) }()
	tt.WaitFor(t, "the pending approval", func(string) bool { return f.Showing() })
}

// TestFileMenuOffersFilesMadeSinceStart: a file written after the program
// listed the workspace (by the user's editor, git or another shell, not by
// a tool of the session) is offered at the next "@".
func TestFileMenuOffersFilesMadeSinceStart(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "project")
	testkit.WriteTree(t, root, map[string]string{"main.go": "x"})
	f := NewFake(header())
	f.Workspace = root
	tt := startOverlay(t, f, 100, 30, func(o *app.Options) { o.Cwd, o.Home = root, home })
	tt.Type("look at @ma")
	tt.WaitText(t, "File · main.go")
	tt.Type(" and ")
	tt.WaitGone(t, "File · main.go")
	testkit.WriteFile(t, filepath.Join(root, "notes.md"), "x")
	tt.Type("@no")
	tt.WaitText(t, "File · notes.md")
}
