package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolVersion is the version tack offers in its initialize request:
// the newest one that servers written before 2026 answer with the classic
// initialize handshake.
const protocolVersion = "2025-11-25"

// maxToolsPerServer bounds how many tools one server may offer.
const maxToolsPerServer = 256

// State is where a server is in its life.
type State string

const (
	StateStarting State = "starting"
	// StateApproval waits for the user to approve the project's servers.
	StateApproval State = "awaiting approval"
	StateReady    State = "ready"
	StateFailed   State = "failed"
	// StateDenied is a project server the user did not approve.
	StateDenied  State = "not approved"
	StateStopped State = "stopped"
	// StateDisabled is a server turned off by name (SetEnabled); it
	// stays off until turned on again.
	StateDisabled State = "disabled"
	// StateSignIn is a remote server that answered 401: it waits for
	// the user to sign in with /mcp login.
	StateSignIn State = "needs sign-in"
)

// link is one attempt at running a server: its process (stdio) and
// session. It is never reused: a restart makes a new one.
type link struct {
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the process has exited (stdio)
	exitErr error
	// drained is closed when the process's stderr reached its end.
	drained chan struct{}
	session *sdk.ClientSession
	closing bool
	// leave stops telling the link's client of roots added later.
	leave func()
}

// dialConfig is what connecting needs besides the server.
type dialConfig struct {
	version string
	cwd     string
	environ []string
	http    *http.Client
	relay   Relay
	stderr  *stderrTail
	roots   *roots
	changed func() // the server said its tool list changed
	// promptsChanged: the server said its prompt list changed.
	promptsChanged func()
	// progress is a progress notification, by its token.
	progress func(token any)
	// oauth signs the requests to a streamable-HTTP server; nil sends
	// none.
	oauth auth.OAuthHandler
	// elicit answers the server's elicitation requests; pageDone hears
	// that the user is done with a web page one sent them to.
	elicit   func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
	pageDone func(id string)
}

// dial starts or reaches the server and completes the MCP handshake
// within ctx.
func dial(ctx context.Context, s Server, dc dialConfig) (*link, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "tack", Version: dc.version}, &sdk.ClientOptions{
		ToolListChangedHandler:   func(context.Context, *sdk.ToolListChangedRequest) { dc.changed() },
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) { dc.promptsChanged() },
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			dc.progress(r.Params.ProgressToken)
		},
		ElicitationHandler: dc.elicit,
		ElicitationCompleteHandler: func(_ context.Context, r *sdk.ElicitationCompleteNotificationRequest) {
			if r.Params != nil {
				dc.pageDone(r.Params.ElicitationID)
			}
		},
		Capabilities: elicitationCapability,
	})
	client.AddReceivingMiddleware(refuseUnsupported)
	l := &link{leave: dc.roots.join(client)}
	var transport sdk.Transport
	switch {
	case s.SDK:
		transport = relayTransport{server: s.Name, relay: dc.relay}
	case s.SSE:
		transport = outliving{&sdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: withHeaders(dc.http, s.Headers)}}
	case s.URL != "":
		transport = &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: withHeaders(dc.http, s.Headers), MaxRetries: 2, OAuthHandler: dc.oauth}
	default:
		t, err := l.spawn(s, dc)
		if err != nil {
			return nil, err
		}
		transport = t
	}
	session, err := client.Connect(ctx, transport, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		l.stop()
		if errors.Is(err, errSignIn) {
			return nil, errSignIn
		}
		return nil, handshakeError(ctx, s, err)
	}
	l.session = session
	return l, nil
}

// outliving connects a transport that ties its connection to the context
// it connects with, as the old SSE transport ties its event stream, with
// a context that ends with dial's only until the connection is made:
// dial's ends with the handshake, and the stream has to last until the
// session closes the connection.
type outliving struct{ sdk.Transport }

func (t outliving) Connect(ctx context.Context) (sdk.Connection, error) {
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.Transport.Connect(life)
	if !stop() && err == nil {
		// ctx ended as the connection was made, and cancel ended it.
		conn.Close()
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return closing{conn, cancel}, nil
}

// closing is a connection that ends its context when it closes.
type closing struct {
	sdk.Connection
	cancel context.CancelFunc
}

func (c closing) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

func handshakeError(ctx context.Context, s Server, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("did not answer within %s (startup_timeout_ms)", s.StartupTimeout)
	}
	return fmt.Errorf("handshake failed: %v", err)
}

// spawn starts a stdio server with pipes of its own (so waiting for the
// process never races the reads of its output) in a process group of its
// own.
func (l *link) spawn(s Server, dc dialConfig) (sdk.Transport, error) {
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Dir = s.Cwd
	if cmd.Dir == "" {
		cmd.Dir = dc.cwd
	} else if !filepath.IsAbs(cmd.Dir) {
		cmd.Dir = filepath.Join(dc.cwd, cmd.Dir)
	}
	cmd.Env = append(append([]string(nil), dc.environ...), envList(s.Env)...)
	ownGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	startErr := cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if startErr != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("cannot start %s: %v", s.Command, startErr)
	}
	l.cmd, l.exited, l.drained = cmd, make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.drained)
		buf := make([]byte, 4096)
		for {
			n, err := errR.Read(buf)
			dc.stderr.Write(buf[:n])
			if err != nil {
				errR.Close()
				return
			}
		}
	}()
	go func() {
		l.exitErr = cmd.Wait()
		close(l.exited)
	}()
	return &sdk.IOTransport{Reader: newJSONLines(outR, dc.stderr), Writer: inW}, nil
}

func envList(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

// stop ends the session and the process: the session closes stdin, a
// server that does not leave within a moment is sent SIGTERM, then
// SIGKILL, with its process group.
func (l *link) stop() {
	l.leave()
	if l.session != nil {
		done := make(chan struct{})
		go func() { l.session.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
		}
	}
	if l.cmd == nil {
		return
	}
	for _, kill := range []bool{false, true} {
		select {
		case <-l.exited:
			signalGroup(l.cmd, true) // children it left behind
			return
		case <-time.After(500 * time.Millisecond):
			signalGroup(l.cmd, kill)
		}
	}
	<-l.exited
}

// exitText says how a stdio server's process ended, or "" while it runs.
// It gives the process a moment to end and its last stderr lines to
// arrive, for the report.
func (l *link) exitText() string {
	if l.exited == nil {
		return ""
	}
	select {
	case <-l.drained:
	case <-time.After(500 * time.Millisecond):
	}
	select {
	case <-l.exited:
	case <-time.After(200 * time.Millisecond):
		return ""
	}
	if l.exitErr == nil {
		return "exited"
	}
	return "exited (" + l.exitErr.Error() + ")"
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

func withHeaders(c *http.Client, headers map[string]string) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	if len(headers) == 0 {
		return c
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cc := *c
	cc.Transport = headerTransport{base: base, headers: headers}
	return &cc
}
