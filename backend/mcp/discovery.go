package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discovery carries a sign-in's requests to the server and its
// authorization server, and notes what they found: whether any OAuth
// metadata was (so that a failed sign-in to a server without any says
// so), the authorization server's metadata (its revocation endpoint is
// kept for logout), and whether it would not register tack.
//
// With an override (oauth.authServerMetadataUrl) it answers discovery
// itself. The SDK's handler cannot be handed metadata, only find it: the
// protected resource metadata it asks for names the override's issuer,
// and that issuer's metadata is the override document.
type discovery struct {
	base     http.RoundTripper
	resource string // the MCP server's URL

	override []byte // the document read from the override URL
	issuer   string // the override's issuer

	mu      sync.Mutex
	found   bool
	meta    *oauthex.AuthServerMeta
	refused bool // the registration endpoint answered with an error
}

func (d *discovery) transport() http.RoundTripper {
	if d.base == nil {
		return http.DefaultTransport
	}
	return d.base
}

func (d *discovery) RoundTrip(r *http.Request) (*http.Response, error) {
	if d.override != nil && r.Method == http.MethodGet {
		if doc := d.answer(r.URL.Path); doc != nil {
			return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Request: r,
				Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(doc))}, nil
		}
	}
	resp, err := d.transport().RoundTrip(r)
	if err != nil {
		return nil, err
	}
	return d.note(r, resp), nil
}

// answer is the override's answer to a discovery request for path, or
// nil for a request that is not one.
func (d *discovery) answer(path string) []byte {
	switch {
	case strings.HasPrefix(path, "/.well-known/oauth-protected-resource"):
		doc, _ := json.Marshal(oauthex.ProtectedResourceMetadata{Resource: d.resource, AuthorizationServers: []string{d.issuer}})
		return doc
	case authServerMetadataPath(path):
		return d.override
	}
	return nil
}

// authServerMetadataPath reports whether path is one of the places
// (RFC 8414, OpenID Connect Discovery) authorization server metadata is
// looked for.
func authServerMetadataPath(path string) bool {
	return strings.Contains(path, "/.well-known/oauth-authorization-server") || strings.Contains(path, "/.well-known/openid-configuration")
}

// note records what resp, the answer to r, says of the authorization
// server, and returns it to be read as it came.
func (d *discovery) note(r *http.Request, resp *http.Response) *http.Response {
	ok := resp.StatusCode == http.StatusOK
	switch {
	case ok && authServerMetadataPath(r.URL.Path):
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		var meta oauthex.AuthServerMeta
		d.mu.Lock()
		d.found = true
		if err == nil && json.Unmarshal(body, &meta) == nil {
			d.meta = &meta
		}
		d.mu.Unlock()
	case ok && strings.Contains(r.URL.Path, "/.well-known/"):
		d.mu.Lock()
		d.found = true
		d.mu.Unlock()
	case r.Method == http.MethodPost && resp.StatusCode >= 300:
		d.mu.Lock()
		if d.meta != nil && d.meta.RegistrationEndpoint == r.URL.String() {
			d.refused = true
		}
		d.mu.Unlock()
	}
	return resp
}

// readOverride reads the authorization server metadata at url, which then
// answers discovery.
func (d *discovery) readOverride(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: d.transport()}).Do(req)
	if err != nil {
		return fmt.Errorf("cannot read the authorization server metadata at %s (oauth.authServerMetadataUrl): %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("cannot read the authorization server metadata at %s (oauth.authServerMetadataUrl): it answered %s; check the address", url, resp.Status)
	}
	var meta oauthex.AuthServerMeta
	if err := json.Unmarshal(body, &meta); err != nil || meta.Issuer == "" || meta.AuthorizationEndpoint == "" || meta.TokenEndpoint == "" {
		return fmt.Errorf("%s (oauth.authServerMetadataUrl) is not authorization server metadata: it names no issuer, authorization_endpoint and token_endpoint; check the address", url)
	}
	d.override, d.issuer = body, meta.Issuer
	d.mu.Lock()
	d.found, d.meta = true, &meta
	d.mu.Unlock()
	return nil
}

// findings are what discovery found: whether any OAuth metadata, the
// authorization server's metadata (nil where none was read), and whether
// it would not register tack (it has no registration endpoint, or refused).
func (d *discovery) findings() (found bool, meta *oauthex.AuthServerMeta, noRegistration bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.found, d.meta, d.refused || d.meta != nil && d.meta.RegistrationEndpoint == ""
}
