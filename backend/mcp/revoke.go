package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// revokeTimeout bounds asking the authorization server to revoke tokens
// at logout, which waits for it.
const revokeTimeout = 15 * time.Second

// revoke asks the authorization server of the sign-in in, forgotten from
// c, to revoke its tokens, where it advertised a revocation endpoint, and
// reports whether it did; a failure is a notice, since the tokens are
// forgotten anyway and lapse when they expire.
func (m *Manager) revoke(c *conn, in signIn) bool {
	if in.Client.RevokeURL == "" || in.Token == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(m.ctx, revokeTimeout)
	defer cancel()
	if err := revokeTokens(ctx, m.httpClient(), in); err != nil {
		m.inform(fmt.Sprintf("MCP server %s: tack forgot its tokens, but its authorization server did not revoke them (%s); they stop working when they expire, or sooner if you remove tack's access in the service's settings.",
			c.srv.Name, c.redact.Text(clean(err.Error()))))
		return false
	}
	return true
}

// revokeTokens revokes in's refresh token, which ends the grant, then its
// access token, as RFC 7009 says: a POST of the token with a hint of its
// kind, the client authenticated as at the token endpoint.
func revokeTokens(ctx context.Context, hc *http.Client, in signIn) error {
	for _, t := range []struct{ token, hint string }{
		{in.Token.RefreshToken, "refresh_token"}, {in.Token.AccessToken, "access_token"},
	} {
		if t.token == "" {
			continue
		}
		if err := revokeToken(ctx, hc, in.Client, url.Values{"token": {t.token}, "token_type_hint": {t.hint}}); err != nil {
			return err
		}
	}
	return nil
}

func revokeToken(ctx context.Context, hc *http.Client, c client, form url.Values) error {
	basic := c.Secret != "" && c.AuthStyle != oauth2.AuthStyleInParams
	if !basic {
		form.Set("client_id", c.ID)
		if c.Secret != "" {
			form.Set("client_secret", c.Secret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.RevokeURL, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic {
		// RFC 6749 §2.3.1: both are form-encoded before basic encoding.
		req.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("its revocation endpoint answered %s", resp.Status)
	}
	return nil
}
