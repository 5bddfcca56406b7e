package snapshots

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// live is a launched session (real agent, tools, permission policy and
// broker over a scripted model) shown in the running program.
type live struct {
	s   *launch.Session
	srv *llmtest.Server
	tt  *Term
	cwd string
}

// launchLive opens a session in a fresh workspace with the permission
// mode given and runs the chat screen over it at 100×30.
func launchLive(t *testing.T, mode string, script ...llmtest.Response) *live {
	t.Helper()
	srv := llmtest.New(t, script...)
	home, cwd := t.TempDir(), t.TempDir()
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	s, err := launch.Open(launch.Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] },
		Now: func() time.Time { return frozen }, PermissionMode: mode})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	unmount := s.Broker.Mount()
	t.Cleanup(func() { unmount(); s.Close() })
	be := app.AgentBackend{Agent: s.Agent, Commands: s.Commands, Broker: s.Broker, Session: s}
	o := options(be, 100, 30)
	o.Now, o.Cwd, o.Home = ticking(), cwd, home
	tt := Start(t, app.New(o), 100, 30)
	tt.WaitText(t, llm.DefaultModel)
	return &live{s: s, srv: srv, tt: tt, cwd: cwd}
}

// prompt types text and sends it.
func (l *live) prompt(text string) {
	l.tt.Type(text)
	l.tt.Key(vt.KeyEnter)
}

// toolResults are the results the session logged, in order.
func (l *live) toolResults() []session.ToolResult {
	var out []session.ToolResult
	for _, e := range l.s.Agent.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			out = append(out, r)
		}
	}
	return out
}

// waitIdle waits for the turn to end with answer on screen.
func (l *live) waitIdle(t *testing.T, answer string) {
	t.Helper()
	l.tt.WaitText(t, answer)
	l.tt.WaitGone(t, "esc to cancel")
}

const dbQuestion = `{"questions":[{"id":"db","header":"Storage","question":"Which database?",` +
	`"options":[{"label":"Postgres"},{"label":"SQLite","description":"One file."},{"label":"None"}]}]}`

// TestQuestionAnswersReachTheTool answers ask_user_question in the running
// program by arrow and Enter, by a custom answer, and by Esc, and checks
// the exact text the tool returned to the model.
func TestQuestionAnswersReachTheTool(t *testing.T) {
	cases := []struct {
		name string
		keys func(tt *Term)
		want string
	}{
		{"arrow and enter", func(tt *Term) { tt.Key(vt.KeyDown); tt.Key(vt.KeyEnter) },
			`{"answers":[{"id":"db","selected":["SQLite"]}]}`},
		{"custom answer", func(tt *Term) { tt.Key(vt.KeyTab); tt.Type("DuckDB, in memory"); tt.Key(vt.KeyEnter) },
			`{"answers":[{"id":"db","selected":[],"custom":"DuckDB, in memory"}]}`},
		{"esc", func(tt *Term) { tt.Key(vt.KeyEscape) },
			"Error: ask_user_question was interrupted before the user answered"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := launchLive(t, "ask",
				llmtest.Reply(llmtest.ToolCall("call_1", "ask_user_question", dbQuestion, 2), llmtest.Finish("tool_calls")),
				llmtest.ReplyText("Noted."))
			l.prompt("Set up storage")
			l.tt.WaitText(t, "Question 1/1 (1 unanswered) · Storage", "Which database?")
			c.keys(l.tt)
			l.waitIdle(t, "Noted.")
			res := l.toolResults()
			if len(res) != 1 || res[0].Text != c.want {
				t.Fatalf("want the tool result %q, got %+v", c.want, res)
			}
		})
	}
}

func bashCallArgs(command string) string {
	return `{"command":"` + command + `","description":"Check the tree"}`
}

// TestAllowForSessionRemembersThePrefix allows `git status` for the session
// in the approval dialog: `git status -s` then runs without asking, and
// `git status; rm x` still asks.
func TestAllowForSessionRemembersThePrefix(t *testing.T) {
	l := launchLive(t, "ask",
		llmtest.Reply(llmtest.ToolCall("call_1", "bash", bashCallArgs("git status"), 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "bash", bashCallArgs("git status -s"), 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_3", "bash", bashCallArgs("git status; rm x"), 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Checked."))
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", l.cwd, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(l.cwd, "x"), []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.prompt("Check the tree")
	l.tt.WaitText(t, "Allow bash?", "Allow for this session (git status)")
	l.tt.Type("a")
	l.tt.WaitText(t, "Bash(git status; rm x)", "Allow bash?")
	l.tt.Type("n")
	l.tt.WaitText(t, "Reason (optional)")
	l.tt.Key(vt.KeyEnter)
	l.waitIdle(t, "Checked.")

	asked, decided := map[string]bool{}, map[string]session.ApprovalDecided{}
	for _, e := range l.s.Agent.Events() {
		switch d := e.Data.(type) {
		case session.ApprovalAsked:
			asked[d.CallID] = true
		case session.ApprovalDecided:
			decided[d.CallID] = d
		}
	}
	if !asked["call_1"] || asked["call_2"] || !asked["call_3"] {
		t.Fatalf("want approvals asked for call_1 and call_3 only, got %v", asked)
	}
	if d := decided["call_1"]; d.Decision != "allow-session" || d.Remember != "git status" {
		t.Fatalf("want call_1 allowed for the session remembering %q, got %+v", "git status", d)
	}
	if d := decided["call_2"]; d.Decision != "allow" || d.Remember != "git status" {
		t.Fatalf("want call_2 allowed by the remembered prefix, got %+v", d)
	}
	if d := decided["call_3"]; d.Decision != "deny" {
		t.Fatalf("want call_3 denied, got %+v", d)
	}
	if _, err := os.Stat(filepath.Join(l.cwd, "x")); err != nil {
		t.Fatalf("want the denied command to leave x in place, got %v", err)
	}
}

// TestShellPassthroughAddsContext runs `!echo` from the editor: its card
// shows the output and the session gains it as shell context.
func TestShellPassthroughAddsContext(t *testing.T) {
	l := launchLive(t, "full-access")
	l.prompt("!echo hello from the shell")
	l.tt.WaitText(t, "(echo hello from the shell)")
	var context string
	testkit.Eventually(t, "a shell context message in the session", func() bool {
		for _, e := range l.s.Agent.Events() {
			if m, ok := e.Data.(session.UserMessage); ok && m.Kind == session.KindContext && m.Origin == launch.ShellOrigin {
				context = m.Text
				return true
			}
		}
		return false
	}, l.tt.E.String)
	if want := "$ echo hello from the shell\nhello from the shell"; !strings.Contains(context, want) {
		t.Fatalf("want the shell context to hold %q, got %q", want, context)
	}
}

// TestCtrlGEditsTheDraftInTheExternalEditor runs Ctrl+G with EDITOR set
// to a script that appends a line: the draft comes back with the line, and
// Enter sends it. The script saves only once the test has seen the program
// hand over the terminal, as a person's editor would.
func TestCtrlGEditsTheDraftInTheExternalEditor(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "save")
	// The editor waits at most 10 s for the go-ahead, so a failed test
	// does not leave the program waiting on it.
	editor := "#!/bin/sh\nfor i in $(seq 1000); do [ -e '" + saved + "' ] && break; sleep 0.01; done\n" +
		"echo 'and a line from the editor' >> \"$1\"\n"
	editDraft(t, editor, func(tt *Term) {
		tt.WaitFor(t, "the main screen, handed to the editor", func(string) bool { return !tt.E.IsAltScreen() })
		if err := os.WriteFile(saved, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// TestCtrlGWithAnEditorThatReturnsAtOnce pins the work-around for
// bubbletea v2.1.1 freezing its frames when the command it hands the
// terminal to returns at once (charmbracelet/bubbletea#1778), as a GUI
// editor without --wait does: the screen must come back.
func TestCtrlGWithAnEditorThatReturnsAtOnce(t *testing.T) {
	editDraft(t, "#!/bin/sh\necho 'and a line from the editor' >> \"$1\"\n", func(*Term) {})
}

// editDraft types a draft, presses Ctrl+G with EDITOR set to the script
// editor, calls handOver, then waits for the edited draft and sends it.
func editDraft(t *testing.T, editor string, handOver func(*Term)) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(script, []byte(editor), 0o755); err != nil {
		t.Fatal(err)
	}
	f := NewFake(header())
	o := options(f, 100, 30)
	env := map[string]string{"EDITOR": script}
	o.Getenv = func(k string) string { return env[k] }
	// The editor inherits the program's input. The emulator is not a file,
	// so exec would copy it to the editor in a goroutine that never ends;
	// a pipe fed from the emulator is a file, as a terminal is.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tt := Start(t, app.New(o), 100, 30, tea.WithInput(r))
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(w, tt.In); w.Close(); close(copied) }()
	t.Cleanup(func() {
		tt.Stop() // the program reads r until it ends
		// Emulator.Close sets a flag that Read checks without a lock; closing
		// the input pipe ends the copy the same way without the race.
		if c, ok := tt.E.InputPipe().(io.Closer); ok {
			_ = c.Close()
		}
		<-copied
		r.Close()
	})
	tt.WaitText(t, "deepseek-flash")
	tt.Type("first line")
	tt.Ctrl('g')
	handOver(tt)
	tt.WaitText(t, "and a line from the editor")
	tt.Key(vt.KeyEnter)
	waitCalls(t, f, "send first line\nand a line from the editor")
}
