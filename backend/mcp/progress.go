package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// errSilent ends a call whose server neither answered nor reported
// progress for the tool timeout.
var errSilent = errors.New("the server was silent for the tool timeout")

// progressWatch hands the progress notifications of a server's tool
// calls to the calls, by the progress token each call sent.
type progressWatch struct {
	mu    sync.Mutex
	next  int
	calls map[string]func()
	// held counts the server's questions the user is answering: the
	// user's time is not the server's silence.
	held int
}

// hold stops the calls' timeouts while the user answers the server;
// release starts each again from the beginning.
func (p *progressWatch) hold() (release func()) {
	p.mu.Lock()
	p.held++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.held--
		heard := make([]func(), 0, len(p.calls))
		for _, h := range p.calls {
			heard = append(heard, h)
		}
		p.mu.Unlock()
		for _, h := range heard {
			h()
		}
	}
}

func (p *progressWatch) holding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held > 0
}

// watch makes a token for one call and calls heard for each progress
// notification that names it, until stop.
func (p *progressWatch) watch(heard func()) (token string, stop func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	token = fmt.Sprintf("tack-%d", p.next)
	if p.calls == nil {
		p.calls = map[string]func(){}
	}
	p.calls[token] = heard
	return token, func() {
		p.mu.Lock()
		delete(p.calls, token)
		p.mu.Unlock()
	}
}

// notify is a progress notification naming token.
func (p *progressWatch) notify(token any) {
	s, ok := token.(string)
	if !ok {
		return
	}
	p.mu.Lock()
	heard := p.calls[s]
	p.mu.Unlock()
	if heard != nil {
		heard()
	}
}

// quietTimeout is ctx ending, with the cause errSilent, once the call
// heard nothing for d: progress the server reports starts the wait again
// (as the TypeScript SDK's resetTimeoutOnProgress does), so a long job
// that says it is working is not cut off while one that went quiet is;
// nor is one whose server waits for the user (hold).
func (p *progressWatch) quietTimeout(ctx context.Context, d time.Duration) (context.Context, string, func()) {
	qctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(d, func() {
		if !p.holding() {
			cancel(errSilent)
		}
	})
	token, stop := p.watch(func() { timer.Reset(d) })
	return qctx, token, func() {
		stop()
		timer.Stop()
		cancel(nil)
	}
}
