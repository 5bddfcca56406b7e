package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// OAuth is how tack signs in to a remote server whose discovery or
// registration is not enough on its own: Claude Code's "oauth" object of
// a server entry. The zero value discovers the authorization server and
// registers tack with it, as the MCP specification says.
type OAuth struct {
	// ClientID is a client registered with the authorization server
	// beforehand (for servers without dynamic registration); tack then
	// registers none. Its secret, if it has one, is MCP_CLIENT_SECRET at
	// /mcp login, kept with the tokens.
	ClientID string
	// CallbackPort fixes the redirect URI at http://localhost:PORT/callback,
	// as a pre-registered client's must be; zero takes a free port.
	CallbackPort int
	// MetadataURL is the authorization server's metadata document, an
	// https:// address, read instead of discovering it.
	MetadataURL string
	// Scopes, when set, are exactly the scopes asked for, instead of
	// those the server advertises.
	Scopes []string
}

// claudeOAuth is the "oauth" object of a server entry, Claude Code's
// shape. A field left out is unset; one given must hold a value.
type claudeOAuth struct {
	ClientID     *string         `json:"clientId"`
	CallbackPort json.RawMessage `json:"callbackPort"`
	MetadataURL  *string         `json:"authServerMetadataUrl"`
	Scopes       *string         `json:"scopes"`
}

// settings checks the object's values and turns them into OAuth.
func (o *claudeOAuth) settings() (OAuth, error) {
	var s OAuth
	if o == nil {
		return s, nil
	}
	if o.ClientID != nil {
		if s.ClientID = strings.TrimSpace(*o.ClientID); s.ClientID == "" {
			return s, fmt.Errorf("oauth.clientId is empty; give the client id registered with the authorization server, or leave it out for tack to register itself")
		}
	}
	if o.CallbackPort != nil {
		port, err := strconv.Atoi(string(o.CallbackPort))
		if err != nil || port < 1 || port > 65535 {
			return s, fmt.Errorf("oauth.callbackPort should be a port number from 1 to 65535, not %s", o.CallbackPort)
		}
		s.CallbackPort = port
	}
	if o.MetadataURL != nil {
		if s.MetadataURL = strings.TrimSpace(*o.MetadataURL); !strings.HasPrefix(s.MetadataURL, "https://") {
			return s, fmt.Errorf("oauth.authServerMetadataUrl %q is not an https:// address; metadata that tells tack where to send your sign-in must come over https", s.MetadataURL)
		}
	}
	if o.Scopes != nil {
		if s.Scopes = strings.Fields(*o.Scopes); len(s.Scopes) == 0 {
			return s, fmt.Errorf(`oauth.scopes is empty; give the scopes to ask for separated by spaces ("read write"), or leave it out to ask for those the server advertises`)
		}
	}
	return s, nil
}
