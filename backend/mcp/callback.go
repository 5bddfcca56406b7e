package mcp

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// callback is the one-shot listener on a loopback port that the
// browser returns to after signing in, with the authorization code or the
// authorization server's refusal.
type callback struct {
	srv      *http.Server
	redirect string // http://localhost:PORT/callback
	answer   chan callbackAnswer
	once     sync.Once
}

type callbackAnswer struct {
	res *auth.AuthorizationResult
	err error
}

// listenCallback opens the listener at port (zero: a free one) on
// 127.0.0.1 and, where the machine has it, on [::1] at the same port,
// since a browser may take localhost for either.
func listenCallback(port int) (*callback, error) {
	v4, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	port = v4.Addr().(*net.TCPAddr).Port
	cb := &callback{redirect: "http://localhost:" + strconv.Itoa(port) + "/callback", answer: make(chan callbackAnswer, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", cb.serve)
	cb.srv = &http.Server{Handler: mux}
	go cb.srv.Serve(v4)
	if v6, err := net.Listen("tcp", "[::1]:"+strconv.Itoa(port)); err == nil {
		go cb.srv.Serve(v6)
	}
	return cb, nil
}

// serve takes the first answer and shows the user a page saying what
// happened; a request with neither a code nor an error is not one.
func (cb *callback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var a callbackAnswer
	switch {
	case q.Get("error") != "":
		a.err = refusal(q.Get("error"), q.Get("error_description"))
	case q.Get("code") != "":
		a.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	default:
		http.Error(w, "This address takes the answer of an authorization server.", http.StatusBadRequest)
		return
	}
	cb.once.Do(func() { cb.answer <- a })
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page := "Signed in. You can close this tab and return to tack."
	if a.err != nil {
		page = "Sign-in failed: " + a.err.Error() + ". You can close this tab; tack says what to do next."
	}
	fmt.Fprintf(w, "<!doctype html><title>tack</title><p>%s</p>\n", html.EscapeString(page))
}

// refusalError is the authorization server's answer that it would not
// authorize tack: an RFC 6749 error code and its description.
type refusalError struct{ code, description string }

func refusal(code, description string) error { return &refusalError{code, description} }

func (e *refusalError) Error() string {
	if e.description != "" {
		return fmt.Sprintf("the authorization server refused: %s (%s)", e.description, e.code)
	}
	return "the authorization server refused: " + e.code
}

// wait waits for the browser's answer until ctx ends.
func (cb *callback) wait(ctx context.Context) (*auth.AuthorizationResult, error) {
	select {
	case a := <-cb.answer:
		return a.res, a.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, errSignInTimeout
		}
		return nil, ctx.Err()
	}
}

func (cb *callback) close() { cb.srv.Close() }

// OpenBrowser is the way this system opens an address in the user's
// browser: open on macOS, the URL handler on Windows, xdg-open elsewhere,
// but only where getenv names a display; nil where there is none (over
// SSH), where the user opens the address tack shows them.
func OpenBrowser(getenv func(string) string) func(url string) error {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
			return nil
		}
		name = "xdg-open"
	}
	return func(url string) error {
		cmd := exec.Command(name, append(args, url)...)
		if err := cmd.Start(); err != nil {
			return err
		}
		go cmd.Wait() // it hands the address on and ends
		return nil
	}
}
