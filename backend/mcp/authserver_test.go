package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/tack-agent/tack/backend/mcp/mcptest"
)

// authServer is a fake OAuth authorization server: metadata, dynamic
// client registration, an authorize endpoint that answers at once (the
// user said yes, or with deny set no), a token endpoint that checks PKCE
// and the client's secret and refreshes, rotating the refresh token, and
// an RFC 7009 revocation endpoint. It accepts only the access token it
// issued last.
type authServer struct {
	*httptest.Server
	ttl  int    // expires_in of its tokens
	deny string // the error /authorize answers with, if set
	// noRegistration leaves the registration endpoint out of its
	// metadata, closedRegistration refuses registrations: only
	// pre-registered clients sign in.
	noRegistration, closedRegistration bool
	// prefix, when set, is the path of its issuer, its metadata is at
	// prefix/metadata and its endpoints below prefix/oauth2, so that only
	// a client told where the metadata is finds them.
	prefix string
	// noRevocation leaves the revocation endpoint out of its metadata;
	// revokeStatus, when set, is the status revocations get.
	noRevocation bool
	revokeStatus int
	// postOnly takes client secrets in the form only (client_secret_post)
	// and says so in its metadata.
	postOnly bool

	mu            sync.Mutex
	clients       map[string][]string // client id → redirect URIs
	secrets       map[string]string   // client id → its secret, for those with one
	refusing      string              // a client the token endpoint refuses
	registrations int
	asked         url.Values        // the query of the last authorization request
	codes         map[string]string // code → PKCE challenge
	access        string            // the access token it accepts
	refresh       string            // the refresh token it accepts
	revoked       []url.Values      // the revocation requests' forms
	issued        int
	refreshes     int
}

func newAuthServer(t *testing.T, ttl int) *authServer {
	as := unstartedAuthServer(ttl)
	as.Start()
	t.Cleanup(as.Close)
	return as
}

// unstartedAuthServer is an authServer to adjust before its Start or
// StartTLS.
func unstartedAuthServer(ttl int) *authServer {
	as := &authServer{ttl: ttl, clients: map[string][]string{}, secrets: map[string]string{}, codes: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", as.metadata)
	mux.HandleFunc("POST /", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case as.path("register"):
			as.register(w, r)
		case as.path("token"):
			as.token(w, r)
		case as.path("revoke"):
			as.revoke(w, r)
		default:
			http.NotFound(w, r)
		}
	})
	as.Server = httptest.NewUnstartedServer(mux)
	return as
}

func (as *authServer) issuer() string { return as.URL + as.prefix }

// path is where the endpoint name is.
func (as *authServer) path(name string) string {
	if as.prefix != "" {
		return as.prefix + "/oauth2/" + name
	}
	return "/" + name
}

func (as *authServer) metadata(w http.ResponseWriter, r *http.Request) {
	where := "/.well-known/oauth-authorization-server"
	if as.prefix != "" {
		where = as.prefix + "/metadata"
	}
	switch r.URL.Path {
	case as.path("authorize"):
		as.authorize(w, r)
		return
	case where:
	default:
		http.NotFound(w, r)
		return
	}
	meta := oauthex.AuthServerMeta{
		Issuer: as.issuer(), AuthorizationEndpoint: as.URL + as.path("authorize"), TokenEndpoint: as.URL + as.path("token"),
		RegistrationEndpoint: as.URL + as.path("register"), RevocationEndpoint: as.URL + as.path("revoke"),
		ResponseTypesSupported: []string{"code"}, CodeChallengeMethodsSupported: []string{"S256"},
		ScopesSupported: []string{"read", "offline_access"},
	}
	if as.noRegistration {
		meta.RegistrationEndpoint = ""
	}
	if as.noRevocation {
		meta.RevocationEndpoint = ""
	}
	if as.postOnly {
		meta.TokenEndpointAuthMethodsSupported = []string{"client_secret_post"}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(meta)
}

// preregister adds a client made by hand in the server's console.
func (as *authServer) preregister(id, secret, redirect string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.clients[id] = []string{redirect}
	if secret != "" {
		as.secrets[id] = secret
	}
}

func (as *authServer) register(w http.ResponseWriter, r *http.Request) {
	if as.noRegistration || as.closedRegistration {
		http.Error(w, "registration is closed", http.StatusForbidden)
		return
	}
	var meta oauthex.ClientRegistrationMetadata
	json.NewDecoder(r.Body).Decode(&meta)
	as.mu.Lock()
	as.registrations++
	id := fmt.Sprintf("client-%d", as.registrations)
	as.clients[id] = meta.RedirectURIs
	as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs,
		"token_endpoint_auth_method": meta.TokenEndpointAuthMethod})
}

func (as *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	as.asked = q
	redirects, ok := as.clients[q.Get("client_id")]
	code := fmt.Sprintf("code-%d", len(as.codes)+1)
	as.codes[code] = q.Get("code_challenge")
	as.mu.Unlock()
	if !ok || len(redirects) != 1 || redirects[0] != q.Get("redirect_uri") {
		http.Error(w, "unknown client or redirect_uri", http.StatusBadRequest)
		return
	}
	answer := url.Values{"state": {q.Get("state")}, "code": {code}}
	if as.deny != "" {
		answer = url.Values{"state": {q.Get("state")}, "error": {as.deny}, "error_description": {"the user said no"}}
	}
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+answer.Encode(), http.StatusFound)
}

// authenticates reports whether r comes from a known client with its
// secret, if it has one, in the body or in basic authentication.
func (as *authServer) authenticates(r *http.Request) bool {
	id, secret, basic := r.BasicAuth()
	if basic && as.postOnly {
		return false
	}
	if !basic {
		id, secret = r.Form.Get("client_id"), r.Form.Get("client_secret")
	}
	_, known := as.clients[id]
	return known && secret == as.secrets[id] && id != as.refusing
}

func (as *authServer) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	as.mu.Lock()
	defer as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if !as.authenticates(r) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"invalid_client"}`)
		return
	}
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if as.codes[r.Form.Get("code")] != base64.RawURLEncoding.EncodeToString(sum[:]) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_grant"}`)
			return
		}
	case "refresh_token":
		if r.Form.Get("refresh_token") != as.refresh {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_grant"}`)
			return
		}
		as.refreshes++
	}
	as.issued++
	as.access, as.refresh = fmt.Sprintf("access-%d", as.issued), fmt.Sprintf("refresh-%d", as.issued)
	json.NewEncoder(w).Encode(map[string]any{"access_token": as.access, "token_type": "Bearer",
		"expires_in": as.ttl, "refresh_token": as.refresh})
}

// revoke forgets the token of an authenticated client's request, as RFC
// 7009 says, or answers revokeStatus.
func (as *authServer) revoke(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.revoked = append(as.revoked, r.Form)
	switch {
	case as.revokeStatus != 0:
		http.Error(w, "down for maintenance", as.revokeStatus)
		return
	case !as.authenticates(r):
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"invalid_client"}`)
		return
	}
	switch r.Form.Get("token") {
	case as.access:
		as.access = ""
	case as.refresh:
		as.refresh = ""
	}
}

func (as *authServer) accepts(token string) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	return token != "" && token == as.access
}

// protectedServer is the fake MCP server behind the SDK's own bearer
// token check, which answers 401 with a WWW-Authenticate challenge that
// names its protected resource metadata: as, and the scopes "read" and
// "write".
func protectedServer(t *testing.T, as *authServer) *httptest.Server {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(
		&oauthex.ProtectedResourceMetadata{Resource: srv.URL + "/mcp", AuthorizationServers: []string{as.URL},
			ScopesSupported: []string{"read", "write"}}))
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if !as.accepts(token) {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: srv.URL + "/.well-known/oauth-protected-resource/mcp"})(mcptest.NewHTTP("docs")))
	return srv
}
