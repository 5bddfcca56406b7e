// Package redact removes credentials from text before it reaches the user,
// the model or the session log: the secrets tack was given (API keys,
// header values, tokens in a server's environment), any Authorization
// header value, and the password and key parameters of a URL. Servers echo
// all of these in error bodies and stderr, and Go's transport errors quote
// the URL.
package redact

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
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
var bearerRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})`)
})

// userinfoRe finds the password of a URL's user information.
var userinfoRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`://[^/@\s:]*:([^/@\s]+)@`) })

// secretWords name the query parameters and environment variables whose
// values are credentials (some gateways take the key in the URL; MCP
// servers take their tokens in the environment).
var secretWords = []string{"key", "api_key", "api-key", "apikey", "access_token", "token", "auth", "password", "secret", "sig"}

// A Redactor replaces known secrets, and anything shaped like a bearer
// token, with Redacted. The zero value removes only bearer tokens.
type Redactor struct {
	secrets []string
}

// New returns a Redactor of the given secrets; values shorter than eight
// characters are placeholders, not secrets, and are kept.
func New(secrets ...string) Redactor {
	var r Redactor
	for _, s := range secrets {
		r.add(s)
	}
	return r
}

// Endpoint returns the Redactor of a server reached with apiKey at rawURL:
// the key, the URL's password and its credential parameters.
func Endpoint(apiKey, rawURL string) Redactor {
	r := New(apiKey)
	r.AddURL(rawURL)
	return r
}

// AddURL adds rawURL's password and the values of its credential query
// parameters.
func (r *Redactor) AddURL(rawURL string) {
	// Read the password by hand: a URL that does not parse is quoted in
	// the message that says so.
	if m := userinfoRe().FindStringSubmatch(rawURL); m != nil {
		r.add(m[1])
		if pw, err := url.PathUnescape(m[1]); err == nil {
			r.add(pw)
		}
	}
	if u, err := url.Parse(rawURL); err == nil {
		for name, vs := range u.Query() {
			if IsSecretName(name) {
				for _, v := range vs {
					r.add(v)
					r.add(url.QueryEscape(v))
				}
			}
		}
	}
}

// AddHeader adds a request header's value, and for "Bearer X" or "Basic X"
// the credentials after the scheme on their own.
func (r *Redactor) AddHeader(value string) {
	r.add(value)
	if _, cred, ok := strings.Cut(strings.TrimSpace(value), " "); ok {
		r.add(cred)
	}
}

func (r *Redactor) add(s string) {
	if s = strings.TrimSpace(s); len(s) >= minSecret {
		r.secrets = append(r.secrets, s)
	}
}

// IsSecretName reports whether a query parameter or environment variable
// of this name holds a credential: GITHUB_TOKEN, api_key, X-Api-Key.
func IsSecretName(name string) bool {
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if name == w || strings.HasSuffix(name, "_"+w) || strings.HasSuffix(name, "-"+w) {
			return true
		}
	}
	return strings.Contains(name, "token") || strings.Contains(name, "secret") || strings.Contains(name, "password")
}

// Text is s with every credential replaced by Redacted.
func (r Redactor) Text(s string) string {
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	return bearerRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := bearerRe().FindStringSubmatch(m)
		if !strings.ContainsAny(sub[2], "0123456789") {
			return m
		}
		return sub[1] + Redacted
	})
}
