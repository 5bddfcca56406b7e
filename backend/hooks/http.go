package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/config"
)

// Request is an HTTP hook, Claude Code's "type": "http": the hook's input
// is POSTed to URL as JSON, and a 2xx answer's body is read as a command's
// stdout would be. Any other status fails without blocking: to block, the
// body answers with a decision.
type Request struct {
	URL     string
	Headers map[string]string
	// AllowedEnv are the variables Headers may name ($VAR, ${VAR});
	// others stay empty, so a settings file cannot send the user's
	// secrets where it likes.
	AllowedEnv []string
}

// newRequest is h as an HTTP hook, or why it cannot be one.
func newRequest(h config.HookHandler) (*Request, error) {
	u, err := url.Parse(strings.TrimSpace(h.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("an http hook needs a url of http or https, not %q", h.URL)
	}
	return &Request{URL: u.String(), Headers: h.Headers, AllowedEnv: h.AllowedEnvVars}, nil
}

// maxAnswer bounds what is read of an HTTP hook's answer.
const maxAnswer = maxOutput

// poster is the call that POSTs a hook's input to r.URL, its headers
// filled from environ, and answers the body of a 2xx answer; any other
// status is an error with the start of the body.
func (r *Request) poster(environ []string) func(context.Context, []byte) ([]byte, error) {
	return func(ctx context.Context, body []byte) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		lookup := func(name string) string {
			if !slices.Contains(r.AllowedEnv, name) {
				return ""
			}
			return envValue(environ, name)
		}
		for k, v := range r.Headers {
			req.Header.Set(k, os.Expand(v, lookup))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, fmt.Errorf("could not post: %w", err)
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			msg := "HTTP " + resp.Status
			if tail := lastLines(string(answer), 3); tail != "" {
				msg += ": " + tail
			}
			return nil, errors.New(msg)
		}
		return answer, nil
	}
}

// envValue is name's value in environ ("NAME=value" entries, the last
// one winning), or "".
func envValue(environ []string, name string) string {
	value := ""
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			value = v
		}
	}
	return value
}
