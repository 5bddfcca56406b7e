package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"sync"

	"github.com/tack-agent/tack/backend/privfile"
	"golang.org/x/oauth2"
)

// TokenFile is the name, under TACK_HOME, of the file that keeps the
// sign-ins to remote MCP servers.
const TokenFile = "mcp-oauth.json"

// signIn is what a sign-in to one server leaves: the client tack
// registered as with its authorization server, and the tokens it got.
// The tokens are secrets: they go to this file and to the server, and
// nowhere else.
type signIn struct {
	Client client        `json:"client"`
	Token  *oauth2.Token `json:"token"`
}

// client is the part of an OAuth configuration that refreshing and
// revoking a token need: who tack is to the authorization server and
// where its endpoints are.
type client struct {
	ID          string           `json:"client_id"`
	Secret      string           `json:"client_secret,omitempty"`
	AuthURL     string           `json:"auth_url"`
	TokenURL    string           `json:"token_url"`
	AuthStyle   oauth2.AuthStyle `json:"auth_style,omitempty"`
	RedirectURL string           `json:"redirect_url,omitempty"`
	Scopes      []string         `json:"scopes,omitempty"`
	// Registered marks a client tack registered itself, which a sign-in
	// through the same fixed callback port uses again.
	Registered bool `json:"registered,omitempty"`
	// RevokeURL is the authorization server's revocation endpoint, where
	// its metadata advertises one.
	RevokeURL string `json:"revoke_url,omitempty"`
}

func clientOf(cfg *oauth2.Config) client {
	return client{
		ID: cfg.ClientID, Secret: cfg.ClientSecret, AuthURL: cfg.Endpoint.AuthURL, TokenURL: cfg.Endpoint.TokenURL,
		AuthStyle: cfg.Endpoint.AuthStyle, RedirectURL: cfg.RedirectURL, Scopes: cfg.Scopes,
	}
}

func (c client) config() *oauth2.Config {
	return &oauth2.Config{
		ClientID: c.ID, ClientSecret: c.Secret, RedirectURL: c.RedirectURL, Scopes: c.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: c.AuthURL, TokenURL: c.TokenURL, AuthStyle: c.AuthStyle},
	}
}

// tokenStore is the sign-ins file, keyed by server URL. Its methods are
// safe for concurrent use within a process; across processes each write
// rereads the file and changes one server's entry, so two sessions
// refreshing different servers keep both.
type tokenStore struct {
	path string
	mu   sync.Mutex
}

func (s *tokenStore) load(url string) (signIn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	in, ok := all[url]
	return in, err == nil && ok && in.Token != nil
}

// save keeps in as the sign-in to url.
func (s *tokenStore) save(url string, in signIn) error {
	return s.change(func(all map[string]signIn) bool { all[url] = in; return true })
}

// forget removes the sign-in to url and returns it, and whether there
// was one.
func (s *tokenStore) forget(url string) (signIn, bool, error) {
	var in signIn
	had := false
	err := s.change(func(all map[string]signIn) bool {
		in, had = all[url]
		delete(all, url)
		return had
	})
	return in, had, err
}

// change applies edit to the file's entries and writes them back when
// edit reports a change.
func (s *tokenStore) change(edit func(map[string]signIn) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return err
	}
	if !edit(all) {
		return nil
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := privfile.Write(s.path, append(b, '\n')); err != nil {
		return fmt.Errorf("keep the MCP sign-in in %s: %w; check that TACK_HOME is writable", s.path, err)
	}
	return nil
}

// read loads the entries; a missing file is none, a damaged one an error,
// so that it is not overwritten with less than it held.
func (s *tokenStore) read() (map[string]signIn, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]signIn{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read MCP sign-ins: %w", err)
	}
	all := map[string]signIn{}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("the MCP sign-ins file %s is damaged (%v); remove it and sign in again with /mcp login NAME", s.path, err)
	}
	return all, nil
}

// source is the token source of the stored sign-in to url, or nil when
// there is none: it refreshes an expired access token with the refresh
// token, through hc, and keeps each new token in the file.
func (s *tokenStore) source(ctx context.Context, url string, hc *http.Client) oauth2.TokenSource {
	in, ok := s.load(url)
	if !ok {
		return nil
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, hc)
	return &keptSource{
		base: in.Client.config().TokenSource(ctx, in.Token), last: in.Token.AccessToken,
		keep: func(t *oauth2.Token) error { return s.save(url, signIn{Client: in.Client, Token: t}) },
	}
}

// keptSource keeps every new token its base hands out.
type keptSource struct {
	base oauth2.TokenSource
	keep func(*oauth2.Token) error

	mu   sync.Mutex
	last string // the access token kept last
}

func (k *keptSource) Token() (*oauth2.Token, error) {
	t, err := k.base.Token()
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if t.AccessToken != k.last {
		// A token that could not be kept still serves this session; the
		// next one refreshes again or asks to sign in.
		if k.keep(t) == nil {
			k.last = t.AccessToken
		}
	}
	return t, nil
}
