// Package interact carries requests from the backend to the person at the
// terminal: questions (ask_user_question) and approvals (tool calls the
// permission mode asks about). Whichever front door is mounted answers them,
// first in, first out. Nothing fails open: with no answerer, questions fail
// and approvals are denied.
package interact

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/card"
)

// Errors that settle a request without an answer. Their texts are what the
// model reads after "Error: ".
var (
	ErrInterrupted = errors.New("ask_user_question was interrupted before the user answered")
	ErrStdinClosed = errors.New("ask_user_question cannot be answered because stdin is closed")
	ErrNoAnswerer  = errors.New("no user-questions provider is registered")
)

// Option is one choice of a Question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Recommended bool   `json:"recommended,omitempty"`
	// Preview is text to show while the option is chosen (a mock-up or a
	// snippet), as it is written: not wrapped.
	Preview string `json:"preview,omitempty"`
}

// Question is one question for the user.
type Question struct {
	ID          string   `json:"id"`
	Header      string   `json:"header,omitempty"`
	Question    string   `json:"question"`
	Detail      string   `json:"detail,omitempty"` // long text shown under the question (a plan)
	Options     []Option `json:"options,omitempty"`
	MultiSelect bool     `json:"multi_select,omitempty"`
	AllowCustom bool     `json:"allow_custom,omitempty"`
	// Server is the MCP server whose form (elicitation) the question is
	// part of; empty for the model's own questions.
	Server string `json:"server,omitempty"`
}

// Answer is the user's reply to one Question.
type Answer struct {
	ID       string   `json:"id"`
	Selected []string `json:"selected"`
	Custom   string   `json:"custom,omitempty"`
}

// Approval asks whether a tool call may run.
type Approval struct {
	CallID string
	Tool   string
	// Input is the call's arguments, as the model sent them.
	Input   json.RawMessage
	Summary string // one line: the command, or "Edit main.go"
	Details string // the full command or text
	// Why says what the call asks beyond the sandbox, or why it asks at
	// all ("Wants network access from the sandbox: to download modules").
	Why string
	// Confined says the call stays inside the sandbox, and Why only
	// says so: nothing to warn about.
	Confined bool
	Card     *card.Card
	// Remember is what "allow for this session" stores: a tool name or a
	// bash command prefix. Empty when the call cannot be remembered.
	Remember string
}

// Verdict is the outcome of an Approval.
type Verdict string

const (
	Allow        Verdict = "allow"
	AllowSession Verdict = "allow-session"
	Deny         Verdict = "deny"
)

// Decision answers an Approval; Reason is optional text for the model.
type Decision struct {
	Verdict Verdict
	Reason  string
}

// Request is one pending question set or approval. Exactly one of Questions
// and Approval is set. A front door settles it with Answer, Decide or Fail.
type Request struct {
	ID        int64
	Questions []Question
	Approval  *Approval

	once  sync.Once
	reply chan reply
}

type reply struct {
	answers  []Answer
	decision Decision
	err      error
}

func (r *Request) settle(v reply) bool {
	done := false
	r.once.Do(func() { r.reply <- v; done = true })
	return done
}

// Answer settles a question request.
func (r *Request) Answer(answers []Answer) { r.settle(reply{answers: answers}) }

// Decide settles an approval request.
func (r *Request) Decide(d Decision) { r.settle(reply{decision: d}) }

// Fail settles the request with an error (ErrInterrupted, ErrStdinClosed).
func (r *Request) Fail(err error) { r.settle(reply{err: err}) }

// Broker queues requests for the mounted front door.
type Broker struct {
	mu       sync.Mutex
	next     int64
	queue    []*Request
	mounted  int
	changes  chan struct{}
	closeErr error
	observe  []func(*Request)
	// waited is the time requests spent waiting for their answer, summed.
	waited time.Duration
}

// Waited is the time the broker's requests have spent waiting for an
// answer, in total: the user's time, which tool timings leave out.
func (b *Broker) Waited() time.Duration {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.waited
}

// Observe calls f with every request as it is queued, before an answer
// (notification hooks use it). f must not block.
func (b *Broker) Observe(f func(*Request)) {
	b.mu.Lock()
	b.observe = append(b.observe, f)
	b.mu.Unlock()
}

// NewBroker makes an empty broker with no answerer.
func NewBroker() *Broker { return &Broker{changes: make(chan struct{}, 1)} }

// Mount declares that a front door answers requests until unmount is called.
func (b *Broker) Mount() (unmount func()) {
	b.mu.Lock()
	b.mounted++
	b.closeErr = nil
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.mounted--
			b.mu.Unlock()
		})
	}
}

// Mounted reports whether an answerer is present.
func (b *Broker) Mounted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.mounted > 0
}

// Changes signals (coalesced) whenever the pending queue changes.
func (b *Broker) Changes() <-chan struct{} { return b.changes }

// Pending is the queue, oldest first.
func (b *Broker) Pending() []*Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*Request(nil), b.queue...)
}

// FailAll settles every pending request with err, and every later one too
// until the next Mount (closed stdin is final).
func (b *Broker) FailAll(err error) {
	b.mu.Lock()
	q := b.queue
	b.queue = nil
	b.closeErr = err
	b.mu.Unlock()
	for _, r := range q {
		r.Fail(err)
	}
	b.signal()
}

// Ask puts questions to the user and waits for the answers.
func (b *Broker) Ask(ctx context.Context, qs []Question) ([]Answer, error) {
	v, err := b.wait(ctx, &Request{Questions: qs})
	return v.answers, err
}

// Approve asks whether a tool call may run. Without an answerer it denies.
func (b *Broker) Approve(ctx context.Context, a Approval) (Decision, error) {
	v, err := b.wait(ctx, &Request{Approval: &a})
	if err != nil {
		return Decision{Verdict: Deny, Reason: err.Error()}, err
	}
	return v.decision, nil
}

func (b *Broker) wait(ctx context.Context, r *Request) (reply, error) {
	r.reply = make(chan reply, 1)
	b.mu.Lock()
	if b.closeErr != nil {
		err := b.closeErr
		b.mu.Unlock()
		return reply{}, err
	}
	if b.mounted == 0 {
		b.mu.Unlock()
		return reply{}, ErrNoAnswerer
	}
	b.next++
	r.ID = b.next
	b.queue = append(b.queue, r)
	observers := b.observe
	b.mu.Unlock()
	for _, f := range observers {
		f(r)
	}
	b.signal()
	defer b.remove(r)
	asked := time.Now()
	defer func() {
		b.mu.Lock()
		b.waited += time.Since(asked)
		b.mu.Unlock()
	}()
	select {
	case v := <-r.reply:
		return v, v.err
	case <-ctx.Done():
		if r.settle(reply{err: ErrInterrupted}) {
			return reply{}, ErrInterrupted
		}
		v := <-r.reply
		return v, v.err
	}
}

func (b *Broker) remove(r *Request) {
	b.mu.Lock()
	for i, q := range b.queue {
		if q == r {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			break
		}
	}
	b.mu.Unlock()
	b.signal()
}

func (b *Broker) signal() {
	select {
	case b.changes <- struct{}{}:
	default:
	}
}
