package linemode

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// DefaultWelcome is the banner when the config sets none.
const DefaultWelcome = "ready."

// shutdownGrace bounds how long a cancelled turn may take to record its end
// before line mode closes the session anyway.
const shutdownGrace = 1500 * time.Millisecond

// Options configures line mode.
type Options struct {
	// Welcome is the banner printed before the first prompt (DefaultWelcome
	// when empty).
	Welcome string
	// Label names the driven session in turn headers ("main" when empty).
	Label  string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Terminal is set when stdin and stdout are a terminal: lines are read
	// with editing and history, and Ctrl+C cancels the running turn (a
	// second one, or one while idle, exits).
	Terminal bool
	// Color turns on the dim rendering of reasoning.
	Color bool
	// Signals delivers SIGINT, SIGTERM and SIGHUP; nil receives none.
	Signals <-chan os.Signal
	// HistoryFile keeps the terminal's input history; empty keeps none.
	HistoryFile string
	// Reopen opens another session with the same settings: a fresh one for
	// /new (id ""), the session id for /resume <id>. Nil leaves both to
	// the user, who exits and runs tack again.
	Reopen func(id string) (*launch.Session, error)
}

// opening is the outcome of opening the session.
type opening struct {
	s   *launch.Session
	err error
}

// Run is line mode: it prints the banner, opens the session with open while
// already reading piped input (lines read before the session has started are
// queued and sent once it starts; a terminal holds them itself), then sends
// each non-empty line while the agent is idle and steers it in while a turn
// runs, renders every event of the session, answers questions and approvals
// from the next lines, and runs slash commands. It returns the exit status:
// 0 after stdin ends (once submitted work has run), 1 when the session fails
// to start, 130, 143 or 129 after SIGINT, SIGTERM or SIGHUP.
func Run(ctx context.Context, open func() (*launch.Session, error), o Options) int {
	done := make(chan struct{})
	defer close(done)
	lines := make(chan input)
	if o.Terminal {
		// The terminal keeps what is typed meanwhile; opening first means
		// a session that fails to start is not followed by a prompt.
		s, err := open()
		open = func() (*launch.Session, error) { return s, err }
		if err == nil {
			t := newTerminalInput(o.HistoryFile)
			defer t.close()
			go t.read(lines, done)
		}
	} else {
		go readPiped(o.Stdin, lines, done)
	}
	return run(ctx, open, o, lines)
}

// run is Run over the inputs read from stdin. Every write to stdout but
// the reader's own prompt and echo happens here, on the goroutine that
// calls run, in the order of the inputs and events that cause them.
func run(ctx context.Context, open func() (*launch.Session, error), o Options, lines <-chan input) int {
	if o.Welcome == "" {
		o.Welcome = DefaultWelcome
	}
	if o.Label == "" {
		o.Label = "main"
	}
	d := &door{o: o, r: NewRenderer(o.Stdout, o.Color, o.Label), opened: make(chan opening, 1)}
	d.r.terminal = o.Terminal
	d.r.Banner(o.Welcome)
	go func() {
		s, err := open()
		d.opened <- opening{s, err}
	}()
	return d.loop(ctx, lines)
}

// door is line mode's state. Only the goroutine running loop touches it.
type door struct {
	o      Options
	r      *Renderer
	opened chan opening

	s        *launch.Session // nil until started
	reg      *commands.Registry
	queued   []string // lines typed before the session started
	events   chan []agent.Event
	stopPump func() // stops the pump and waits until it closed its subscription
	unmount  func()

	status agent.Status
	// busy is a turn the user sees running: set by the running status or
	// a turn/start, cleared by whichever of turn/end and the idle status
	// comes first, together with the prompt that follows a turn. Ctrl+C
	// cancels while busy and exits otherwise.
	busy        bool
	submitted   bool // a line went to the model
	sawRunning  bool // the agent was seen running after a submission
	stdinClosed bool
	// leaving is /exit read from piped input: like the end of input, the
	// door exits once the submitted work has run; later lines only answer
	// questions and approvals.
	leaving     bool
	interrupted bool // Ctrl+C was pressed during the running turn
	active      *asking
	// settled holds requests answered here that the broker may still list
	// for a moment, so they are not asked twice.
	settled map[*interact.Request]bool
}

// asking is the request whose prompt is on screen.
type asking struct {
	req     *interact.Request
	index   int // the question being asked
	answers []interact.Answer
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
		case sig := <-d.o.Signals:
			code, exit = d.signal(sig)
		case op := <-d.opened:
			code, exit = d.start(ctx, op)
		case in, ok := <-lines:
			if !ok {
				lines = nil
				continue
			}
			if in.prompted != nil {
				<-in.prompted
			}
			code, exit = d.input(ctx, in)
		case evs := <-d.events:
			d.render(evs)
		case <-changes:
			d.showRequest()
		}
		if exit {
			return code
		}
		if d.eofDone() {
			return d.finish(0)
		}
	}
}

// start takes over the opened session and sends the queued lines.
func (d *door) start(ctx context.Context, op opening) (int, bool) {
	d.opened = nil
	if op.err != nil {
		msg := "tack: the session failed to start: " + textfmt.SanitizeLine(op.err.Error())
		if len(d.queued) > 0 {
			msg += fmt.Sprintf("; dropped %d queued line(s)", len(d.queued))
		}
		fmt.Fprintln(d.o.Stderr, msg)
		return 1, true
	}
	d.s = op.s
	d.reg = d.s.Commands
	if d.reg == nil {
		d.reg = commands.New(commands.Options{})
	}
	if _, ok := d.reg.Find(d.s.Agent.SessionID(), "exit"); !ok {
		// a registry without the built-ins still gets /help and /exit
		_ = commands.RegisterBuiltins(d.reg, commands.Deps{Keys: HelpKeys(d.o.Terminal)})
	}
	d.unmount = d.s.Broker.Mount()
	history, sub := d.s.Agent.Subscribe()
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
	queued := d.queued
	d.queued = nil
	for _, line := range queued {
		if d.leaving {
			break // lines after a piped /exit are not run
		}
		if code, exit := d.submit(ctx, line); exit {
			return code, true
		}
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

func (d *door) input(ctx context.Context, in input) (int, bool) {
	switch {
	case in.interrupt:
		d.r.PromptRedrawn()
		return d.interrupt()
	case in.eof:
		d.stdinClosed = true
		if d.s != nil {
			d.s.Broker.FailAll(interact.ErrStdinClosed)
			d.active = nil
		}
		return 0, false
	case d.active != nil:
		d.answer(in.line)
		return 0, false
	case strings.TrimSpace(in.line) == "" || d.leaving:
		return 0, false
	case d.s == nil:
		d.queued = append(d.queued, in.line)
		return 0, false
	}
	return d.submit(ctx, in.line)
}

// submit runs a line that starts with a slash as a slash command (the
// registry owns its grammar, so the line goes as typed), or sends the line
// to the model: sent while the agent is idle, steered into the running
// turn otherwise. A line that starts with a space is a prompt even when a
// slash follows.
func (d *door) submit(ctx context.Context, line string) (int, bool) {
	if strings.HasPrefix(line, "/") {
		return d.command(ctx, line)
	}
	text := strings.TrimSpace(line)
	d.submitted = true
	if d.s.Agent.Status() == agent.StatusRunning {
		d.s.Agent.Steer(text)
	} else {
		d.s.Agent.Send(text)
	}
	return 0, false
}

func (d *door) render(evs []agent.Event) {
	for _, e := range evs {
		d.r.Event(e)
		switch e := e.(type) {
		case agent.StatusChanged:
			d.status = e.Status
			if e.Status == agent.StatusRunning {
				d.sawRunning = d.sawRunning || d.submitted
				d.busy = true
			} else if d.busy {
				d.turnOver()
				d.r.Write("\n" + Prompt) // the turn ended without a turn/end to print it
			}
		case agent.Logged:
			switch e.Event.Data.(type) {
			case session.TurnStart:
				d.busy = true
			case session.TurnEnd:
				d.turnOver() // the renderer printed the prompt for it
			}
		}
	}
	d.showRequest()
}

// turnOver ends the turn the user saw running: Ctrl+C exits from here on.
func (d *door) turnOver() {
	d.busy = false
	d.interrupted = false
}

// eofDone reports whether stdin has ended (or /exit was piped) and nothing
// is left to wait for: no work was submitted, or the agent went idle after
// it was seen running.
func (d *door) eofDone() bool {
	if !(d.stdinClosed || d.leaving) || d.s == nil {
		return false
	}
	return !d.submitted || (d.sawRunning && d.status == agent.StatusIdle)
}

// interrupt is Ctrl+C at a terminal: the first cancels the running turn,
// a second one, or one while idle, exits.
func (d *door) interrupt() (int, bool) {
	if d.s == nil || !d.busy {
		return d.finish(0), true
	}
	if d.interrupted {
		return d.shutdown(130), true
	}
	d.interrupted = true
	d.s.Agent.Cancel()
	return 0, false
}

func (d *door) signal(sig os.Signal) (int, bool) {
	switch sig {
	case syscall.SIGINT:
		if d.o.Terminal {
			return d.interrupt()
		}
		return d.shutdown(130), true
	case syscall.SIGHUP:
		return d.shutdown(129), true
	}
	return d.shutdown(143), true
}

// shutdown cancels the running turn, shows its end while it is recorded
// (waiting at most shutdownGrace), and finishes with code.
func (d *door) shutdown(code int) int {
	if d.s == nil {
		return d.finish(code)
	}
	d.s.Agent.Cancel()
	timer := time.NewTimer(shutdownGrace)
	defer timer.Stop()
	for d.status == agent.StatusRunning {
		select {
		case evs := <-d.events:
			d.render(evs)
		case <-timer.C:
			return d.finish(code)
		}
	}
	return d.finish(code)
}

// finish closes the session (waiting for a pending open first) and says how
// to resume it.
func (d *door) finish(code int) int {
	if d.s == nil && d.opened != nil {
		select {
		case op := <-d.opened:
			d.s = op.s
		case <-time.After(shutdownGrace):
		}
	}
	if d.s != nil {
		d.closeSession()
	}
	return code
}

// closeSession stops answering and rendering for the session, closes it
// (waiting at most shutdownGrace) and says how to resume it.
func (d *door) closeSession() {
	if d.unmount != nil {
		d.unmount()
	}
	if d.stopPump != nil {
		d.stopPump()
	}
	resumable := d.s.Resumable()
	closed := make(chan struct{})
	go func() {
		d.s.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(shutdownGrace):
	}
	if resumable {
		fmt.Fprintf(d.o.Stderr, "\nTo resume this session: tack --resume %s\n", d.s.Agent.SessionID())
	}
}

// switchTo opens the session id ("" for a fresh one) and, once it is open,
// closes the current one and drives the new one from the next line. The
// registry runs /new and /resume only while the agent is idle. When the
// session cannot be opened the current one stays.
func (d *door) switchTo(ctx context.Context, id string) (int, bool) {
	next, err := d.o.Reopen(id)
	if err != nil {
		d.r.Notice("Could not open the session: "+err.Error(), true)
		return 0, false
	}
	d.closeSession()
	d.s, d.reg, d.events, d.stopPump, d.unmount = nil, nil, nil, nil, nil
	d.status, d.busy, d.submitted, d.sawRunning, d.interrupted = agent.StatusIdle, false, false, false, false
	d.active, d.settled = nil, nil
	d.r.reset()
	if id == "" {
		d.r.Notice("Started a new session with the same settings: "+next.Agent.SessionID()+".", true)
	}
	return d.start(ctx, opening{s: next})
}

// showRequest puts the oldest pending question or approval on screen once
// the tool call that asks it has been rendered, and drops a request that was
// settled elsewhere (the turn was cancelled).
func (d *door) showRequest() {
	if d.s == nil {
		return
	}
	all := d.s.Broker.Pending()
	for r := range d.settled {
		if !slices.Contains(all, r) {
			delete(d.settled, r)
		}
	}
	pending := slices.DeleteFunc(all, func(r *interact.Request) bool { return d.settled[r] })
	if d.active != nil && !slices.Contains(pending, d.active.req) {
		d.active = nil
		d.r.Write("\n")
	}
	if d.active != nil || len(pending) == 0 || d.r.OpenCalls() == 0 {
		return
	}
	d.active = &asking{req: pending[0]}
	d.prompt()
}

func (d *door) settle(r *interact.Request) {
	d.active = nil
	if d.settled == nil {
		d.settled = map[*interact.Request]bool{}
	}
	d.settled[r] = true
}

func (d *door) prompt() {
	a := d.active
	if a.req.Approval != nil {
		d.r.Write(ApprovalPrompt(*a.req.Approval))
		return
	}
	d.r.Write(QuestionPrompt(a.req.Questions[a.index]))
}

// answer reads line as the answer to the request on screen, re-asking when
// it is not one.
func (d *door) answer(line string) {
	a := d.active
	if a.req.Approval != nil {
		dec, reask, ok := ParseDecision(*a.req.Approval, line)
		if !ok {
			d.r.Write(reask + "\n" + Prompt)
			return
		}
		d.settle(a.req)
		a.req.Decide(dec)
		d.showRequest()
		return
	}
	ans, reask, ok := ParseAnswer(a.req.Questions[a.index], line)
	if !ok {
		d.r.Write(reask + "\n" + Prompt)
		return
	}
	a.answers = append(a.answers, ans)
	a.index++
	if a.index < len(a.req.Questions) {
		d.prompt()
		return
	}
	d.settle(a.req)
	a.req.Answer(a.answers)
	d.r.Write("\n")
	d.showRequest()
}

// resumedText tells the user what an opened session already holds: how
// many turns, and whether the last one was cut short by a process that
// ended (crash repair closed it). "" for a new session.
func resumedText(id string, history []session.Event) string {
	turns, interrupted := 0, false
	for _, e := range history {
		if end, ok := e.Data.(session.TurnEnd); ok {
			turns++
			interrupted = end.Reason == session.StopInterrupted
		}
	}
	switch {
	case len(history) == 0:
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
