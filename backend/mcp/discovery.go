package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discovery carries a sign-in's requests to the server and its
// authorization server, and notes what they found: whether any OAuth
// metadata was (so that a failed sign-in to a server without any says
// so), the authorization server's metadata, and whether it would not
// register tack.
type discovery struct {
	base http.RoundTripper

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
	resp, err := d.transport().RoundTrip(r)
	if err != nil {
		return nil, err
	}
	return d.note(r, resp), nil
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

// findings are what discovery found: whether any OAuth metadata, the
// authorization server's metadata (nil where none was read), and whether
// it would not register tack (it has no registration endpoint, or refused).
func (d *discovery) findings() (found bool, meta *oauthex.AuthServerMeta, noRegistration bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.found, d.meta, d.refused || d.meta != nil && d.meta.RegistrationEndpoint == ""
}
