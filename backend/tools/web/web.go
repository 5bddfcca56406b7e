// Package web holds the tools that reach the web: web_search, through a
// search backend (DeepSeek's Search API), and web_fetch, through DeepSeek's
// Fetch API or a local HTTP client that turns HTML into Markdown. What they
// bring back is untrusted: the model reads it inside marked envelopes, and
// cards carry it as text the front doors sanitise.
package web

import (
	"context"
	"embed"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the package's tools: their
// prose (tools.ProseFile) and the schemas of their arguments
// (tools.SchemaFile).
//
//go:embed search.md search.schema.json fetch.md fetch.schema.json
var specFiles embed.FS

// Page is a fetched page, converted to Markdown.
type Page struct {
	// URL is where the page was read, after redirects.
	URL      string
	Title    string
	Markdown string
	// Bytes is the size of what was downloaded; 0 when a service fetched it.
	Bytes int
}

// Fetcher reads one page.
type Fetcher interface {
	Fetch(ctx context.Context, rawURL string) (Page, error)
}

// Query is one search.
type Query struct {
	Query       string
	Count       int
	NeedContent bool
}

// Result is one ranked search result.
type Result struct {
	Title   string
	URL     string
	Date    string
	Site    string
	Snippet string
	Summary string
	Content string
}

// Searcher runs searches.
type Searcher interface {
	Search(ctx context.Context, q Query) ([]Result, error)
}

// Config selects the backends of the web tools.
type Config struct {
	// Search runs web_search; nil leaves web_search out of the tool set.
	Search Searcher
	// Fetch reads pages; required.
	Fetch Fetcher
	// Local reads the pages Fetch cannot reach (localhost and private
	// networks, which a remote service cannot see); nil means Fetch reads
	// every page.
	Local Fetcher
	// Deny lists blocked domains; a domain blocks its subdomains too.
	Deny []string
	// Now is the clock of the page cache; time.Now when nil.
	Now func() time.Time
}

// New makes the web tools of one session: web_search when a search backend
// is configured, then web_fetch.
func New(cfg Config) []tools.Tool {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	var out []tools.Tool
	if cfg.Search != nil {
		out = append(out, &Search{searcher: cfg.Search, deny: cfg.Deny})
	}
	return append(out, &Fetch{cfg: cfg, cache: newPageCache(cfg.Now)})
}

// blocked reports the entry of deny that covers host, or "".
func blocked(host string, deny []string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	i := slices.IndexFunc(deny, func(d string) bool {
		d = strings.ToLower(strings.Trim(strings.TrimSpace(d), "."))
		return d != "" && (host == d || strings.HasSuffix(host, "."+d))
	})
	if i < 0 {
		return ""
	}
	return deny[i]
}

// privateHost reports whether host is one a remote fetch service cannot
// reach: localhost, a loopback, private or link-local address, or a .local
// or .internal name.
func privateHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") ||
		strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".internal") {
		return true
	}
	ip := parseIP(host)
	return ip.IsValid() && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
}

// checkURL parses a URL the model gave, refusing what web_fetch never reads.
func checkURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return nil, errorf("url is empty; pass the full address, e.g. https://example.com/page")
	case err != nil:
		return nil, errorf("%q is not a URL: %v", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errorf("web_fetch reads http and https URLs only, got %q; for local files use read", raw)
	case u.Host == "":
		return nil, errorf("%q has no host; pass the full address, e.g. https://example.com/page", raw)
	case u.User != nil:
		return nil, errorf("the URL carries a username or password; web_fetch does not send credentials, pass the address without them")
	case len(raw) > 8192:
		return nil, errorf("the URL is longer than 8192 characters")
	}
	return u, nil
}
