package mcp

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// /mcp logout revokes the tokens where the authorization server
// advertises a revocation endpoint: the refresh token, then the access
// token, as the client tack signed in as.
func TestLogoutRevokesTheTokens(t *testing.T) {
	as := newAuthServer(t, 3600)
	srv := protectedServer(t, as)
	home := t.TempDir()
	s := openSession(t, home, srv.URL+"/mcp", &browser{}, Options{})
	s.login(t)
	s.waitState(t, StateReady)
	as.mu.Lock()
	access, refresh := as.access, as.refresh
	as.mu.Unlock()

	revoked, err := s.Logout("docs")
	if err != nil || !revoked {
		t.Fatalf("Logout = %v, %v; want the tokens revoked", revoked, err)
	}
	as.mu.Lock()
	forms := as.revoked
	as.mu.Unlock()
	if len(forms) != 2 || forms[0].Get("token") != refresh || forms[0].Get("token_type_hint") != "refresh_token" ||
		forms[1].Get("token") != access || forms[1].Get("token_type_hint") != "access_token" || forms[1].Get("client_id") != "client-1" {
		t.Fatalf("revocation requests %v, want the refresh token then the access token of client-1", forms)
	}
	if as.accepts(access) {
		t.Error("the authorization server still accepts the access token")
	}
	s.waitState(t, StateSignIn)
}

// A client secret goes where the authorization server takes it, in the
// form here, for revocation as for the token.
func TestLogoutRevokesAsAClientWithASecretInTheForm(t *testing.T) {
	as := newAuthServer(t, 3600)
	as.noRegistration, as.postOnly = true, true
	srv := protectedServer(t, as)
	port := freePort(t)
	as.preregister("pre-1", "s3cret", "http://localhost:"+strconv.Itoa(port)+"/callback")
	s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{ClientID: "pre-1", CallbackPort: port}, &browser{},
		Options{Getenv: environment(map[string]string{"MCP_CLIENT_SECRET": "s3cret"})})
	s.login(t)
	s.waitState(t, StateReady)
	if revoked, err := s.Logout("docs"); !revoked || err != nil {
		t.Fatalf("Logout = %v, %v; want the tokens revoked with the secret in the form", revoked, err)
	}
}

// A revocation that fails is a notice; the tokens are forgotten all the
// same. Without a revocation endpoint nothing is asked.
func TestLogoutForgetsTokensTheServerWouldNotRevoke(t *testing.T) {
	for _, tc := range []struct {
		noRevocation bool
		status       int
		asked        int
		notice       string
	}{
		{noRevocation: true},
		{status: http.StatusServiceUnavailable, asked: 1, notice: "did not revoke them (its revocation endpoint answered 503 Service Unavailable)"},
	} {
		as := newAuthServer(t, 3600)
		as.noRevocation, as.revokeStatus = tc.noRevocation, tc.status
		srv := protectedServer(t, as)
		home := t.TempDir()
		s := openSession(t, home, srv.URL+"/mcp", &browser{}, Options{})
		s.login(t)
		s.waitState(t, StateReady)
		revoked, err := s.Logout("docs")
		if err != nil || revoked {
			t.Fatalf("%+v: Logout = %v, %v; want the tokens forgotten, not revoked, and no error", tc, revoked, err)
		}
		as.mu.Lock()
		asked := len(as.revoked)
		as.mu.Unlock()
		if asked != tc.asked {
			t.Errorf("%+v: %d revocation requests, want %d", tc, asked, tc.asked)
		}
		said := strings.Join(s.informs.all(), "\n")
		if tc.notice != "" && !strings.Contains(said, tc.notice) || tc.notice == "" && strings.Contains(said, "revoke") {
			t.Errorf("%+v: notices %q, want one saying %q", tc, said, tc.notice)
		}
		if later := openSession(t, home, srv.URL+"/mcp", &browser{}, Options{}); later.state(t) != StateSignIn {
			t.Errorf("%+v: after logout a new session is %q, want %q", tc, later.state(t), StateSignIn)
		}
	}
}
