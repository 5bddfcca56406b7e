package mcp

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func environment(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// waitSignedIn waits until the session said n sign-ins succeeded.
func (s signInSession) waitSignedIn(t *testing.T, n int) {
	t.Helper()
	count := func() int {
		signed := 0
		for _, text := range s.informs.all() {
			if strings.HasPrefix(text, "Signed in to MCP server") {
				signed++
			}
		}
		return signed
	}
	testkit.Eventually(t, strconv.Itoa(n)+" sign-ins", func() bool { return count() >= n },
		func() string { return fmt.Sprintf("informs %q; reports %q", s.informs.all(), s.reports.all()) })
}

func (as *authServer) counts() (registrations, refreshes int) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.registrations, as.refreshes
}

// An authorization server without dynamic registration (Slack, GitHub)
// signs tack in as the client its entry names, with the secret of
// MCP_CLIENT_SECRET, kept so that refreshing needs no variable.
func TestPreRegisteredClientSignsInWhereRegistrationIsRefused(t *testing.T) {
	as := newAuthServer(t, 1) // expired at once: every new session refreshes
	as.noRegistration = true
	srv := protectedServer(t, as)
	port := freePort(t)
	as.preregister("pre-1", "s3cret", "http://localhost:"+strconv.Itoa(port)+"/callback")
	home, b := t.TempDir(), &browser{}

	oauth := OAuth{ClientID: "pre-1", CallbackPort: port}
	named := openOAuthSession(t, home, srv.URL+"/mcp", oauth, b, Options{Getenv: environment(map[string]string{"MCP_CLIENT_SECRET": "s3cret"})})
	named.login(t)
	named.waitState(t, StateReady)
	if registrations, _ := as.counts(); registrations != 0 {
		t.Errorf("tack registered %d clients with a server that takes none", registrations)
	}
	kept, err := os.ReadFile(filepath.Join(home, TokenFile))
	if err != nil || !strings.Contains(string(kept), `"client_secret": "s3cret"`) {
		t.Fatalf("the client secret is not kept with the tokens: %v\n%s", err, kept)
	}

	later := openOAuthSession(t, home, srv.URL+"/mcp", oauth, b, Options{})
	if _, refreshes := as.counts(); later.state(t) != StateReady || refreshes == 0 {
		t.Fatalf("a later session without MCP_CLIENT_SECRET is %q after %d refreshes, want ready after one; reports %q",
			later.state(t), refreshes, later.reports.all())
	}
	later.login(t) // signing in again takes the kept secret
	later.waitSignedIn(t, 1)
	if revoked, err := later.Logout("docs"); !revoked || err != nil {
		t.Fatalf("Logout = %v, %v; want the tokens revoked as the client with its secret", revoked, err)
	}
}

// Signing in without a client where the authorization server registers
// none says what to set.
func TestServerThatRegistersNoClientSaysToNameOne(t *testing.T) {
	for _, closed := range []bool{false, true} {
		as := newAuthServer(t, 3600)
		as.noRegistration, as.closedRegistration = !closed, closed
		srv := protectedServer(t, as)
		port := freePort(t)
		s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{CallbackPort: port}, &browser{}, Options{})
		_, _, err := s.Login(context.Background(), "docs")
		if err == nil || !strings.Contains(err.Error(), "does not let tack register itself") ||
			!strings.Contains(err.Error(), `"callbackPort": `+strconv.Itoa(port)) || !strings.Contains(err.Error(), "/mcp login docs") {
			t.Errorf("registration closed %v: signing in without a client: %v, want it to say to set oauth.clientId", closed, err)
		}
	}
}

// A server that refuses the client's secret gets a report saying to set
// MCP_CLIENT_SECRET and sign in again.
func TestRefusedClientSaysToSetTheSecret(t *testing.T) {
	as := newAuthServer(t, 3600)
	as.noRegistration = true
	srv := protectedServer(t, as)
	port := freePort(t)
	as.preregister("pre-1", "s3cret", "http://localhost:"+strconv.Itoa(port)+"/callback")
	s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{ClientID: "pre-1", CallbackPort: port}, &browser{}, Options{})
	s.login(t)
	s.reports.wait(t)
	if got := s.reports.all()[0]; !strings.Contains(got, "refused client pre-1 (invalid_client)") ||
		!strings.Contains(got, "set MCP_CLIENT_SECRET to it and run /mcp login docs again") {
		t.Fatalf("a refused client reads %q, want it to say to set MCP_CLIENT_SECRET and run /mcp login docs again", got)
	}

	unknown := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{ClientID: "nobody", CallbackPort: port}, &browser{},
		Options{SignInTimeout: 200 * time.Millisecond})
	unknown.login(t)
	unknown.reports.wait(t)
	want := "check oauth.clientId and that http://localhost:" + strconv.Itoa(port) + "/callback is among client nobody's redirect URIs"
	if got := unknown.reports.all()[0]; !strings.Contains(got, want) {
		t.Fatalf("an unknown client, refused on the sign-in page, reads %q, want %q", got, want)
	}
}

// With oauth.callbackPort the browser returns to that port, a sign-in
// started over takes it from the one given up, and one taken by another
// program is said, with the port and the server.
func TestFixedCallbackPortIsTheRedirectURI(t *testing.T) {
	as := newAuthServer(t, 3600)
	srv := protectedServer(t, as)
	port := freePort(t)
	b := &browser{stay: true}
	s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{CallbackPort: port}, b, Options{})
	s.login(t) // the user leaves this one: it holds the port
	b.stay = false
	s.login(t) // it is given up, and its port serves this one
	s.waitSignedIn(t, 1)
	want := "http://localhost:" + strconv.Itoa(port) + "/callback"
	as.mu.Lock()
	got, registered := as.asked.Get("redirect_uri"), as.clients["client-1"]
	as.mu.Unlock()
	if got != want || len(registered) != 1 || registered[0] != want {
		t.Fatalf("the sign-in asked for redirect %q and registered %q, want %q", got, registered, want)
	}

	taken, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	if _, _, err := s.Login(context.Background(), "docs"); err == nil ||
		!strings.Contains(err.Error(), "MCP server docs signs in through port "+strconv.Itoa(port)) {
		t.Fatalf("signing in through a taken port: %v, want it to name the port and the server", err)
	}
}

// A client tack registered through a fixed port serves the next sign-in;
// through a free port, whose redirect URI changes, it cannot.
func TestRegistrationThroughAFixedPortIsUsedAgain(t *testing.T) {
	for _, fixed := range []bool{true, false} {
		as := newAuthServer(t, 3600)
		srv := protectedServer(t, as)
		oauth := OAuth{}
		if fixed {
			oauth.CallbackPort = freePort(t)
		}
		s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", oauth, &browser{}, Options{})
		s.login(t)
		s.waitSignedIn(t, 1)
		s.login(t)
		s.waitSignedIn(t, 2)
		if got, _ := as.counts(); got != map[bool]int{true: 1, false: 2}[fixed] {
			t.Errorf("fixed port %v: two sign-ins made %d registrations, want %d", fixed, got, map[bool]int{true: 1, false: 2}[fixed])
		}
	}
}

// A registration the authorization server no longer takes says how to
// register again: refused at the token endpoint, or on the sign-in page,
// which never sends the browser back.
func TestRefusedRegistrationSaysToRegisterAgain(t *testing.T) {
	as := newAuthServer(t, 3600)
	srv := protectedServer(t, as)
	home, oauth := t.TempDir(), OAuth{CallbackPort: freePort(t)}
	s := openOAuthSession(t, home, srv.URL+"/mcp", oauth, &browser{}, Options{})
	s.login(t)
	s.waitSignedIn(t, 1)
	as.mu.Lock()
	as.refusing = "client-1"
	as.mu.Unlock()
	s.login(t)
	s.reports.wait(t)
	if got := s.reports.all()[0]; !strings.Contains(got, "refused the client tack registered with it before (invalid_client); /mcp logout docs forgets it") {
		t.Fatalf("a registration refused at the token endpoint reads %q, want it to say /mcp logout docs", got)
	}

	as.mu.Lock()
	delete(as.clients, "client-1")
	as.mu.Unlock()
	late := openOAuthSession(t, home, srv.URL+"/mcp", oauth, &browser{}, Options{SignInTimeout: 200 * time.Millisecond})
	late.login(t)
	late.reports.wait(t)
	if got := late.reports.all()[0]; !strings.Contains(got, "if the sign-in page said it does not know the client, /mcp logout docs forgets the one tack registered") {
		t.Fatalf("a registration refused on the sign-in page reads %q, want it to say /mcp logout docs", got)
	}
}

// oauth.authServerMetadataUrl is read instead of discovering the
// authorization server: here discovery finds nothing that works.
func TestMetadataURLReplacesDiscovery(t *testing.T) {
	as := unstartedAuthServer(3600)
	as.prefix = "/tenant"
	as.StartTLS()
	t.Cleanup(as.Close)
	srv := protectedServer(t, as) // its metadata names as.URL, where nothing answers
	b := &browser{client: as.Client()}
	o := Options{HTTPClient: as.Client()}

	found := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{MetadataURL: as.URL + "/tenant/metadata"}, b, o)
	found.login(t)
	found.waitState(t, StateReady)

	missing := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{MetadataURL: as.URL + "/elsewhere"}, b, o)
	if _, _, err := missing.Login(context.Background(), "docs"); err == nil ||
		!strings.Contains(err.Error(), "cannot read the authorization server metadata at "+as.URL+"/elsewhere (oauth.authServerMetadataUrl)") {
		t.Fatalf("a metadata URL that answers 404: %v, want it named", err)
	}
}

// oauth.scopes are asked for as written, instead of those the server
// advertises (and offline_access, which its authorization server does).
func TestScopesOfTheEntryAreAskedForAsWritten(t *testing.T) {
	for _, tc := range []struct {
		scopes []string
		want   string
	}{
		{nil, "offline_access read write"},
		{[]string{"files:read", "files:write"}, "files:read files:write"},
	} {
		as := newAuthServer(t, 3600)
		srv := protectedServer(t, as)
		s := openOAuthSession(t, t.TempDir(), srv.URL+"/mcp", OAuth{Scopes: tc.scopes}, &browser{}, Options{})
		s.login(t)
		s.waitState(t, StateReady)
		as.mu.Lock()
		got := strings.Fields(as.asked.Get("scope"))
		as.mu.Unlock()
		slices.Sort(got) // the SDK's union of scopes has no order
		if strings.Join(got, " ") != tc.want {
			t.Errorf("with oauth.scopes %q the sign-in asked for %q, want %q", tc.scopes, got, tc.want)
		}
	}
}
