package journeys

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// The fixed world every journey runs in: the clock, and the directories
// the screen and the normalised log show instead of the temporary ones.
var frozen = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

const (
	shownCwd  = "/workspace/project"
	shownHome = "/workspace"
)

// run is one journey running: a temporary workspace and TACK_HOME, the
// fake model behind the gate, the session opened by launch as tack opens
// it, and the chat program in an emulated terminal.
type run struct {
	t         *testing.T
	plan      plan
	workspace string // shown as shownCwd
	home      string // TACK_HOME
	srv       *llmtest.Server
	gate      *gate
	// clock is the program's clock.
	clock *clock

	sess *launch.Session
	obs  *observed
	term *snapshots.Term
	w    *watcher
	// closeSession ends the program's backend commands, the watcher and
	// the session; it may be called more than once.
	closeSession func()
	// restarts are the seqs of the last events logged before each
	// restart.
	restarts []int64
}

// start prepares the workspace from seed (a directory, or "" for an empty
// workspace), starts the fake model on the plan's script and opens the
// session in a program.
func start(t *testing.T, p plan, seed string) *run {
	t.Helper()
	r := &run{t: t, plan: p, workspace: workspaceDir(t), home: filepath.Join(t.TempDir(), ".tack"), clock: &clock{t: frozen}}
	if seed != "" {
		if err := os.CopyFS(r.workspace, os.DirFS(seed)); err != nil {
			t.Fatalf("seed the workspace from %s: %v", seed, err)
		}
	}
	if err := writeConfig(r.home, p.settings); err != nil {
		t.Fatal(err)
	}
	r.srv = llmtest.New(t, p.script...)
	r.gate = newGate(http.DefaultTransport, p.holds())
	t.Cleanup(r.gate.releaseAll)
	r.open("")
	return r
}

// workspaceDir makes an empty workspace whose path is as long as
// shownCwd, so that the screen wraps and clips it exactly as it would the
// fixed path, and showing it as shownCwd moves nothing.
func workspaceDir(t *testing.T) string {
	t.Helper()
	for {
		dir := fmt.Sprintf("/tmp/tack-%08x", rand.Uint32())
		if len(dir) != len(shownCwd) {
			t.Fatalf("want a workspace path of %d bytes, got %s", len(shownCwd), dir)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
		if !errors.Is(err, fs.ErrExist) {
			t.Fatalf("create the workspace: %v", err)
		}
	}
}

// writeConfig writes TACK_HOME/config.toml: the small model, when the
// journey sets a context window.
func writeConfig(home string, s settings) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	var b strings.Builder
	if s.ContextWindow > 0 {
		fmt.Fprintf(&b, "model = %q\n\n[[models]]\nid = %q\ncontext_window = %d\nmax_output = 1024\n",
			smallModel, smallModel, s.ContextWindow)
	}
	return os.WriteFile(filepath.Join(home, "config.toml"), []byte(b.String()), 0o600)
}

func (r *run) env(key string) string {
	switch key {
	case "DEEPSEEK_API_KEY":
		return "journey-key"
	case "DEEPSEEK_BASE_URL":
		return r.srv.URL()
	}
	return ""
}

// open launches the session (resuming id when set) and starts the chat
// program on it, the way tack's full-screen front door does.
func (r *run) open(resume string) {
	t := r.t
	t.Helper()
	s, err := launch.Open(launch.Options{
		Home: r.home, Cwd: r.workspace, Getenv: r.env, Now: func() time.Time { return frozen },
		Rand: zeros{}, PermissionMode: r.plan.settings.Mode, Resume: resume,
		HTTPClient: &http.Client{Transport: r.gate}, Version: "journey",
	})
	if err != nil {
		t.Fatalf("open the session: %v", err)
	}
	unmount := s.Broker.Mount()
	w, h := r.plan.settings.size()
	r.obs = &observed{Backend: app.AgentBackend{Agent: s.Agent, Commands: s.Commands, Broker: s.Broker, Session: s}}
	m := app.New(app.Options{
		Backend: r.obs,
		Now:     r.clock.Now,
		Cwd:     shownCwd, Home: shownHome, Branch: "main", Colour: true, Width: w, Height: h,
	})
	r.sess, r.w = s, watch(s.Agent)
	watcher := r.w
	var once sync.Once
	// Cleanups run last first: the program (killed by the harness) ends
	// before its session closes.
	r.closeSession = func() {
		once.Do(func() {
			r.gate.releaseAll()
			m.Close()
			watcher.close()
			unmount()
			s.Close()
		})
	}
	t.Cleanup(r.closeSession)
	r.term = snapshots.Start(t, m, w, h)
	// The model shows once the screen has subscribed.
	model, _ := s.Agent.Model()
	r.term.WaitText(t, model)
}

// act performs the plan's actions in order.
func (r *run) act() {
	for i, a := range r.plan.actions {
		switch a.kind {
		case typePrompt:
			r.prompt(a.text)
		case typeSteering:
			last := i+1 == len(r.plan.actions) || r.plan.actions[i+1].kind != typeSteering || r.plan.actions[i+1].hold != a.hold
			r.steer(a, last)
		case decideApproval:
			r.decide(a)
		case answerQuestion:
			r.answer(a.answers)
		case restartProgram:
			r.restart()
		}
	}
}

func isPrompt(e session.Event) bool {
	m, ok := e.Data.(session.UserMessage)
	return ok && m.Kind == session.KindPrompt
}

// prompt types text into the editor once the agent and the program are
// idle, and waits until it starts a turn.
func (r *run) prompt(text string) {
	t := r.t
	t.Helper()
	r.w.until(t, fmt.Sprintf("the agent idle before the prompt %q", text), r.w.settled)
	r.programAt(agent.StatusIdle)
	r.w.untilLogged(t, fmt.Sprintf("the prompt %q logged", text), isPrompt, func() { r.typeLine(text) })
}

// steer types text while the held model request waits, so the turn is
// certainly running and the text joins it at its next step; last lets the
// request through.
func (r *run) steer(a action, last bool) {
	t := r.t
	t.Helper()
	h := r.gate.held(a.hold)
	select {
	case <-h.arrived:
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("want model request %d (held for the steering %q) within %v, got %d requests", a.hold, a.text, testkit.WaitLimit, len(r.srv.Requests()))
	}
	r.programAt(agent.StatusRunning)
	r.typeLine(a.text)
	r.w.until(t, fmt.Sprintf("the steering %q queued", a.text), func() bool {
		if len(r.w.followUps) > 0 {
			t.Fatalf("want %q to steer the running turn, got it queued as a follow-up", a.text)
		}
		return r.w.queued(a.text)
	})
	if last {
		h.let()
	}
}

// decide answers the approval dialog with keys, once it is open and its
// key guard has passed.
func (r *run) decide(a action) {
	t := r.t
	t.Helper()
	isDecided := func(e session.Event) bool {
		d, ok := e.Data.(session.ApprovalDecided)
		return ok && d.Policy == ""
	}
	r.w.untilLogged(t, fmt.Sprintf("the %s approval decided", a.tool), isDecided, func() {
		r.showing(r.pending(t, func(q *interact.Request) bool { return q.Approval != nil && q.Approval.Tool == a.tool }))
		approvalKeys(r.keys(), a.decision)
	})
}

// answer answers the question panel with keys, once it is open and its
// key guard has passed.
func (r *run) answer(answers []interact.Answer) {
	t := r.t
	t.Helper()
	isAnswered := func(e session.Event) bool {
		d, ok := e.Data.(session.ToolResult)
		return ok && d.Name == "ask_user_question"
	}
	r.w.untilLogged(t, "the question answered", isAnswered, func() {
		q := r.pending(t, func(q *interact.Request) bool { return q.Questions != nil })
		r.showing(q)
		questionKeys(r.keys(), q.Questions, answers)
	})
}

// showing waits until the program has opened its dialog or panel for q,
// then moves its clock past the key guard.
func (r *run) showing(q *interact.Request) {
	r.t.Helper()
	r.term.WaitFor(r.t, "the program showing the request", func(string) bool { return r.obs.showing(q) })
	r.clock.advance(keyGuard)
}

// pending waits for a request that matches and returns it.
func (r *run) pending(t testing.TB, match func(*interact.Request) bool) *interact.Request {
	t.Helper()
	var found *interact.Request
	r.term.WaitFor(t, "a pending request", func(string) bool {
		for _, q := range r.sess.Broker.Pending() {
			if match(q) {
				found = q
				return true
			}
		}
		return false
	})
	return found
}

// restart exits the program with Ctrl+D, closes the session and resumes
// it in a new program, as `tack --resume <id>` would.
func (r *run) restart() {
	t := r.t
	t.Helper()
	r.w.until(t, "the agent idle before the restart", r.w.settled)
	r.restarts = append(r.restarts, r.w.events[len(r.w.events)-1].Seq)
	r.programAt(agent.StatusIdle)
	r.keys().typ(keyCtrlD)
	if err := r.term.Wait(t); err != nil {
		t.Fatalf("want the program to exit on Ctrl+D, got %v", err)
	}
	id := r.sess.Agent.SessionID()
	r.closeSession()
	r.open(id)
}

// typeLine types text (lines joined with Ctrl+J) and presses Enter.
func (r *run) typeLine(text string) {
	kb := r.keys()
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			kb.typ(keyCtrlJ)
		}
		kb.typ(line)
	}
	kb.typ(keyEnter)
}

func (r *run) keys() keyboard { return keyboard{r.term.E.Emulator} }

// finish waits until the session has settled and the program shows it
// idle.
func (r *run) finish() {
	t := r.t
	t.Helper()
	r.w.until(t, "the agent idle at the end", r.w.settled)
	r.programAt(agent.StatusIdle)
}

// programAt waits until the program has taken every event the agent
// logged, with status last, and waits for more.
func (r *run) programAt(status agent.Status) {
	r.t.Helper()
	r.term.WaitFor(r.t, fmt.Sprintf("the program caught up with the agent, %s", status), func(string) bool {
		r.w.drain()
		return r.obs.caughtUp(len(r.w.events), status)
	})
}

// log is the session's log file as it stands, normalised.
func (r *run) log() []byte {
	r.t.Helper()
	if err := r.sess.Log.Sync(); err != nil {
		r.t.Fatalf("sync the session log: %v", err)
	}
	b, err := os.ReadFile(r.sess.Log.Path())
	if err != nil {
		r.t.Fatalf("read the session log: %v", err)
	}
	return r.normalise(b)
}

// normalise shows the temporary directories as the fixed ones.
func (r *run) normalise(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(r.workspace), []byte(shownCwd))
	return bytes.ReplaceAll(b, []byte(r.home), []byte(shownHome+"/.tack"))
}

// screen is the program's screen with the workspace shown as shownCwd,
// and any palette violations.
func (r *run) screen() (string, []string) {
	s, bad := r.term.Snapshot()
	return strings.ReplaceAll(s, r.workspace, shownCwd), bad
}

// zeros is the session-id randomness: always zero, so ids are fixed.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
