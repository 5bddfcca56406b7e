package mcp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"
)

// DefaultSignInTimeout bounds the wait for the user to finish signing in
// in the browser.
const DefaultSignInTimeout = 5 * time.Minute

var (
	// errSignIn is a remote server's 401: it wants a sign-in tack has not
	// got, or no longer has (the refresh token expired).
	errSignIn        = errors.New("the server asks you to sign in")
	errSignInTimeout = errors.New("the sign-in was not finished in the browser in time")
)

// storedSignIn is the OAuth handler of a connection: it sends the token
// of the last sign-in, refreshed when it expires, and answers the
// server's 401 with errSignIn rather than opening a browser unasked.
type storedSignIn struct{ tokens oauth2.TokenSource }

func (s storedSignIn) TokenSource(context.Context) (oauth2.TokenSource, error) {
	if s.tokens == nil {
		return nil, nil
	}
	return s.tokens, nil
}

func (s storedSignIn) Authorize(_ context.Context, _ *http.Request, resp *http.Response) error {
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return nil // a 403: the transport retries once and reports it
	}
	return errSignIn
}

// needSignIn records that the server of generation gen asks the user to
// sign in, and says so once.
func (c *conn) needSignIn(gen int) {
	c.mu.Lock()
	if c.gen != gen || c.state == StateSignIn {
		c.mu.Unlock()
		return
	}
	c.state, c.err, c.list, c.prompts = StateSignIn, "", nil, nil
	c.mu.Unlock()
	c.m.inform(fmt.Sprintf("MCP server %s needs you to sign in: /mcp login %s opens your browser.", c.srv.Name, c.srv.Name))
	c.m.notify()
}

func (c *conn) signInError() error {
	return fmt.Errorf("MCP server %s asks the user to sign in; they can with /mcp login %s", c.srv.Name, c.srv.Name)
}

// pendingSignIn is a sign-in waiting for the user's browser; done is
// closed once it stopped listening for the browser's return.
type pendingSignIn struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// beginSignIn makes cancel's sign-in the one under way, giving up any
// other.
func (c *conn) beginSignIn(cancel context.CancelFunc) *pendingSignIn {
	c.giveUpSignIn()
	p := &pendingSignIn{cancel: cancel, done: make(chan struct{})}
	c.mu.Lock()
	c.signing = p
	c.mu.Unlock()
	return p
}

// endSignIn records that p ended, unless another sign-in replaced it.
func (c *conn) endSignIn(p *pendingSignIn) {
	c.mu.Lock()
	if c.signing == p {
		c.signing = nil
	}
	c.mu.Unlock()
}

func (c *conn) giveUpSignIn() {
	c.mu.Lock()
	p := c.signing
	c.signing = nil
	c.mu.Unlock()
	if p != nil {
		// Wait for its callback port to close: a sign-in through a fixed
		// port that follows needs it.
		p.cancel()
		<-p.done
	}
}

// signsIn reports whether tack may sign in to s: a streamable-HTTP server
// that is not given an Authorization header by its configuration.
func (s Server) signsIn() error {
	switch {
	case s.URL == "" || s.SDK:
		return fmt.Errorf("MCP server %s is not a remote server; only http servers sign in", s.Name)
	case s.SSE:
		return fmt.Errorf(`MCP server %s uses the older SSE transport, which tack cannot sign in to; use its streamable-HTTP url ("type": "http") if it has one`, s.Name)
	}
	for k := range s.Headers {
		if strings.EqualFold(k, "Authorization") {
			return fmt.Errorf("MCP server %s is given an Authorization header by its configuration (headers or bearer_token_env_var); remove it to sign in instead", s.Name)
		}
	}
	return nil
}

// oauthHandler is the handler c's connections authorize with, or nil
// where tack does not sign in to it.
func (m *Manager) oauthHandler(c *conn) auth.OAuthHandler {
	if m.tokens == nil || c.srv.signsIn() != nil {
		return nil
	}
	return storedSignIn{tokens: m.tokens.source(m.ctx, c.srv.URL, m.httpClient())}
}

func (m *Manager) httpClient() *http.Client {
	if m.opts.HTTPClient != nil {
		return m.opts.HTTPClient
	}
	return http.DefaultClient
}

// Login begins signing in to the named server with OAuth: it finds the
// server's authorization server (or reads the metadata its entry names),
// registers tack with it unless the server's entry names a client or tack
// registered through its fixed callback port before, opens the user's
// browser at the authorization address and returns that address and
// whether a browser opened. Waiting for the browser's answer goes on in
// the background for up to Options.SignInTimeout; then the server
// reconnects with its new token, and the outcome is reported. A sign-in
// already under way for the server is given up.
func (m *Manager) Login(ctx context.Context, name string) (url string, opened bool, err error) {
	c := m.find(name)
	if c == nil {
		return "", false, fmt.Errorf("no MCP server %q; /mcp lists them", name)
	}
	if m.tokens == nil {
		return "", false, fmt.Errorf("this session keeps no sign-ins (TACK_HOME is not set)")
	}
	if err := c.srv.signsIn(); err != nil {
		return "", false, err
	}
	flow, cancel := context.WithTimeout(m.ctx, cmp.Or(m.opts.SignInTimeout, DefaultSignInTimeout))
	pending := c.beginSignIn(cancel)
	asked := make(chan signInPage, 1)
	early := make(chan error, 1)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cancel()
		var shown atomic.Bool
		err := m.authorize(flow, c, func(p signInPage) { shown.Store(true); asked <- p })
		close(pending.done)
		c.endSignIn(pending)
		if !shown.Load() {
			early <- err
			return
		}
		m.signedIn(flow, c, err)
	}()
	select {
	case p := <-asked:
		return p.url, p.opened, nil
	case err := <-early:
		return "", false, err
	case <-ctx.Done():
		cancel()
		return "", false, ctx.Err()
	}
}

// signInPage is the authorization address the user was sent to.
type signInPage struct {
	url    string
	opened bool // a browser was started with it
}

// signedIn reports the outcome of a sign-in whose address the user was
// given, and reconnects the server after one that succeeded. A sign-in
// given up (a new one began, logout, the session ends) is not reported.
func (m *Manager) signedIn(flow context.Context, c *conn, err error) {
	name := c.srv.Name
	switch {
	case err == nil:
		m.inform(fmt.Sprintf("Signed in to MCP server %s; it reconnects now and its tools join at the next step once it is ready (/mcp shows its status).", name))
		_ = m.Restart(name)
	case errors.Is(err, errSignInTimeout) || errors.Is(flow.Err(), context.DeadlineExceeded):
		check := ""
		if a := (*adviceError)(nil); errors.As(err, &a) {
			check = a.text + "; "
		}
		m.report(fmt.Sprintf("MCP server %s: the sign-in was not finished in the browser within %s; %s/mcp login %s tries again.",
			name, cmp.Or(m.opts.SignInTimeout, DefaultSignInTimeout), check, name))
	case errors.Is(flow.Err(), context.Canceled):
	case errors.As(err, new(*adviceError)):
		m.report(fmt.Sprintf("MCP server %s: sign-in failed: %s.", name, c.redact.Text(clean(err.Error()))))
	default:
		m.report(fmt.Sprintf("MCP server %s: sign-in failed: %s; /mcp login %s tries again.", name, c.redact.Text(clean(err.Error())), name))
	}
}

// authorize runs the authorization-code flow with the SDK's handler
// against the 401 the server answers tack with, showing the
// authorization address through show, and keeps what it got.
func (m *Manager) authorize(ctx context.Context, c *conn, show func(signInPage)) error {
	o := c.srv.OAuth
	cb, err := listenCallback(o.CallbackPort)
	switch {
	case err != nil && o.CallbackPort != 0:
		return fmt.Errorf("MCP server %s signs in through port %d (its oauth.callbackPort), which another program is using (%v); close it, or finish the sign-in under way there, and run /mcp login %s again",
			c.srv.Name, o.CallbackPort, err, c.srv.Name)
	case err != nil:
		return fmt.Errorf("open a local port for the browser to return to: %w", err)
	}
	defer cb.close()
	disc := &discovery{base: m.httpClient().Transport, resource: c.srv.URL}
	if o.MetadataURL != "" {
		if err := disc.readOverride(ctx, o.MetadataURL); err != nil {
			return fmt.Errorf("MCP server %s: %w", c.srv.Name, err)
		}
	}
	prior, _ := m.tokens.load(c.srv.URL)
	id := m.identity(c.srv, prior.Client, cb.redirect)
	cfg := m.handlerConfig(c, cb, disc, id, show)
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return err
	}
	req, resp, err := m.challenge(ctx, c)
	if err != nil {
		return err
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		found, _, noRegistration := disc.findings()
		if !found && ctx.Err() == nil {
			return fmt.Errorf("MCP server %s asks to sign in but publishes no OAuth metadata (/.well-known/oauth-protected-resource or oauth-authorization-server), so tack cannot sign in to it; give it a token through headers or bearer_token_env_var instead", c.srv.Name)
		}
		return id.explain(c.srv, cb.redirect, noRegistration, err)
	}
	return nil
}

// handlerConfig is the configuration of the SDK's handler for a sign-in
// to c as id, with its browser returning to cb, its requests through disc.
func (m *Manager) handlerConfig(c *conn, cb *callback, disc *discovery, id identity, show func(signInPage)) *auth.AuthorizationCodeHandlerConfig {
	o := c.srv.OAuth
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL: cb.redirect,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			show(signInPage{url: args.URL, opened: m.openBrowser(args.URL)})
			return cb.wait(ctx)
		},
		// Scopes the entry names are asked for as written, offline_access
		// only if it is among them.
		RequestRefreshToken: len(o.Scopes) == 0,
		// An iss that matches the issuer is safe to take from a server
		// that does not advertise sending it; some send it unadvertised.
		AcceptUnadvertisedIss: true,
		Client:                &http.Client{Transport: disc, Timeout: 30 * time.Second},
		NewTokenSource: func(_ context.Context, cfg *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			kept := clientOf(cfg)
			kept.Registered = id.registered
			if _, meta, _ := disc.findings(); meta != nil {
				kept.RevokeURL = meta.RevocationEndpoint
			}
			if err := m.tokens.save(c.srv.URL, signIn{Client: kept, Token: t}); err != nil {
				return nil, err
			}
			// The connections take the token from the file; this one
			// never refreshes, which would leave the file's refresh token
			// spent.
			return oauth2.StaticTokenSource(t), nil
		},
	}
	if len(o.Scopes) > 0 {
		cfg.ScopeFilter = func([]string) []string { return o.Scopes }
	}
	id.configure(cfg)
	return cfg
}

func (m *Manager) getenv(name string) string {
	if m.opts.Getenv == nil {
		return ""
	}
	return m.opts.Getenv(name)
}

func (m *Manager) openBrowser(url string) bool {
	return m.opts.Browser != nil && m.opts.Browser(url) == nil
}

// challenge sends the server the initialize request the transport would
// and returns the request and its 401, the start of the flow.
func (m *Manager) challenge(ctx context.Context, c *conn) (*http.Request, *http.Response, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"tack","version":%q}}}`,
		protocolVersion, m.opts.Version)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.srv.URL, bytes.NewReader([]byte(body)))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := withHeaders(m.httpClient(), c.srv.Headers).Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reach MCP server %s: %v", c.srv.Name, err)
	}
	if resp.StatusCode != http.StatusUnauthorized {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("MCP server %s does not ask to sign in (it answered %s); /mcp restart %s connects without", c.srv.Name, resp.Status, c.srv.Name)
	}
	return req, resp, nil
}

// Logout forgets the sign-in to the named server, gives up a sign-in
// under way, and reconnects it, so that it asks to sign in again. Where
// the authorization server revokes tokens, it asks it to revoke them
// first and reports whether it did; one that would not is a notice, and
// the tokens are forgotten all the same.
func (m *Manager) Logout(name string) (revoked bool, err error) {
	c := m.find(name)
	if c == nil {
		return false, fmt.Errorf("no MCP server %q; /mcp lists them", name)
	}
	if err := c.srv.signsIn(); err != nil || m.tokens == nil {
		return false, fmt.Errorf("MCP server %s has no sign-in to forget", name)
	}
	c.giveUpSignIn()
	in, had, err := m.tokens.forget(c.srv.URL)
	if err != nil {
		return false, err
	}
	if !had {
		return false, fmt.Errorf("MCP server %s has no sign-in to forget", name)
	}
	revoked = m.revoke(c, in)
	return revoked, m.Restart(name)
}
