package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultIdleTimeout is how long a stream may go without a byte before the
// client gives up on it.
const DefaultIdleTimeout = 300 * time.Second

// DefaultQuietTimeout is how long a stream may go without an event, keep-
// alive comments or not. DeepSeek queues a request under load, sending
// ": keep-alive" meanwhile, and closes it when inference has not started
// after 10 minutes; a server that never closes must not hold a turn for
// ever.
const DefaultQuietTimeout = 10 * time.Minute

// ClientConfig configures a Client. Only BaseURL is required.
type ClientConfig struct {
	BaseURL string // e.g. https://api.deepseek.com; /chat/completions is appended
	APIKey  string // sent as a bearer token when set
	// KeyEnv names where the key comes from, for the auth-failure message;
	// DEEPSEEK_API_KEY when empty.
	KeyEnv      string
	HTTPClient  *http.Client // http.DefaultClient when nil; must have no overall timeout
	Version     string       // tack's version, sent as User-Agent tack/<version>
	IdleTimeout time.Duration
	// QuietTimeout bounds the wait for an event: DefaultQuietTimeout when 0.
	QuietTimeout time.Duration
	Now          func() time.Time // for Retry-After dates; time.Now when nil
	// Profile shapes requests; DeepSeek's when its Name is empty.
	Profile Profile
	// Catalog, when set, describes the models of Provider: a model's entry
	// refines the profile and an alias is sent as the model's ID.
	Catalog  *Catalog
	Provider string
}

// Client streams chat completions from an OpenAI-compatible server. It
// never retries: the caller owns the retry policy.
type Client struct {
	cfg    ClientConfig
	redact Redactor

	mu    sync.Mutex
	noted map[string]bool
}

// NewClient returns a Client with cfg's defaults filled in.
func NewClient(cfg ClientConfig) *Client {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.KeyEnv == "" {
		cfg.KeyEnv = "DEEPSEEK_API_KEY"
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.QuietTimeout <= 0 {
		cfg.QuietTimeout = DefaultQuietTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Profile.Name == "" {
		cfg.Profile = DeepSeekProfile
	}
	return &Client{cfg: cfg, redact: NewRedactor(cfg.APIKey, cfg.BaseURL)}
}

// Stream sends req and returns its response stream. Failures are *Error;
// cancelling ctx ends a pending Stream or Next with ErrAborted. An empty
// req.Effort sends no thinking switch, leaving the server's default. No
// failure, now or mid-stream, carries the API key (see Redactor).
func (c *Client) Stream(ctx context.Context, req Request) (Stream, error) {
	s, err := c.open(ctx, req)
	if err != nil {
		return nil, c.redact.redactErr(err)
	}
	return s, nil
}

func (c *Client) open(ctx context.Context, req Request) (Stream, error) {
	var m Model
	if c.cfg.Catalog != nil {
		if known, ok := c.cfg.Catalog.LookupIn(c.cfg.Provider, req.Model); ok {
			m, req.Model = known, known.ID
		}
	}
	if m.ID == "" {
		m = Model{ID: req.Model, Provider: c.cfg.Provider}
	}
	sh := c.cfg.Profile.shapeFor(m)
	payload, err := json.Marshal(encodeRequest(req, sh))
	if err != nil {
		return nil, &Error{Kind: ErrInvalidRequest, Err: err, Message: "tack could not encode the request: " + err.Error()}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	call := &call{parent: ctx, ctx: cctx, cancel: cancel, idle: c.cfg.IdleTimeout, quietFor: c.cfg.QuietTimeout}
	call.timer = time.AfterFunc(call.idle, func() { cancel(errIdle) })
	call.quiet = time.AfterFunc(call.quietFor, func() { cancel(errQuiet) })

	hreq, err := http.NewRequestWithContext(cctx, http.MethodPost, c.cfg.BaseURL+"/chat/completions", bytes.NewReader(payload))
	if err != nil {
		call.Close()
		return nil, &Error{Kind: ErrTransport, Err: err, Message: fmt.Sprintf("the base URL %q is not usable: %v; check DEEPSEEK_BASE_URL or OPENAI_BASE_URL", c.cfg.BaseURL, err)}
	}
	c.setHeaders(hreq.Header, req)
	resp, err := c.cfg.HTTPClient.Do(hreq)
	call.timer.Stop()
	if err != nil {
		defer call.Close()
		return nil, call.failure(err)
	}
	call.body = resp.Body
	if resp.StatusCode != http.StatusOK {
		defer call.Close()
		return nil, statusError(resp, c.cfg.Now(), c.cfg.KeyEnv, c.cfg.APIKey != "")
	}
	s := newStream(call, requestID(resp.Header), callSeed(payload))
	s.redact = c.redact
	if req.Purpose != PurposeTitle && req.Purpose != PurposeHook {
		if note := sh.effortNote(m, req.Effort, c.cfg.Profile.Name); note != "" && c.firstNote(note) {
			s.note(note)
		}
	}
	return s, nil
}

// firstNote reports whether note is new to this client: a note about the
// request's shape is said once, not on every step.
func (c *Client) firstNote(note string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.noted[note] {
		return false
	}
	if c.noted == nil {
		c.noted = map[string]bool{}
	}
	c.noted[note] = true
	return true
}

func (c *Client) setHeaders(h http.Header, req Request) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	h.Set("User-Agent", "tack/"+c.cfg.Version)
	if c.cfg.APIKey != "" {
		h.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	if req.SessionID != "" {
		h.Set("X-Session-Id", req.SessionID)
	}
	if req.Purpose != PurposeStep {
		h.Set("X-Tack-Purpose", string(req.Purpose))
	}
}

// callSeed makes the ids of calls a server sends without one from the
// request: a retry of a request makes the same ids, another request others.
func callSeed(payload []byte) string {
	sum := sha256.Sum256(payload)
	return hex.EncodeToString(sum[:6])
}

var (
	errIdle   = errors.New("idle timeout")
	errQuiet  = errors.New("no event before the quiet timeout")
	errClosed = errors.New("stream closed by the caller")
)

// call is one HTTP exchange: its context, the idle watchdog that cancels it
// when a read waits too long, the quiet watchdog that cancels it when only
// keep-alives come, and the response body.
type call struct {
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelCauseFunc
	timer    *time.Timer
	idle     time.Duration
	quiet    *time.Timer
	quietFor time.Duration
	body     io.ReadCloser
}

// progress re-arms the quiet watchdog: an event arrived.
func (c *call) progress() { c.quiet.Reset(c.quietFor) }

// Read arms the watchdog for exactly the time the read is outstanding, so a
// slow consumer never trips it.
func (c *call) Read(p []byte) (int, error) {
	c.timer.Reset(c.idle)
	n, err := c.body.Read(p)
	c.timer.Stop()
	return n, err
}

func (c *call) Close() error {
	c.timer.Stop()
	c.quiet.Stop()
	c.cancel(errClosed)
	if c.body == nil {
		return nil
	}
	return c.body.Close()
}

// failure explains why the exchange broke: the caller cancelled, the
// watchdog fired, or the network failed.
func (c *call) failure(err error) *Error {
	switch cause := context.Cause(c.ctx); {
	case c.parent.Err() != nil || errors.Is(cause, errClosed):
		return &Error{Kind: ErrAborted, Err: err, Message: "the model request was cancelled"}
	case errors.Is(cause, errQuiet):
		return &Error{Kind: ErrTransport, Err: err, Message: fmt.Sprintf(
			"the provider sent only keep-alives for %s (it is holding the request in a queue); %stry again later", c.quietFor, autoRetry)}
	case errors.Is(cause, errIdle):
		return &Error{Kind: ErrTransport, Err: err, Message: fmt.Sprintf(
			"the provider sent nothing for %s; %scheck the network and try again", c.idle, autoRetry)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Kind: ErrTransport, Err: err, Message: "the connection to the provider broke mid-response; " + autoRetry + "check the network and try again"}
	default:
		return &Error{Kind: ErrTransport, Err: err, Message: fmt.Sprintf(
			"could not reach the model provider (%v); check the network and the base URL (DEEPSEEK_BASE_URL or OPENAI_BASE_URL)", err)}
	}
}

var _ Provider = (*Client)(nil)
