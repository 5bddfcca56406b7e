package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// ClientSecretVariable names the environment variable /mcp login reads
// the secret of a server's oauth.clientId from, as `claude mcp add
// --client-secret` does.
const ClientSecretVariable = "MCP_CLIENT_SECRET"

// identity is the client tack signs in as: one registered beforehand
// (the entry's oauth.clientId), the one tack registered at an earlier
// sign-in through the same fixed callback port, or, with no id, one it
// registers now.
type identity struct {
	id, secret string
	// registered: tack registered the client itself, now or before.
	registered bool
}

// identity chooses the client of a sign-in to s whose browser returns to
// redirect; prior is the client of the last sign-in to it, if any.
func (m *Manager) identity(s Server, prior client, redirect string) identity {
	switch {
	case s.OAuth.ClientID != "":
		secret := m.getenv(ClientSecretVariable)
		if secret == "" && !prior.Registered && prior.ID == s.OAuth.ClientID {
			secret = prior.Secret // kept from the sign-in that read the variable
		}
		return identity{id: s.OAuth.ClientID, secret: secret}
	case s.OAuth.CallbackPort != 0 && prior.Registered && prior.RedirectURL == redirect:
		// A registration's redirect URI names its port: only with a
		// fixed one does it serve the next sign-in.
		return identity{id: prior.ID, secret: prior.Secret, registered: true}
	}
	return identity{registered: true}
}

// configure makes cfg sign in as i.
func (i identity) configure(cfg *auth.AuthorizationCodeHandlerConfig) {
	if i.id == "" {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{cfg.RedirectURL}, ClientName: "tack", TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		}}
		return
	}
	cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: i.id}
	if i.secret != "" {
		cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: i.secret}
	}
}

// adviceError is a failed sign-in that says what the user can do; err,
// if set, is the failure it explains.
type adviceError struct {
	text string
	err  error
}

func (e *adviceError) Error() string { return e.text }
func (e *adviceError) Unwrap() error { return e.err }

// explain turns the failure of a sign-in to s as i into one that says what
// to do, where it knows: an authorization server that would not register
// tack, or that refused the client tack signed in as. An authorization
// server refuses an unknown client or redirect URI on its own page, never
// sending the browser back: a sign-in as a known client that was not
// finished says what to check.
func (i identity) explain(s Server, redirect string, noRegistration bool, err error) error {
	code, refused := refusedClient(err)
	switch {
	case i.id == "" && noRegistration:
		port := "PORT"
		if s.OAuth.CallbackPort != 0 {
			port = strconv.Itoa(s.OAuth.CallbackPort)
		}
		return &adviceError{fmt.Sprintf(`the authorization server of MCP server %s does not let tack register itself; register a client with it whose redirect URI is http://localhost:%s/callback, put its id and that port in the server's entry ("oauth": {"clientId": "...", "callbackPort": %s}), set %s to its secret if it has one, and run /mcp login %s again`,
			s.Name, port, port, ClientSecretVariable, s.Name), err}
	case errors.Is(err, errSignInTimeout) && i.id != "" && i.registered:
		return &adviceError{fmt.Sprintf("if the sign-in page said it does not know the client, /mcp logout %s forgets the one tack registered, and the next sign-in registers tack again", s.Name), err}
	case errors.Is(err, errSignInTimeout) && i.id != "":
		return &adviceError{fmt.Sprintf("if the sign-in page refused the client, check oauth.clientId and that %s is among client %s's redirect URIs", redirect, i.id), err}
	case !refused:
		return err
	case i.registered:
		return &adviceError{fmt.Sprintf("the authorization server refused the client tack registered with it before (%s); /mcp logout %s forgets it, then /mcp login %s registers tack again",
			code, s.Name, s.Name), err}
	}
	return &adviceError{fmt.Sprintf("the authorization server refused client %s (%s); if the client has a secret, set %s to it and run /mcp login %s again; check too that oauth.clientId is right and that %s is among the client's redirect URIs",
		i.id, code, ClientSecretVariable, s.Name, redirect), err}
}

// refusedClient reports whether err is the authorization server refusing
// the client itself (RFC 6749 invalid_client, unauthorized_client), at the
// browser's return or at the token endpoint, and with which code.
func refusedClient(err error) (string, bool) {
	var r *refusalError
	var re *oauth2.RetrieveError
	code := ""
	switch {
	case errors.As(err, &r):
		code = r.code
	case errors.As(err, &re):
		code = re.ErrorCode
		if code == "" && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized {
			code = "invalid_client"
		}
	}
	return code, code == "invalid_client" || code == "unauthorized_client"
}
