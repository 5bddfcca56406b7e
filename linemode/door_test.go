package linemode

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// watchedScreen is a screen a test can wait on for text to appear.
type watchedScreen struct {
	screen
	wrote chan struct{}
}

func newWatchedScreen() *watchedScreen { return &watchedScreen{wrote: make(chan struct{}, 1)} }

func (w *watchedScreen) Write(p []byte) (int, error) {
	n, err := w.screen.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// waitFor blocks until the screen shows want.
func (w *watchedScreen) waitFor(t *testing.T, want string) {
	t.Helper()
	w.waitCount(t, want, 1)
}

// waitCount blocks until the screen shows want n times.
func (w *watchedScreen) waitCount(t *testing.T, want string, n int) {
	t.Helper()
	deadline := time.After(testkit.WaitLimit)
	for strings.Count(w.String(), want) < n {
		select {
		case <-w.wrote:
		case <-deadline:
			t.Fatalf("want %q %d time(s) on the screen within %s, got %q", want, n, testkit.WaitLimit, w.String())
		}
	}
}

// door runs line mode over a scripted model and feeds it inputs.
type doorRun struct {
	home  string
	cwd   string
	srv   *llmtest.Server
	out   *watchedScreen
	errs  *watchedScreen
	lines chan input
	code  chan int
	stop  chan struct{} // closed when the test ends, for a blocked feed
}

// doorConfig varies how startDoor runs line mode.
type doorConfig struct {
	// extra registers commands in each session's registry.
	extra func(*commands.Registry) error
	// reopen lets /new and /resume switch sessions.
	reopen bool
	// reopenErr makes every switch fail.
	reopenErr error
	terminal  bool
	// mode is the permission mode ("" for the default).
	mode string
	// env adds to the environment; files are written into the workspace.
	env   map[string]string
	files map[string]string
}

// startDoor runs line mode on piped input over script.
func startDoor(t *testing.T, c doorConfig, script ...llmtest.Response) *doorRun {
	t.Helper()
	srv := llmtest.New(t, script...)
	home, cwd := t.TempDir(), t.TempDir()
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	maps.Copy(env, c.env)
	for p, content := range c.files {
		if err := os.WriteFile(filepath.Join(cwd, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opened := false // the first open is line mode's own; only later ones may fail
	reopen := func(id string) (*launch.Session, error) {
		if id == "" && c.reopenErr != nil && opened {
			return nil, c.reopenErr
		}
		opened = true
		s, err := launch.Open(launch.Options{Home: home, Cwd: cwd, Resume: id, PermissionMode: c.mode, Getenv: func(k string) string { return env[k] }})
		if err == nil && c.extra != nil {
			err = c.extra(s.Commands)
		}
		return s, err
	}
	d := &doorRun{home: home, cwd: cwd, srv: srv, out: newWatchedScreen(), errs: newWatchedScreen(), lines: make(chan input), code: make(chan int, 1), stop: make(chan struct{})}
	t.Cleanup(func() { close(d.stop) })
	o := Options{IO: testIO(nil, d.out, d.errs, c.terminal)}
	if c.reopen {
		o.Reopen = reopen
	}
	go func() {
		d.code <- run(context.Background(), func() (*launch.Session, error) { return reopen("") }, o, d.lines)
	}()
	return d
}

// feed hands the door one line; it returns once the door has taken it, or
// when the door has already exited.
func (d *doorRun) feed(line string) {
	select {
	case d.lines <- input{line: line}:
	case <-d.stop:
	}
}

func (d *doorRun) eof() { d.lines <- input{eof: true} }

func (d *doorRun) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case c := <-d.code:
		return c
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("want line mode to exit within %s; screen %q", testkit.WaitLimit, d.out.String())
		return -1
	}
}

// wantExit waits for line mode to end and fails the test unless it exits
// with code.
func (d *doorRun) wantExit(t *testing.T, code int) {
	t.Helper()
	if got := d.exitCode(t); got != code {
		t.Fatalf("want exit %d, got %d; screen %q", code, got, d.out.String())
	}
}

// userTexts are the user messages of the last request the model received.
func (d *doorRun) userTexts(t *testing.T) []string {
	t.Helper()
	reqs := d.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("want a model request, got none")
	}
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "user" {
			out = append(out, m.Content)
		}
	}
	return out
}

func TestPipedExitWaitsForTheSubmittedWorkAndRunsNothingAfter(t *testing.T) {
	d := startDoor(t, doorConfig{}, llmtest.ReplyText("Hello there."))
	d.feed("say hello")
	d.feed("/exit")
	go d.feed("never sent")
	if code := d.exitCode(t); code != 0 {
		t.Fatalf("want exit 0 after /exit with stdin still open, got %d", code)
	}
	if !strings.Contains(d.out.String(), "Hello there.") {
		t.Errorf("want the turn submitted before /exit to run to its end, got %q", d.out.String())
	}
	if n := len(d.srv.Requests()); n != 1 {
		t.Fatalf("want 1 model request, got %d", n)
	}
	for _, u := range d.userTexts(t) {
		if strings.Contains(u, "never sent") {
			t.Errorf("want no line after /exit sent to the model, got user message %q", u)
		}
	}
}

func TestPipedExitWithNothingSubmittedExitsAtOnce(t *testing.T) {
	d := startDoor(t, doorConfig{})
	d.feed("/exit")
	d.wantExit(t, 0)
	if n := len(d.srv.Requests()); n != 0 {
		t.Errorf("want no model request, got %d", n)
	}
}

func TestALeadingSpaceSendsASlashLineToTheModel(t *testing.T) {
	d := startDoor(t, doorConfig{}, llmtest.ReplyText("It is fine."))
	d.feed(" /etc/hosts looks wrong")
	d.eof()
	d.wantExit(t, 0)
	if strings.Contains(d.out.String(), "Unknown command") {
		t.Errorf("want the line sent as a prompt, not rejected, got %q", d.out.String())
	}
	users := d.userTexts(t)
	if len(users) == 0 || !strings.Contains(users[len(users)-1], "/etc/hosts looks wrong") {
		t.Errorf("want the model to read the line, got user messages %q", users)
	}
}

func TestSlashCommandsGetTheLineAsTyped(t *testing.T) {
	echo := func(reg *commands.Registry) error {
		return reg.Register(commands.Command{Name: "echo", Description: "echo", WhileRunning: true,
			Handler: func(_ context.Context, inv commands.Invocation) commands.Result {
				return commands.Succeed(fmt.Sprintf("raw=%q", inv.RawInput))
			}})
	}
	d := startDoor(t, doorConfig{extra: echo})
	d.feed("/echo  two spaces and a tab\t")
	d.feed("/Echo")
	d.eof()
	d.wantExit(t, 0)
	out := d.out.String()
	for _, want := range []string{`raw="  two spaces and a tab\t"`, "Unknown command: /Echo; did you mean /echo? /help lists the commands\n> "} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q on the screen, got %q", want, out)
		}
	}
	if n := len(d.srv.Requests()); n != 0 {
		t.Errorf("want no model request for commands, got %d", n)
	}
}

func TestQuestionsOfOneRequestAreAskedInOrder(t *testing.T) {
	args := `{"questions":[` +
		`{"id":"db","header":"Database","question":"Which database?","options":[{"label":"SQLite"},{"label":"Postgres","recommended":true}]},` +
		`{"id":"name","header":"Name","question":"What is it called?"}]}`
	d := startDoor(t, doorConfig{},
		llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question", args, 2)),
		llmtest.ReplyText("Noted."),
	)
	d.feed("set up storage")
	d.out.waitFor(t, "[Database] Which database?")
	if strings.Contains(d.out.String(), "[Name]") {
		t.Fatalf("want the second question held until the first is answered, got %q", d.out.String())
	}
	d.feed("")
	d.out.waitFor(t, "[Name] What is it called?")
	d.feed("")
	d.out.waitFor(t, askAnswer)
	d.feed("inventory")
	d.eof()
	d.wantExit(t, 0)
	reqs := d.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 model requests, got %d", len(reqs))
	}
	want := `{"answers":[{"id":"db","selected":["Postgres"]},{"id":"name","selected":[],"custom":"inventory"}]}`
	for _, m := range reqs[1].Messages {
		if m.ToolCallID == "call_1" && m.Content != want {
			t.Errorf("want the tool result %s, got %s", want, m.Content)
		}
	}
}

// resumeIDs are the session ids of the resume lines on stderr, in order.
func (d *doorRun) resumeIDs() []string {
	var ids []string
	for _, l := range strings.Split(d.errs.String(), "\n") {
		if id, ok := strings.CutPrefix(l, "To resume this session: tack --resume "); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func TestNewSwitchesToAFreshSessionAndResumeSwitchesBack(t *testing.T) {
	d := startDoor(t, doorConfig{reopen: true}, llmtest.ReplyText("Answer in the first session."))
	d.feed("/new")
	d.out.waitFor(t, "Started a new session with the same settings: ")
	d.errs.waitFor(t, "To resume this session")
	first := d.resumeIDs()[0]
	d.feed("/resume " + first)
	d.out.waitFor(t, "Resumed session "+first+".")
	d.feed("hello")
	d.eof()
	d.wantExit(t, 0)
	if !strings.Contains(d.out.String(), "[main turn 1] Answer in the first session.") {
		t.Errorf("want the prompt after /resume answered, got %q", d.out.String())
	}
	ids := d.resumeIDs()
	if len(ids) != 3 || ids[0] != first || ids[1] == first || ids[2] != first {
		t.Fatalf("want resume lines for the first, the new, then the first session again, got %q", ids)
	}
	if users := d.userTexts(t); len(users) != 1 || users[0] != "hello" {
		t.Errorf("want the request to hold only the prompt (commands never reach the model), got %q", users)
	}
}

func TestNewWithoutReopenSaysHowToStartAnother(t *testing.T) {
	d := startDoor(t, doorConfig{})
	d.feed("/new")
	d.eof()
	d.wantExit(t, 0)
	if !strings.Contains(d.out.String(), newSessionText) {
		t.Errorf("want %q, got %q", newSessionText, d.out.String())
	}
	if n := len(d.resumeIDs()); n != 1 {
		t.Errorf("want one session (one resume line), got %d", n)
	}
}

func TestASessionThatCannotOpenKeepsTheCurrentOne(t *testing.T) {
	d := startDoor(t, doorConfig{reopen: true, reopenErr: errors.New("session X is open in pid 42")}, llmtest.ReplyText("Still here."))
	d.feed("/new")
	d.out.waitFor(t, "Could not open the session: session X is open in pid 42\n> ")
	d.feed("hello")
	d.eof()
	d.wantExit(t, 0)
	if !strings.Contains(d.out.String(), "Still here.") {
		t.Errorf("want the current session to keep answering, got %q", d.out.String())
	}
	if n := len(d.resumeIDs()); n != 1 {
		t.Errorf("want one session (one resume line), got %d", n)
	}
}

func TestClearWipesATerminalAndExplainsItselfInAPipe(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		d := startDoor(t, doorConfig{terminal: terminal})
		d.feed("/clear")
		d.eof()
		d.wantExit(t, 0)
		out := d.out.String()
		cleared := strings.Contains(out, "\x1b[2J")
		if terminal && (!cleared || !strings.Contains(out, "Cleared the view")) {
			t.Errorf("terminal: want the screen cleared and said so, got %q", out)
		}
		if !terminal && (cleared || !strings.Contains(out, noViewText)) {
			t.Errorf("pipe: want no escape and %q, got %q", noViewText, out)
		}
	}
}
