// Package agent drives one session: it turns user input into turns of model
// requests and tool calls, records every step in the session log, and
// publishes what happens to the front doors.
package agent

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Log is the durable session log the agent appends to (*session.Log).
type Log interface {
	Header() session.Header
	// Projection is the fold of the log so far; NextSeq the seq of the
	// next event.
	Projection() *session.Projection
	NextSeq() int64
	Append(now time.Time, d session.Data) (session.Event, error)
	Sync() error
	// ReadEvents reads logged events back by seq, History the latest
	// transcript events before a seq; Events reads them all, and Scan
	// those of some types from a seq on.
	session.Source
	History(before int64, n int) ([]session.Event, bool, error)
	Events() []session.Event
	Scan(from int64, types []string, visit func(session.Event) bool) error
}

// Gate decides whether a tool call may run, and how far the processes it
// starts may reach outside the sandbox. A non-nil error is a refusal; the
// model reads "Error: " and its text.
type Gate interface {
	Authorize(ctx context.Context, t tools.Tool, call tools.Call) (tools.Sandbox, error)
	// Grant is the sandbox of a call allowed without the gate's verdict
	// (a hook approved it): approval skips the question, not the sandbox.
	Grant(t tools.Tool) tools.Sandbox
}

// Config wires an Agent. Log, Provider and Tools are required.
type Config struct {
	Log      Log
	Provider llm.Provider
	Catalog  *llm.Catalog
	Model    string
	Effort   llm.Effort
	// System is the system prompt. It is sent byte-identical on every
	// request so the provider's prompt cache keeps hitting.
	System string
	Tools  *tools.Registry
	Gate   Gate
	// Hooks run the user's hook commands; nil runs none.
	Hooks  Hooks
	Broker *interact.Broker
	Retry  llm.RetryPolicy
	// MaxParallel bounds concurrently running parallel-safe tools (10).
	MaxParallel int
	// RefineTitle asks the model for a short title after the first turn.
	RefineTitle bool
	// CompactAt is the share of the context window at which the history is
	// compacted before a step (0.8 when zero).
	CompactAt float64
	// Checkpoints, when set, takes a checkpoint of the workspace before
	// every turn and around each step's edits and commands.
	Checkpoints Checkpoints
	// PrimeAfter is how long the store's priming waits after the agent
	// starts (at once when zero), to leave the front door its first frame.
	PrimeAfter time.Duration
	// PrimeWhen, when set, is what the priming waits for instead: closed
	// by the front door once the priming no longer competes with its user
	// (launch.Options.Background).
	PrimeWhen <-chan struct{}
	Retention Retention
	Cwd       string
	SpillDir  string
	// Images keeps the session's images; nil sends none (mentions stay
	// text, read refuses image files).
	Images *images.Store
	Now    func() time.Time
	// Sleep waits between retries; tests make it instant.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Agent drives one session. Its methods are safe for concurrent use.
//
// Lock order: logMu, then mu, then a Subscription's lock. A goroutine that
// holds mu never takes logMu: code that changes state under mu releases
// it before it records or publishes, so Subscribe may read the status
// while it holds logMu. Under logMu the session log appends (its own lock
// comes after logMu) and subscribers are pushed to, which never blocks;
// neither lock is held while waiting for the model, a tool or a channel.
type Agent struct {
	cfg Config

	// logMu orders appends: log, projection and subscribers see events in
	// sequence order.
	logMu sync.Mutex
	proj  *session.Projection
	subs  map[*Subscription]struct{}
	// notices are replayed to each new subscriber.
	notices []Notice

	mu      sync.Mutex
	status  Status
	closing bool // the running turn no longer takes steering
	inTurn  bool // a turn (not a job) runs and has not logged its end
	// hookStop is why a pre_tool_use hook (continue: false) ends the turn
	// once the step's calls are answered.
	hookStop  string
	steering  []string
	followUps []message
	// queuedOpts go with the queued follow-ups; turnOpts are the running
	// turn's.
	queuedOpts TurnOptions
	turnOpts   TurnOptions
	injected   []injection
	notes      map[string]note // by origin, for the next model request
	jobs       []job
	titled     bool // a model-written title exists or was asked for
	ckpt       checkpoints
	cancel     context.CancelFunc
	model      string
	effort     llm.Effort
	system     string // the system prompt: Config.System, or SetSystem's
	// unbounded are the models whose server refused the catalog's output
	// bound as too large for its window: later steps send none, and the
	// server bounds the output by what its window leaves (vLLM does).
	unbounded map[string]bool
	wake      chan struct{}
	changed   chan struct{} // closed and replaced on every status or inbox change

	// logErr is the first failed write of the log; nextSeq the seq an
	// event kept in memory after it gets. Both under logMu.
	logErr  error
	nextSeq int64

	stop context.CancelFunc
	done chan struct{}
	bg   sync.WaitGroup // background work: titles, checkpoint prime and prune
}

type injection struct{ origin, text string }

// ErrClosed is returned by verbs used after Close.
var ErrClosed = errors.New("agent is closed")

// New makes an agent over a loaded session log and starts its loop. The loop
// runs until Close.
func New(cfg Config) *Agent {
	if cfg.MaxParallel <= 0 {
		cfg.MaxParallel = 10
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = llm.Wait
	}
	if cfg.Catalog == nil {
		cfg.Catalog = llm.NewCatalog()
	}
	a := &Agent{
		cfg:     cfg,
		proj:    cfg.Log.Projection(),
		subs:    map[*Subscription]struct{}{},
		status:  StatusIdle,
		wake:    make(chan struct{}, 1),
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	a.nextSeq = cfg.Log.NextSeq()
	a.system = cfg.System
	a.model, a.effort = a.proj.Model()
	a.titled = a.proj.Named()
	if cfg.Model != "" {
		a.model = cfg.Model
	}
	if cfg.Effort != "" {
		a.effort = cfg.Effort
	}
	if a.effort == "" {
		m, _ := cfg.Catalog.Lookup(a.model)
		a.effort = cmp.Or(m.DefaultEffort, llm.EffortHigh)
	}
	ctx, stop := context.WithCancel(context.Background())
	a.stop = stop
	go a.loop(ctx)
	return a
}

// SessionID is the id of the driven session.
func (a *Agent) SessionID() string { return a.cfg.Log.Header().ID }

// Header is the session log's header.
func (a *Agent) Header() session.Header { return a.cfg.Log.Header() }

// Events reads back every durable event of the session; it costs the
// whole log, and is nil when the log cannot be read.
func (a *Agent) Events() []session.Event {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.cfg.Log.Events()
}

// Scan hands visit the durable events of the given types from seq from
// on, until it returns false; it reads the log but decodes only those.
func (a *Agent) Scan(from int64, types []string, visit func(session.Event) bool) error {
	return a.cfg.Log.Scan(from, types, visit)
}

// Projection is a copy of the fold of the session so far, without message
// bodies.
func (a *Agent) Projection() *session.Projection {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.ForDisplay()
}

// Tools is the agent's tool registry.
func (a *Agent) Tools() *tools.Registry { return a.cfg.Tools }

// ToolNames lists the registered tools, sorted.
func (a *Agent) ToolNames() []string { return a.cfg.Tools.Names() }

// Catalog is the model catalog the agent prices and sizes requests with.
func (a *Agent) Catalog() *llm.Catalog { return a.cfg.Catalog }

// System is the system prompt.
func (a *Agent) System() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.system
}

// SetSystem replaces the system prompt from the next request on: an
// Agent SDK gives its program's prompt as it initializes, after the
// session opened.
func (a *Agent) SetSystem(text string) {
	a.mu.Lock()
	a.system = text
	a.mu.Unlock()
}

// Status reports whether the agent is idle or running.
func (a *Agent) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status
}

// AcceptsNextStep reports whether Steer would join the running turn rather
// than queue a follow-up.
func (a *Agent) AcceptsNextStep() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.status == StatusRunning && !a.closing
}

// PlanMode reports whether the session's log leaves it in plan mode.
func (a *Agent) PlanMode() bool {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.PlanMode()
}

// Model is the model and effort the next step will use.
func (a *Agent) Model() (string, llm.Effort) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.model, a.effort
}

// SetModel switches model and effort from the next step on, and records the
// choice so a resumed session keeps it.
func (a *Agent) SetModel(model string, effort llm.Effort) error {
	if model == "" {
		return errors.New("empty model name")
	}
	if _, ok := llm.ParseEffort(string(effort)); !ok {
		return errors.New("unknown reasoning effort " + string(effort) + " (use off, low, high or max)")
	}
	a.mu.Lock()
	a.model, a.effort = model, effort
	a.mu.Unlock()
	_, err := a.Record(session.ModelSelect{Model: model, Effort: effort})
	return err
}

// Send submits a message. Idle, it starts a turn; running, it becomes the
// next turn after the current one, together with every other message sent
// meanwhile.
func (a *Agent) Send(text string) {
	a.mu.Lock()
	a.followUps = append(a.followUps, message{text: text})
	a.mu.Unlock()
	a.publishInbox()
	a.poke()
}

// Steer submits a message that joins the running turn at its next step
// boundary. When the turn can no longer take it, it queues as a follow-up;
// idle, it starts a turn.
func (a *Agent) Steer(text string) { a.steer(text, true) }

// SteerTurn steers as Steer does when the running turn can still take
// it, and reports whether it did; otherwise it does nothing (print mode
// gives a hook's late message no turn of its own).
func (a *Agent) SteerTurn(text string) bool { return a.steer(text, false) }

// steer joins text to the running turn if it can take it, else queues it
// as a follow-up when follow is set; it reports whether text joined.
func (a *Agent) steer(text string, follow bool) bool {
	a.mu.Lock()
	joined := a.status == StatusRunning && !a.closing
	switch {
	case joined:
		a.steering = append(a.steering, text)
	case follow:
		a.followUps = append(a.followUps, message{text: text})
	default:
		a.mu.Unlock()
		return false
	}
	a.mu.Unlock()
	a.publishInbox()
	a.poke()
	return joined
}

// Inject adds model-visible context without waking the agent. Idle, it is
// recorded at once; running, it joins at the next step boundary so it never
// splits a tool call from its result.
func (a *Agent) Inject(origin, text string) {
	a.mu.Lock()
	if a.status == StatusRunning {
		a.injected = append(a.injected, injection{origin, text})
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	_, _ = a.record(session.UserMessage{Turn: a.turn(), Kind: session.KindContext, Origin: origin, Text: text})
	_ = a.sync()
}

// Cancel aborts the running turn and discards queued and steering input,
// recording what was dropped, and tells hooks that can (Cancelled) to end
// the background work that would start a turn of its own. Idle, it does
// nothing.
func (a *Agent) Cancel() {
	a.mu.Lock()
	if a.status != StatusRunning {
		a.mu.Unlock()
		return
	}
	dropped := append(append([]string(nil), a.steering...), inputs(a.followUps)...)
	a.steering, a.followUps, a.queuedOpts = nil, nil, TurnOptions{}
	cancel := a.cancel
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if h, ok := a.cfg.Hooks.(interface{ Cancelled() }); ok {
		h.Cancelled() // what would start a turn of its own stops too
	}
	if len(dropped) > 0 {
		_, _ = a.record(session.InboxDiscard{Texts: dropped})
		a.publishInbox()
	}
}

// WhenIdle waits until the agent has no turn running and nothing queued.
func (a *Agent) WhenIdle(ctx context.Context) error {
	for {
		a.mu.Lock()
		idle, ch := a.status == StatusIdle && len(a.followUps) == 0 && len(a.steering) == 0, a.changed
		a.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Quiet reports whether the agent has nothing to do: no turn or
// compaction running, nothing queued. lastSeq is the sequence number of the
// last event recorded so far (-1 before any). Once the agent is quiet only
// new input, an injection or a late title adds events, so a subscriber that
// has received lastSeq has received everything the finished work produced.
func (a *Agent) Quiet() (quiet bool, lastSeq int64) {
	a.mu.Lock()
	quiet = a.status == StatusIdle && len(a.followUps) == 0 && len(a.steering) == 0 && len(a.jobs) == 0
	a.mu.Unlock()
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return quiet, a.nextSeq - 1
}

// Record appends a log-only event (commands, approvals, titles) and
// publishes it. When the log cannot be written the event is still applied
// and published, and the write error is returned.
func (a *Agent) Record(d session.Data) (session.Event, error) { return a.record(d) }

// recentEvents is how many transcript events a Snapshot holds at least: a
// few screens of the latest turns.
const recentEvents = 256

// Snapshot is the session as a front door finds it when it subscribes.
type Snapshot struct {
	// Projection is a copy of the fold of every event so far; it holds
	// no message bodies.
	Projection *session.Projection
	// Recent are the latest events of the transcript, from the start of a
	// step or turn, and Earlier says earlier ones remain (History reads
	// them).
	Recent  []session.Event
	Earlier bool
	// NextSeq is the seq of the first event after the snapshot.
	NextSeq int64
	// Err says why Recent could not be read from the log.
	Err error
}

// Subscribe returns the session so far and a subscription to every later
// event, with no gap or overlap between the two.
func (a *Agent) Subscribe() (Snapshot, *Subscription) {
	s := NewSubscription()
	a.logMu.Lock()
	defer a.logMu.Unlock()
	a.subs[s] = struct{}{}
	s.cancel = func() {
		a.logMu.Lock()
		delete(a.subs, s)
		a.logMu.Unlock()
	}
	s.Push(StatusChanged{Status: a.Status()})
	for _, n := range a.notices {
		s.Push(n)
	}
	snap := Snapshot{Projection: a.proj.ForDisplay(), NextSeq: a.nextSeq}
	snap.Recent, snap.Earlier, snap.Err = a.cfg.Log.History(a.nextSeq, recentEvents)
	return snap, s
}

// History reads back at least n transcript events before seq before, from
// the start of a step or turn, and reports whether earlier ones remain.
func (a *Agent) History(before int64, n int) ([]session.Event, bool, error) {
	return a.cfg.Log.History(before, n)
}

// Close cancels any running turn, stops the loop and ends every
// subscription. The caller closes the session log afterwards.
func (a *Agent) Close() {
	a.Cancel()
	a.stop()
	<-a.done
	a.bg.Wait()
	a.logMu.Lock()
	subs := a.subs
	a.subs = map[*Subscription]struct{}{}
	a.logMu.Unlock()
	for s := range subs {
		s.Close() // its unsubscribe finds it already gone
	}
}

func (a *Agent) poke() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

func (a *Agent) record(d session.Data) (session.Event, error) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.recordLocked(d)
}

func (a *Agent) recordLocked(d session.Data) (session.Event, error) {
	now := a.cfg.Now()
	e, err := a.cfg.Log.Append(now, d)
	if err != nil {
		var ok bool
		if e, ok = a.memoryEvent(now, d, err); !ok {
			return e, err
		}
	}
	a.nextSeq = e.Seq + 1
	a.proj.Apply(e)
	a.publishLocked(Logged{e})
	return e, nil
}

func (a *Agent) publish(e Event) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	a.publishLocked(e)
}

func (a *Agent) publishLocked(e Event) {
	for s := range a.subs {
		s.Push(e)
	}
}

// notifyLocked wakes WhenIdle waiters; a.mu must be held.
func (a *Agent) notifyLocked() {
	close(a.changed)
	a.changed = make(chan struct{})
}

func (a *Agent) publishInbox() {
	a.mu.Lock()
	a.notifyLocked()
	e := InboxChanged{Steering: append([]string(nil), a.steering...), FollowUps: inputs(a.followUps)}
	a.mu.Unlock()
	a.publish(e)
}

func (a *Agent) setStatus(s Status) {
	a.mu.Lock()
	changed := a.setStatusLocked(s)
	a.mu.Unlock()
	if changed {
		a.publish(StatusChanged{Status: s})
	}
}

// setStatusLocked changes the status and wakes WhenIdle waiters, reporting
// whether it changed; a.mu must be held and the caller publishes.
func (a *Agent) setStatusLocked(s Status) bool {
	if a.status == s {
		return false
	}
	a.status = s
	a.notifyLocked()
	return true
}

func (a *Agent) turn() int {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	return a.proj.Turn()
}
