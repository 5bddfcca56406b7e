package snapshots

import (
	"bytes"
	"regexp"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// sgr matches a Select Graphic Rendition sequence: colour or attribute.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// recorder keeps every byte the program writes, then passes it on to the
// emulator, holding back what came before the emulator was known.
type recorder struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	pending bytes.Buffer
	next    *frameWriter
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf.Write(p)
	if r.next == nil {
		return r.pending.Write(p)
	}
	return r.next.Write(p)
}

// passTo sends what the program wrote so far, and all it writes from now
// on, to w.
func (r *recorder) passTo(w frameWriter) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next = &w
	_, err := w.Write(r.pending.Bytes())
	r.pending.Reset()
	return err
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.buf.Bytes())
}

// startUnstyled runs the chat screen over f with colour off (color =
// false, NO_COLOR, --color never) and records what the program writes.
func startUnstyled(t *testing.T, f *Fake, w, h int, tweak ...func(*app.Options)) (*Term, *recorder) {
	t.Helper()
	o := options(f, w, h)
	o.Now, o.Colour = ticking(), false
	for _, fn := range tweak {
		fn(&o)
	}
	rec := &recorder{}
	tt := Start(t, app.New(o), w, h, tea.WithOutput(rec))
	if err := rec.passTo(frameWriter{tt}); err != nil {
		t.Fatal(err)
	}
	tt.WaitText(t, "deepseek-flash")
	if f.Broker != nil {
		tt.WaitFor(t, "the program showing the pending request", func(string) bool { return f.Showing() })
	}
	return tt, rec
}

// assertUnstyled fails when a cell of the screen carries a colour or an
// attribute (bold, faint, italic, underline, reverse) or when the program
// wrote an SGR sequence at all.
func assertUnstyled(t *testing.T, tt *Term, rec *recorder) {
	t.Helper()
	tt.screen.Lock()
	for y := range tt.E.Height() {
		for x := range tt.E.Width() {
			if c := tt.E.CellAt(x, y); c != nil && !c.Style.IsZero() {
				tt.screen.Unlock()
				t.Fatalf("want no styling without colour, got %q at %d,%d styled %+v; the screen is:\n%s", c.Content, x, y, c.Style, tt.Text())
			}
		}
	}
	tt.screen.Unlock()
	if m := sgr.Find(rec.bytes()); m != nil {
		t.Fatalf("want no SGR sequence without colour, got %q", m)
	}
}

// TestColourOffDrawsNoStyleAtAll renders a transcript with every kind of
// block (Markdown with headings, emphasis, links and code, reasoning, a
// failed command, a diff, a plan) and every overlay with colour off.
func TestColourOffDrawsNoStyleAtAll(t *testing.T) {
	f := NewFake(header())
	tt, rec := startUnstyled(t, f, 100, 40)
	var l log
	diff := card.Card{Kind: card.Diff, Title: "Edit main.go", Diffs: []card.FileDiff{{
		Path: "main.go", Added: 1, Removed: 1, Lines: []card.DiffLine{
			{Op: card.OpContext, Text: "func main() {"},
			{Op: card.OpDelete, Text: "\tfmt.Println(\"hello\")"},
			{Op: card.OpAdd, Text: "\tfmt.Println(\"hello\", name)"},
		}}}}
	answer := "## Plan\n\nI will *edit* `main.go`, see [the docs](https://go.dev):\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\n> quoted\n\n- one\n- **two**"
	f.Push(events(running(), turnOpening(&l, 1, "Greet by name"),
		bashCall(&l, 1, 1, "c0", "go test ./...", "FAIL\tpkg", 1),
		l.live(session.TodoWrite{Turn: 1, Todos: []card.TodoItem{{Content: "Edit main", Status: card.TodoInProgress}, {Content: "Test", Status: card.TodoPending}}}),
		toolStep(&l, 1, 2, "c1", "edit", "", diff, session.ToolResult{Text: "Edited main.go", Card: &diff}),
		l.live(session.AssistantMessage{Turn: 1, Step: 3, Reasoning: "The user wants a **greeting**.", Text: answer, Finish: llm.FinishStop}),
		[]agent.Event{reasoning(2, 1, "Thinking about *it*"), text(2, 1, "Streaming `code` and **bold**")})...)
	tt.WaitText(t, "func main() { fmt.Println", "Edit(main.go)", "+1 -1", "Streaming code")
	assertUnstyled(t, tt, rec)
}

func TestColourOffOverlaysDrawNoStyleAtAll(t *testing.T) {
	for _, c := range overlayCases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFake(header())
			tweak := c.setup(t, f)
			tt, rec := startUnstyled(t, f, 100, 30, tweak...)
			if c.drive != nil {
				c.drive(t, tt)
			}
			tt.WaitText(t, c.want...)
			assertUnstyled(t, tt, rec)
		})
	}
}

// TestColourOffMarksTheSelection checks that lists still show what is
// chosen without reverse video: by their marker.
func TestColourOffMarksTheSelection(t *testing.T) {
	for name, want := range map[string]string{"question_single": "› 2. staticcheck", "approval_bash": "[", "model_picker": "› ", "command_menu": "›/"} {
		t.Run(name, func(t *testing.T) {
			var c overlayCase
			for _, oc := range overlayCases {
				if oc.name == name {
					c = oc
				}
			}
			f := NewFake(header())
			tt, _ := startUnstyled(t, f, 100, 30, c.setup(t, f)...)
			if c.drive != nil {
				c.drive(t, tt)
			}
			tt.WaitText(t, append(c.want, want)...)
		})
	}
}
