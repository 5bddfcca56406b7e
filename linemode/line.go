package linemode

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/iostreams"
	"github.com/tack-agent/tack/views/textfmt"
)

// DefaultWelcome is the banner when the config sets none.
const DefaultWelcome = "ready."

// Options configures line mode.
type Options struct {
	// Welcome is the banner printed before the first prompt (DefaultWelcome
	// when empty).
	Welcome string
	// Label names the driven session in turn headers ("main" when empty).
	Label string
	// IO is the terminal seam: the streams, whether stdin and stdout are a
	// terminal (then lines are read with editing and history, and Ctrl+C is
	// read as a key), and whether colour is on (reasoning is dimmed with
	// it, framed by "[reasoning]" without it).
	IO *iostreams.IOStreams
	// NoReasoning leaves reasoning out (--no-reasoning).
	NoReasoning bool
	// Signals delivers SIGINT, SIGTERM and SIGHUP; nil receives none.
	Signals <-chan os.Signal
	// HistoryFile keeps the terminal's input history; empty keeps none.
	HistoryFile string
	// Prompt is the task given on the command line (`tack --ui line
	// "task"`): the first message, sent once the session has started.
	Prompt string
	// Reopen opens another session with the same settings: a fresh one for
	// /new (id ""), the session id for /resume <id>. Nil leaves both to
	// the user, who exits and runs tack again.
	Reopen func(id string) (*launch.Session, error)
}

// typingBlind tells who types at a terminal while stdout goes elsewhere
// what tack is waiting for.
const typingBlind = "tack: stdout is not this terminal, so tack shows no prompt here; type a task and press Enter " +
	"(the answer goes to stdout), Ctrl+D to end; for one task, run tack -p \"task\" instead"

// opening is the outcome of opening the session.
type opening struct {
	s   *launch.Session
	err error
}

// Run is line mode: it prints the banner, opens the session with open while
// already reading piped input (lines read before the session has started are
// queued and sent once it starts, as one turn; a terminal holds them
// itself), then sends each non-empty line while the agent is idle and steers
// it in while a turn runs, renders every event of the session, answers
// questions and approvals from the next lines, and runs slash commands. It
// returns the exit status: 0 after stdin ends (once every submitted line has
// reached a turn that ended), 1 when the session fails to start, 130, 143
// or 129 after SIGINT, SIGTERM or SIGHUP, and after a write to stdout that
// failed what OutputFailed says (the running turn is cancelled).
func Run(ctx context.Context, open func() (*launch.Session, error), o Options) int {
	done := make(chan struct{})
	defer close(done)
	lines := make(chan input)
	if !o.IO.Interactive() {
		if o.IO.IsStdinTTY() {
			// Typed lines go to a pipe or file: no banner or prompt shows.
			fmt.Fprintln(o.IO.ErrOut, typingBlind)
		}
		go readPiped(o.IO.In, lines, done)
		return run(ctx, open, o, lines)
	}
	// The terminal keeps what is typed meanwhile; opening first means a
	// session that fails to start is not followed by a prompt.
	s, err := open()
	open = func() (*launch.Session, error) { return s, err }
	d := newDoor(o)
	if err == nil {
		// The reader writes its prompt at once, so it starts after the
		// banner is on the screen.
		t := newTerminalInput(o.HistoryFile)
		defer t.close()
		go t.read(lines, done)
	}
	return d.run(ctx, open, lines)
}

// run is Run over the inputs read from stdin.
func run(ctx context.Context, open func() (*launch.Session, error), o Options, lines <-chan input) int {
	return newDoor(o).run(ctx, open, lines)
}

// newDoor is line mode's state for o, the banner already written.
func newDoor(o Options) *door {
	if o.Welcome == "" {
		o.Welcome = DefaultWelcome
	}
	if o.Label == "" {
		o.Label = "main"
	}
	d := &door{o: o, terminal: o.IO.Interactive(), stdout: newOutput(o.IO.Out), stderr: o.IO.ErrOut, opened: make(chan opening, 1)}
	if p := strings.TrimSpace(o.Prompt); p != "" {
		d.queue = []string{p}
	}
	d.r = NewRenderer(d.stdout, o.IO.ColorEnabled(), o.Label)
	d.r.terminal = d.terminal
	d.r.HideReasoning = o.NoReasoning
	d.r.Banner(o.Welcome)
	return d
}

// run opens the session with open and drives it from lines. Every write
// to stdout but the reader's own prompt and echo happens here, on the
// goroutine that calls run, in the order of the inputs and events that
// cause them.
func (d *door) run(ctx context.Context, open func() (*launch.Session, error), lines <-chan input) int {
	go func() {
		s, err := open()
		d.opened <- opening{s, err}
	}()
	return d.loop(ctx, lines)
}

func (d *door) loop(ctx context.Context, lines <-chan input) int {
	for {
		var changes <-chan struct{}
		if d.s != nil {
			changes = d.s.Broker.Changes()
		}
		var code int
		var exit bool
		select {
		case <-ctx.Done():
			code, exit = d.shutdown(1), true
		case <-d.stdout.broken:
			code, exit = d.shutdown(OutputFailed(d.stdout.Err(), d.stderr)), true
		case sig := <-d.o.Signals:
			code, exit = d.signal(sig)
		case op := <-d.opened:
			code, exit = d.start(op)
		case in, ok := <-lines:
			if !ok {
				lines = nil
				continue
			}
			if in.prompted != nil {
				<-in.prompted
			}
			code, exit = d.input(in)
		case evs := <-d.events:
			d.render(evs)
			if d.early != nil && !d.busy {
				res := *d.early
				d.early = nil
				code, exit = d.commandSettled(res)
			}
		case res := <-d.commandDone:
			if d.cmd.atPrompt && d.busy && !d.inTurn {
				d.early = &res // the command's own work (a compaction) still runs
				continue
			}
			code, exit = d.commandSettled(res)
		case <-changes:
			d.showRequest()
		}
		if exit {
			return code
		}
		d.drain()
		if d.eofDone() {
			return d.finish(0, time.Now().Add(shutdownGrace))
		}
	}
}

// start takes over the opened session; drain then sends the queued lines.
func (d *door) start(op opening) (int, bool) {
	d.opened = nil
	if op.err != nil {
		msg := "tack: the session failed to start: " + textfmt.SanitizeLine(op.err.Error())
		if n := d.queuedLines(); n > 0 {
			msg += fmt.Sprintf("; dropped %d queued line(s)", n)
		}
		fmt.Fprintln(d.stderr, msg)
		return 1, true
	}
	d.s = op.s
	d.reg = d.s.Commands
	if d.reg == nil {
		d.reg = commands.New(commands.Options{})
	}
	if _, ok := d.reg.Find(d.s.Agent.SessionID(), "exit"); !ok {
		// a registry without the built-ins still gets /help and /exit
		_ = commands.RegisterBuiltins(d.reg, commands.Deps{Keys: HelpKeys(d.terminal)})
	}
	d.unmount = d.s.Broker.Mount()
	history, sub := d.s.Agent.Subscribe()
	d.seen = history.NextSeq - 1
	if text := resumedText(d.s.Agent.SessionID(), history); text != "" {
		d.r.Notice(text, true)
	}
	pumpCtx, stop := context.WithCancel(context.Background())
	d.events = make(chan []agent.Event)
	pumped := make(chan struct{})
	d.stopPump = func() { stop(); <-pumped }
	go func() {
		defer close(pumped)
		pump(pumpCtx, sub, d.events)
	}()
	if d.stdinClosed {
		d.s.Broker.FailAll(interact.ErrStdinClosed)
	}
	return 0, false
}

// pump forwards the subscription's batches to the loop until the
// subscription or ctx ends; it owns sub and closes it.
func pump(ctx context.Context, sub *agent.Subscription, out chan<- []agent.Event) {
	defer sub.Close()
	for {
		evs, err := sub.Wait(ctx)
		if err != nil || evs == nil {
			return
		}
		select {
		case out <- evs:
		case <-ctx.Done():
			return
		}
	}
}

func (d *door) render(evs []agent.Event) {
	for _, e := range evs {
		d.r.Event(e)
		switch e := e.(type) {
		case agent.Notice:
			d.r.Notice(e.Text, !d.busy)
		case agent.StatusChanged:
			if e.Status == agent.StatusRunning {
				d.busy = true
			} else if d.busy {
				d.turnOver()
				if d.cmd == nil {
					d.r.Write("\n" + Prompt) // the turn ended without a turn/end to print it
				}
			}
		case agent.Logged:
			d.seen = e.Seq
			switch e.Event.Data.(type) {
			case session.TurnStart:
				d.busy, d.inTurn = true, true
			case session.TurnEnd:
				d.inTurn = false
				d.turnOver() // the renderer printed the prompt for it
			}
		}
	}
	d.showRequest()
}

// turnOver ends the turn the user saw running: Ctrl+C exits from here on.
func (d *door) turnOver() {
	d.busy = false
	if d.cmd == nil {
		d.interrupted = false
	}
}

// resumedText tells the user what an opened session already holds: how
// many turns, and whether the last one was cut short by a process that
// ended (crash repair closed it). "" for a new session.
func resumedText(id string, history agent.Snapshot) string {
	turns, interrupted := history.Projection.Usage().Turns, false
	for i := len(history.Recent) - 1; i >= 0; i-- {
		if end, ok := history.Recent[i].Data.(session.TurnEnd); ok {
			interrupted = end.Reason == session.StopInterrupted
			break
		}
	}
	switch {
	case history.Projection.Len() == 0:
		return ""
	case turns == 0:
		return "Resumed session " + id + "."
	}
	text := fmt.Sprintf("Resumed session %s: %d earlier turn(s); /export writes them to a file.", id, turns)
	if interrupted {
		text += " Its last turn was interrupted when the previous process ended: check the side effects of tools that were running."
	}
	return text
}
