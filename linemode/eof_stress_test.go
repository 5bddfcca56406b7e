package linemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/tools"
)

// gap is where the next piped line lands relative to the work before it.
type gap byte

const (
	gapStarting gap = 'S' // the session has not started yet
	gapDuring   gap = 'D' // a turn is running (held in a tool call)
	gapAfter    gap = 'A' // the turn before has ended and been shown
)

// gateTool is a read-only tool whose calls each hold the turn until the
// test releases them, so a line can be fed while the turn surely runs.
type gateTool struct {
	entered chan struct{}
	release chan struct{}
}

func (g gateTool) Spec() tools.Spec {
	return tools.Spec{Name: "gate", Description: "waits", Schema: json.RawMessage(`{"type":"object"}`), Access: tools.AccessRead}
}
func (g gateTool) Present(json.RawMessage) card.Card {
	return card.Card{Kind: card.Generic, Title: "gate"}
}
func (g gateTool) Run(ctx context.Context, _ tools.Call) tools.Result {
	g.entered <- struct{}{}
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return tools.Result{Text: "opened"}
}

// pipeRun is one piped run of the stress test.
type pipeRun struct {
	t     *testing.T
	srv   *llmtest.Server
	gate  gateTool
	out   *watchedScreen
	lines chan input
	code  chan int
	allow chan struct{} // closed to let the session open
	inbox chan agent.InboxChanged
	turns int // turns seen ended on the screen so far
}

func TestPipedLinesAllReachTheModelWhereverThePausesFall(t *testing.T) {
	scenarios := [][]gap{
		{gapStarting}, {gapDuring}, {gapAfter},
		{gapStarting, gapStarting}, {gapStarting, gapDuring}, {gapStarting, gapAfter},
		{gapDuring, gapDuring}, {gapDuring, gapAfter}, {gapAfter, gapDuring}, {gapAfter, gapAfter},
	}
	const runs = 50
	srv := llmtest.NewServer(nil, llmtest.WithFallback(llmtest.ReplyText("done")))
	t.Cleanup(srv.Close)
	for _, gaps := range scenarios {
		t.Run(string(gaps), func(t *testing.T) {
			for i := range runs {
				from := len(srv.Requests())
				p := startPipe(t, srv)
				lines := p.play(gaps, fmt.Sprintf("%s%d", string(gaps), i))
				if code := p.exitCode(); code != 0 {
					t.Fatalf("run %d: want exit 0, got %d; screen %q", i, code, p.out.String())
				}
				p.assertReached(lines, from)
				// Lines queued while starting or steered while a turn runs
				// join that turn; only a line after a turn ended starts one.
				if got, want := strings.Count(p.out.String(), "[main turn"), 1+strings.Count(string(gaps), "A"); got != want {
					t.Fatalf("run %d: want %d turns, got %d; screen %q", i, want, got, p.out.String())
				}
			}
		})
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("want valid requests, got violations %q", v)
	}
}

func startPipe(t *testing.T, srv *llmtest.Server, extra ...commands.Command) *pipeRun {
	p := &pipeRun{
		t: t, srv: srv, gate: gateTool{entered: make(chan struct{}), release: make(chan struct{})},
		out: newWatchedScreen(), lines: make(chan input), code: make(chan int, 1),
		allow: make(chan struct{}), inbox: make(chan agent.InboxChanged, 64),
	}
	home, cwd := t.TempDir(), t.TempDir()
	// No command runs here: without the sandbox's probe and the
	// checkpoints' snapshots the 500 sessions start in a fraction of the
	// time, and what is tested (when line mode exits) does not change.
	lean := "[sandbox]\nenabled = false\n[checkpoints]\nenabled = false\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(lean), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEEPSEEK_API_KEY": "test", "DEEPSEEK_BASE_URL": srv.URL()}
	open := func() (*launch.Session, error) {
		<-p.allow
		s, err := launch.Open(launch.Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }})
		if err != nil {
			return nil, err
		}
		s.Agent.Tools().Add(p.gate)
		for _, c := range extra {
			if err := s.Commands.Register(c); err != nil {
				return nil, err
			}
		}
		_, sub := s.Agent.Subscribe()
		go watchInbox(sub, p.inbox)
		return s, nil
	}
	o := Options{IO: testIO(nil, p.out, newWatchedScreen(), false)}
	go func() { p.code <- run(context.Background(), open, o, p.lines) }()
	return p
}

// watchInbox forwards the inbox changes of sub until it ends.
func watchInbox(sub *agent.Subscription, out chan<- agent.InboxChanged) {
	defer sub.Close()
	for {
		evs, _ := sub.Wait(context.Background())
		if evs == nil {
			return
		}
		for _, e := range evs {
			if ic, ok := e.(agent.InboxChanged); ok {
				select {
				case out <- ic:
				default:
				}
			}
		}
	}
}

// play feeds one line per gap plus the first, each where its gap says,
// then the end of input at once; it returns the lines fed.
func (p *pipeRun) play(gaps []gap, tag string) []string {
	lines := []string{tag + "-line-0"}
	p.scriptTurn(gaps, 0)
	p.feed(lines[0])
	for i, g := range gaps {
		line := fmt.Sprintf("%s-line-%d", tag, i+1)
		lines = append(lines, line)
		switch g {
		case gapStarting:
			p.feed(line)
		case gapDuring:
			p.letOpen()
			p.await(p.gate.entered, "the gate tool to be called")
			p.feed(line)
			p.awaitInbox(line)
			p.scriptTurn(gaps, i+1)
			p.gate.release <- struct{}{}
		case gapAfter:
			p.letOpen()
			p.turns++
			p.out.waitCount(p.t, "done\n> ", p.turns)
			p.scriptTurn(gaps, i+1)
			p.feed(line)
		}
	}
	p.letOpen()
	p.lines <- input{eof: true}
	return lines
}

// scriptTurn makes the model call the gate when the first gap from i on
// that is not before the start lands during a turn; otherwise the fallback
// answers "done".
func (p *pipeRun) scriptTurn(gaps []gap, i int) {
	for i < len(gaps) && gaps[i] == gapStarting {
		i++ // those lines join the turn before it starts
	}
	if i < len(gaps) && gaps[i] == gapDuring {
		p.srv.Push(llmtest.Reply(llmtest.ToolCall("call_"+fmt.Sprint(i), "gate", `{}`, 1), llmtest.Finish("tool_calls")))
	}
}

func (p *pipeRun) letOpen() {
	select {
	case <-p.allow:
	default:
		close(p.allow)
	}
}

func (p *pipeRun) feed(line string) { p.lines <- input{line: line} }

// awaitInbox waits until the agent holds line as steering or a follow-up.
func (p *pipeRun) awaitInbox(line string) {
	deadline := time.After(time.Minute)
	for {
		select {
		case ic := <-p.inbox:
			if strings.Contains(strings.Join(append(ic.Steering, ic.FollowUps...), "\n"), line) {
				return
			}
		case <-deadline:
			p.t.Fatalf("want %q handed to the agent within a minute; screen %q", line, p.out.String())
		}
	}
}

func (p *pipeRun) await(ch <-chan struct{}, what string) {
	select {
	case <-ch:
	case <-time.After(time.Minute):
		p.t.Fatalf("want %s within a minute; screen %q", what, p.out.String())
	}
}

func (p *pipeRun) exitCode() int {
	select {
	case c := <-p.code:
		return c
	case <-time.After(time.Minute):
		p.t.Fatalf("want line mode to exit within a minute of the end of input; screen %q", p.out.String())
		return -1
	}
}

// assertReached checks that every line is in a user message of a model
// request made since the run started (request index from).
func (p *pipeRun) assertReached(lines []string, from int) {
	p.t.Helper()
	var text strings.Builder
	for _, r := range p.srv.Requests()[from:] {
		for _, m := range r.Messages {
			if m.Role == "user" {
				text.WriteString(m.Content + "\n")
			}
		}
	}
	for _, l := range lines {
		if !strings.Contains(text.String(), l) {
			p.t.Fatalf("want line %q to reach the model; user messages %q; screen %q", l, text.String(), p.out.String())
		}
	}
}

// TestACommandThatStartsATurnShowsItsResultWhileTheTurnRuns: a command
// that sends a message settles while the turn it started runs; its result
// is shown then, not held until the turn ends (only a command's own work,
// a compaction, holds it back), and lines meanwhile are steered as usual.
func TestACommandThatStartsATurnShowsItsResultWhileTheTurnRuns(t *testing.T) {
	srv := llmtest.NewServer([]llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "gate", `{}`, 1), llmtest.Finish("tool_calls")),
	}, llmtest.WithFallback(llmtest.ReplyText("done")))
	t.Cleanup(srv.Close)
	var p *pipeRun
	// ask sends its input and settles only once the turn it started is on
	// the screen, so the door sees its result during that turn.
	ask := commands.Command{Name: "ask", Handler: func(_ context.Context, inv commands.Invocation) commands.Result {
		inv.Agent.(commands.Submitter).Send(strings.TrimSpace(inv.RawInput))
		p.out.waitFor(t, "[main turn 1]")
		return commands.Succeed("asked")
	}}
	p = startPipe(t, srv, ask)
	p.letOpen()
	p.feed("/ask sketch the change")
	p.await(p.gate.entered, "the gate tool to be called")
	p.out.waitFor(t, "asked")
	p.feed("also mind the tests")
	p.awaitInbox("also mind the tests")
	p.gate.release <- struct{}{}
	p.lines <- input{eof: true}
	if code := p.exitCode(); code != 0 {
		t.Fatalf("want exit 0, got %d; screen %q", code, p.out.String())
	}
	p.assertReached([]string{"sketch the change", "also mind the tests"}, 0)
}
