package llm

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Redacted stands in for a secret removed from a message.
const Redacted = "[redacted]"

// minSecret is the shortest value treated as a secret: local servers take
// placeholders like "none" or "ollama" as keys, and hiding those would
// mangle every message that contains the word.
const minSecret = 8

// bearerRe finds an Authorization header's credentials wherever a server
// echoes them, whatever key they carry; a token is only what holds a digit,
// so prose ("Bearer authentication failed") stays whole.
var bearerRe = regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})`)

// userinfoRe finds the password of a URL's user information.
var userinfoRe = regexp.MustCompile(`://[^/@\s:]*:([^/@\s]+)@`)

// secretParams are the query parameters whose values are credentials
// (some gateways take the key in the URL).
var secretParams = []string{"key", "api_key", "api-key", "apikey", "access_token", "token", "auth", "password", "secret", "sig"}

// Redactor removes an endpoint's credentials from text before it reaches
// the user, the model or the session log: the API key wherever it occurs,
// any Authorization header value, and the password and key parameters of
// the base URL. Servers echo all of these in error bodies (a rejected key
// quoted back, a proxy's dump of the request), and Go's transport errors
// quote the URL.
type Redactor struct {
	secrets []string
}

// NewRedactor returns the Redactor of an endpoint with apiKey at baseURL.
func NewRedactor(apiKey, baseURL string) Redactor {
	var r Redactor
	r.add(apiKey)
	// Read the password by hand: a URL that does not parse is quoted in
	// the message that says so.
	if m := userinfoRe.FindStringSubmatch(baseURL); m != nil {
		r.add(m[1])
		if pw, err := url.PathUnescape(m[1]); err == nil {
			r.add(pw)
		}
	}
	if u, err := url.Parse(baseURL); err == nil {
		for name, vs := range u.Query() {
			if isSecretParam(name) {
				for _, v := range vs {
					r.add(v)
					r.add(url.QueryEscape(v))
				}
			}
		}
	}
	return r
}

func (r *Redactor) add(s string) {
	if s = strings.TrimSpace(s); len(s) >= minSecret {
		r.secrets = append(r.secrets, s)
	}
}

func isSecretParam(name string) bool {
	name = strings.ToLower(name)
	for _, p := range secretParams {
		if name == p || strings.HasSuffix(name, "_"+p) {
			return true
		}
	}
	return false
}

// Text is s with every credential replaced by Redacted.
func (r Redactor) Text(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	return bearerRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := bearerRe.FindStringSubmatch(m)
		if !strings.ContainsAny(sub[2], "0123456789") {
			return m
		}
		return sub[1] + Redacted
	})
}

// Error redacts e in place, its message and its cause's text, and returns
// it. errors.Is still sees the cause; nothing can unwrap its unredacted
// text.
func (r Redactor) Error(e *Error) *Error {
	if e == nil {
		return nil
	}
	e.Message = r.Text(e.Message)
	if e.Err != nil {
		if _, done := e.Err.(redactedError); !done {
			e.Err = redactedError{err: e.Err, text: r.Text(e.Err.Error())}
		}
	}
	return e
}

// redactedError is a cause whose text has had its credentials removed.
type redactedError struct {
	err  error
	text string
}

func (e redactedError) Error() string        { return e.text }
func (e redactedError) Is(target error) bool { return errors.Is(e.err, target) }

// redactErr redacts err when it is an *Error and returns it.
func (r Redactor) redactErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		r.Error(e)
	}
	return err
}
