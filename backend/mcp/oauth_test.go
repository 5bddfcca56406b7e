package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// browser stands in for the user's: it follows the authorization
// address, and so the redirect back to tack, with an HTTP client.
type browser struct {
	mu     sync.Mutex
	opened []string
	stay   bool         // it opens the page and the user never answers
	client *http.Client // nil: http.DefaultClient
}

func (b *browser) open(u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	if b.stay {
		return nil
	}
	hc := b.client
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Get(u)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (b *browser) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// signInSession is one tack session's manager of the server at u, with the
// sign-ins of home.
type signInSession struct {
	*Manager
	reports, informs *reports
}

func openSession(t *testing.T, home, u string, b *browser, o Options) signInSession {
	t.Helper()
	return openOAuthSession(t, home, u, OAuth{}, b, o)
}

// openOAuthSession is openSession with the server's entry's oauth object.
func openOAuthSession(t *testing.T, home, u string, oauth OAuth, b *browser, o Options) signInSession {
	t.Helper()
	s := signInSession{reports: &reports{news: make(chan struct{}, 1)}, informs: &reports{news: make(chan struct{}, 1)}}
	o.Servers = []Server{{Name: "docs", Origin: "test", URL: u, OAuth: oauth, StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}}
	o.Report, o.Inform, o.TokenFile, o.Browser, o.Version = s.reports.add, s.informs.add, filepath.Join(home, TokenFile), b.open, "test"
	s.Manager = New(o)
	s.Start()
	t.Cleanup(s.Close)
	s.settle()
	return s
}

func (s signInSession) settle() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s.Settle(ctx)
}

func (s signInSession) state(t *testing.T) State {
	t.Helper()
	return s.Status()[0].State
}

func (s signInSession) waitState(t *testing.T, want State) {
	t.Helper()
	testkit.Eventually(t, "the server is "+string(want), func() bool { s.settle(); return s.state(t) == want },
		func() string { return fmt.Sprintf("state %q; reports %q", s.state(t), s.reports.all()) })
}

func (s signInSession) login(t *testing.T) string {
	t.Helper()
	u, _, err := s.Login(context.Background(), "docs")
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	return u
}

func TestSignInToARemoteServerKeepsItsTokens(t *testing.T) {
	as := newAuthServer(t, 3600)
	srv := protectedServer(t, as)
	home, b := t.TempDir(), &browser{}

	first := openSession(t, home, srv.URL+"/mcp", b, Options{})
	if got := first.state(t); got != StateSignIn {
		t.Fatalf("a server answering 401 is %q, want %q; reports %q", got, StateSignIn, first.reports.all())
	}
	if b.count() != 0 || len(first.reports.all()) != 0 {
		t.Fatalf("start-up opened the browser %d times and reported %q; want neither", b.count(), first.reports.all())
	}
	if text := first.StatusText(); !strings.Contains(text, "/mcp login docs") {
		t.Fatalf("/mcp does not say how to sign in:\n%s", text)
	}
	if u := first.login(t); !strings.HasPrefix(u, as.URL+"/authorize?") {
		t.Fatalf("Login returned %q, want the authorization address of %s", u, as.URL)
	}
	first.waitState(t, StateReady)
	if len(first.Tools()) == 0 {
		t.Fatal("signed in, the server offers no tools")
	}
	assertPrivate(t, filepath.Join(home, TokenFile))
	assertNoToken(t, as, first)

	second := openSession(t, home, srv.URL+"/mcp", b, Options{})
	if got := second.state(t); got != StateReady || b.count() != 1 {
		t.Fatalf("a new session with the same TACK_HOME is %q after %d sign-ins, want ready after 1", got, b.count())
	}

	if _, err := second.Logout("docs"); err != nil {
		t.Fatalf("Logout: %v", err)
	}
	second.waitState(t, StateSignIn)
	if third := openSession(t, home, srv.URL+"/mcp", b, Options{}); third.state(t) != StateSignIn {
		t.Fatalf("after logout a new session is %q, want %q", third.state(t), StateSignIn)
	}
}

func TestExpiredTokenIsRefreshedAndKept(t *testing.T) {
	as := newAuthServer(t, 1) // within oauth2's expiry margin: expired at once
	srv := protectedServer(t, as)
	home, b := t.TempDir(), &browser{}
	first := openSession(t, home, srv.URL+"/mcp", b, Options{})
	first.login(t)
	first.waitState(t, StateReady)
	for range 2 { // the second refreshes with the refresh token the first kept
		s := openSession(t, home, srv.URL+"/mcp", b, Options{})
		if got := s.state(t); got != StateReady {
			t.Fatalf("with an expired token a new session is %q, want ready; reports %q", got, s.reports.all())
		}
	}
	if as.refreshes < 2 || b.count() != 1 {
		t.Fatalf("%d refreshes and %d sign-ins, want at least 2 refreshes and 1 sign-in", as.refreshes, b.count())
	}
}

func TestTokenRefusedMidSessionAsksToSignInAgain(t *testing.T) {
	as := newAuthServer(t, 3600)
	srv := protectedServer(t, as)
	s := openSession(t, t.TempDir(), srv.URL+"/mcp", &browser{}, Options{})
	s.login(t)
	s.waitState(t, StateReady)
	echo := toolByName(t, s.Manager, "mcp__docs__docsecho")
	as.mu.Lock()
	as.access = "" // revoked
	as.mu.Unlock()
	res := run(t, echo, `{"text":"hi"}`, nil)
	if !res.IsError || !strings.Contains(res.Text, "/mcp login docs") {
		t.Fatalf("a call with a revoked token = %+v, want an error naming /mcp login docs", res)
	}
	if got := s.state(t); got != StateSignIn {
		t.Fatalf("after a revoked token the server is %q, want %q", got, StateSignIn)
	}
}

func TestSignInErrorsSayWhatToDo(t *testing.T) {
	as := newAuthServer(t, 3600)
	as.deny = "access_denied"
	srv := protectedServer(t, as)
	s := openSession(t, t.TempDir(), srv.URL+"/mcp", &browser{}, Options{SignInTimeout: 10 * time.Second})
	s.login(t)
	s.reports.wait(t)
	if got := s.reports.all()[0]; !strings.Contains(got, "refused: the user said no (access_denied)") || !strings.Contains(got, "/mcp login docs") {
		t.Fatalf("a refused sign-in reads %q, want the server's reason and /mcp login docs", got)
	}

	late := openSession(t, t.TempDir(), srv.URL+"/mcp", &browser{stay: true}, Options{SignInTimeout: 100 * time.Millisecond})
	late.login(t)
	late.reports.wait(t)
	if got := late.reports.all()[0]; !strings.Contains(got, "not finished in the browser within 100ms") || !strings.Contains(got, "/mcp login docs") {
		t.Fatalf("a sign-in not finished reads %q, want the timeout and /mcp login docs", got)
	}

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "who are you", http.StatusUnauthorized)
	}))
	t.Cleanup(bare.Close)
	none := openSession(t, t.TempDir(), bare.URL+"/mcp", &browser{}, Options{})
	if _, _, err := none.Login(context.Background(), "docs"); err == nil || !strings.Contains(err.Error(), "publishes no OAuth metadata") {
		t.Fatalf("signing in to a server without OAuth metadata: %v, want it said", err)
	}
}

func assertPrivate(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the sign-in was not kept: %v", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v, want 0600", path, fi.Mode().Perm())
	}
}

// assertNoToken checks that the access token shows nowhere the user or
// the session log sees.
func assertNoToken(t *testing.T, as *authServer, s signInSession) {
	t.Helper()
	as.mu.Lock()
	token := as.access
	as.mu.Unlock()
	seen := strings.Join(append(append(s.reports.all(), s.informs.all()...), s.StatusText()), "\n")
	if strings.Contains(seen, token) {
		t.Fatalf("the access token shows in what the user sees:\n%s", seen)
	}
}
