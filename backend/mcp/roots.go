// The roots feature is deprecated as of MCP 2026-07-28 (SEP-2577) but
// works through its deprecation window, and the servers users run today,
// the filesystem server first, narrow what they touch to the roots their
// client names: without them they refuse every path.
//
//lint:file-ignore SA1019 roots are how today's servers learn the workspace (SEP-2577 keeps them working)

package mcp

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// roots are the directories the servers are told they may work in when
// they ask (roots/list): the session's own and those added to it. Servers
// that read them, as the filesystem server does, narrow what they touch to
// exactly these, so an empty answer leaves such a server with nothing.
type roots struct {
	mu      sync.Mutex
	dirs    []string
	clients map[*sdk.Client]bool
}

// join gives client the roots now and every one added later (the SDK
// tells its server with notifications/roots/list_changed), until leave.
func (r *roots) join(client *sdk.Client) (leave func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.dirs {
		client.AddRoots(root(d))
	}
	if r.clients == nil {
		r.clients = map[*sdk.Client]bool{}
	}
	r.clients[client] = true
	return func() {
		r.mu.Lock()
		delete(r.clients, client)
		r.mu.Unlock()
	}
}

// add makes dir a root of every server, running and to come; a directory
// that is one already is left alone.
func (r *roots) add(dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.dirs, dir) {
		return
	}
	r.dirs = append(r.dirs, dir)
	for c := range r.clients {
		c.AddRoots(root(dir))
	}
}

// root is dir as the protocol names a root: a file:// URI, with the
// directory's base name for people.
func root(dir string) *sdk.Root {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/work → file:///C:/work
	}
	return &sdk.Root{URI: (&url.URL{Scheme: "file", Path: p}).String(), Name: filepath.Base(dir)}
}
