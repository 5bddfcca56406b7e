package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a scripted OpenAI-compatible chat-completions server. Each
// request to .../chat/completions is validated, recorded, and answered with
// the next scripted Response.
type Server struct {
	ts       *httptest.Server
	done     chan struct{} // closed by Close: releases stalled and delayed handlers
	stalled  chan struct{}
	fallback *Response

	mu         sync.Mutex
	script     []Response
	requests   []Request
	titles     []Request // title requests, answered outside the script
	violations []string
	reasoned   map[string]*sentTurn // tool-call id → the turn that sent it
	web        webScript
	routes     []*route
	rules      []Rules
}

// sentTurn is what one served response carried, for validating the
// requests that replay it.
type sentTurn struct {
	reasoning strings.Builder
}

// Option configures a Server.
type Option func(*config)

type config struct {
	fallback *Response
	listener net.Listener
	rules    []Rules
}

// WithFallback answers with r whenever the script has run out, instead of
// rejecting the request and recording a violation.
func WithFallback(r Response) Option { return func(c *config) { c.fallback = &r } }

// WithListener serves on l instead of a fresh loopback port.
func WithListener(l net.Listener) Option { return func(c *config) { c.listener = l } }

// New starts a Server with script and closes it when t ends.
func New(t testing.TB, script ...Response) *Server {
	s := NewServer(script)
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a Server with script. Close it when done.
func NewServer(script []Response, opts ...Option) *Server {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{
		done:     make(chan struct{}),
		stalled:  make(chan struct{}, 64),
		fallback: cfg.fallback,
		script:   append([]Response(nil), script...),
		reasoned: map[string]*sentTurn{},
		rules:    cfg.rules,
	}
	s.ts = httptest.NewUnstartedServer(s)
	if cfg.listener != nil {
		s.ts.Listener.Close()
		s.ts.Listener = cfg.listener
	}
	s.ts.Start()
	return s
}

// URL is the base URL to configure a client with.
func (s *Server) URL() string { return s.ts.URL }

// Close releases stalled streams and stops the server.
func (s *Server) Close() {
	select {
	case <-s.done:
		return
	default:
		close(s.done)
	}
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Push appends responses to the script.
func (s *Server) Push(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, rs...)
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Violations lists what was wrong with the requests received so far: broken
// tool-call pairing, reasoning not passed back, requests after the script
// ran out. Each violating request was answered with HTTP 400.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// Remaining is how many scripted responses have not been served.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script) + s.routesRemainingLocked()
}

// AssertConsumed fails t unless every scripted response was served and no
// request violated the protocol.
func (s *Server) AssertConsumed(t testing.TB) {
	t.Helper()
	if n := s.Remaining(); n > 0 {
		t.Errorf("llmtest: want every scripted response served, got %d left", n)
	}
	for _, v := range s.Violations() {
		t.Errorf("llmtest: %s", v)
	}
}

// Stalled receives once each time a Stall part begins, so a test can cancel
// exactly while the stream is stalled.
func (s *Server) Stalled() <-chan struct{} { return s.stalled }

// ServeHTTP answers POST .../chat/completions from the script, the Search
// and Fetch APIs from theirs (web.go), and anything else with 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && s.serveWeb(w, r) {
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, HTTPError(http.StatusNotFound, "llmtest serves POST /chat/completions only"))
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	if r.Header.Get("X-Tack-Purpose") == "title" {
		s.stream(w, r, s.admitTitle(raw, r.Header), 0)
		return
	}
	resp, n := s.admit(raw, r.Header)
	resp = resp.echo(r.Header)
	if resp.Status != 0 && resp.Status != http.StatusOK {
		writeError(w, resp)
		return
	}
	s.stream(w, r, resp, n)
}

// TitleText is the answer to every session-title request, which reports
// using TitleInput uncached prompt tokens and TitleOutput output tokens.
const (
	TitleText   = "Scripted session"
	TitleInput  = 48
	TitleOutput = 3
)

// admitTitle records a session-title request. Titles are answered with
// TitleText without consuming the script, so scripts describe only the
// conversation.
func (s *Server) admitTitle(raw []byte, h http.Header) Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	if req, _ := decodeRequest(raw, h); req != nil {
		s.titles = append(s.titles, *req)
	}
	return Reply(Text(TitleText, 0), Usage(0, TitleInput, TitleOutput, 0))
}

// TitleRequests are the session-title requests received so far.
func (s *Server) TitleRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.titles...)
}

// admit records and validates one request and picks its answer.
func (s *Server) admit(raw []byte, h http.Header) (Response, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.requests) + 1
	req, problems := decodeRequest(raw, h)
	if req != nil {
		s.requests = append(s.requests, *req)
		// A server with Rules is not DeepSeek and wants no reasoning back.
		var reasoned map[string]string
		if len(s.rules) == 0 {
			reasoned = s.reasonedLocked()
		}
		problems = append(problems, validate(req, reasoned)...)
	}
	if len(problems) == 0 && req != nil {
		if resp, refusals := s.refusedLocked(req); len(refusals) > 0 {
			for _, r := range refusals {
				s.violations = append(s.violations, fmt.Sprintf("request %d: refused as %s", n, r))
			}
			return resp, n
		}
		if resp, ok := s.routedLocked(req); ok {
			return resp, n
		}
	}
	if len(problems) == 0 && len(s.script) == 0 && s.fallback == nil {
		problems = append(problems, "the script has run out")
	}
	if len(problems) > 0 {
		for _, p := range problems {
			s.violations = append(s.violations, fmt.Sprintf("request %d: %s", n, p))
		}
		return HTTPError(http.StatusBadRequest, "llmtest: "+strings.Join(problems, "; ")), n
	}
	if len(s.script) == 0 {
		return *s.fallback, n
	}
	resp := s.script[0]
	s.script = s.script[1:]
	return resp, n
}

func (s *Server) reasonedLocked() map[string]string {
	out := make(map[string]string, len(s.reasoned))
	for id, t := range s.reasoned {
		out[id] = t.reasoning.String()
	}
	return out
}

func writeError(w http.ResponseWriter, r Response) {
	for k, vs := range r.Header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(r.Status)
	io.WriteString(w, r.Body)
}

// stream writes the events of resp, remembering what each carried before
// the client can see it.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, resp Response, n int) {
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	if w.Header().Get("X-Request-Id") == "" {
		w.Header().Set("X-Request-Id", fmt.Sprintf("llmtest-%d", n))
	}
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	turn := &sentTurn{}
	for _, e := range resp.Events {
		if !s.wait(r, e.Delay) {
			return
		}
		switch {
		case e.Stall:
			s.signalStall()
			s.wait(r, -1)
			return
		case e.KeepAliveEvery > 0:
			for s.wait(r, e.KeepAliveEvery) {
				if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
					return
				}
				flusher.Flush()
			}
			return
		case e.Disconnect:
			flusher.Flush()
			panic(http.ErrAbortHandler)
		}
		s.remember(turn, e)
		text := e.wire()
		if resp.CR {
			text = strings.ReplaceAll(text, "\n", "\r")
		}
		if _, err := io.WriteString(w, text); err != nil {
			return
		}
		flusher.Flush()
	}
}

// wait sleeps d (forever when d < 0) unless the client leaves or the server
// closes first; it reports whether to go on.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
	case <-s.done:
	}
	return false
}

func (s *Server) signalStall() {
	select {
	case s.stalled <- struct{}{}:
	default:
	}
}

// remember notes the reasoning and tool-call ids an event carries.
func (s *Server) remember(turn *sentTurn, e Event) {
	payloads := []string{e.Data}
	if e.Raw != "" {
		payloads = dataLines(e.Raw)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range payloads {
		var c chunkJSON
		if json.Unmarshal([]byte(p), &c) != nil {
			continue
		}
		for _, ch := range c.Choices {
			if rc := ch.Delta.ReasoningContent; rc != nil {
				turn.reasoning.WriteString(*rc)
			}
			for _, tc := range ch.Delta.ToolCalls {
				if tc.ID != "" {
					s.reasoned[tc.ID] = turn
				}
			}
		}
	}
}

// wire is the event as it appears on the wire.
func (e Event) wire() string {
	switch {
	case e.Raw != "":
		return e.Raw
	case e.Comment != "":
		return ": " + e.Comment + "\n\n"
	}
	return "data: " + e.Data + "\n\n"
}

// dataLines extracts the data payloads of a raw SSE body.
func dataLines(raw string) []string {
	var out []string
	for line := range strings.Lines(raw) {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "data:"); ok {
			out = append(out, strings.TrimPrefix(v, " "))
		}
	}
	return out
}
