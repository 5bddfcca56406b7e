package web

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Limits of web_fetch.
const (
	defaultMaxChars = 20_000
	maxMaxChars     = 40_000
)

// Fetch is the web_fetch tool.
type Fetch struct {
	cfg   Config
	cache *pageCache
}

type fetchArgs struct {
	URL      string `json:"url"`
	MaxChars *int   `json:"max_chars"`
	Start    *int   `json:"start"`
	// Offset is start as Claude Code's WebFetch names it. Its prompt,
	// which there a small model answers from the page, is taken and let
	// be: the model reads the page itself.
	Offset *int   `json:"offset"`
	Prompt string `json:"prompt"`
}

// fetchSchema is the JSON schema of web_fetch's arguments, from fetch.schema.json.
var fetchSchema = tools.SchemaFile(specFiles, "fetch.schema.json")

// fetchProse is what the model is told about the tool, from fetch.md.
var fetchProse = tools.ProseFile(specFiles, "fetch.md",
	"{{default_chars}}", strconv.Itoa(defaultMaxChars),
	"{{max_chars}}", strconv.Itoa(maxMaxChars),
	"{{max_mb}}", strconv.Itoa(MaxPageBytes>>20))

// Spec describes web_fetch to the model.
func (*Fetch) Spec() tools.Spec {
	return tools.Spec{
		Name:         "web_fetch",
		Description:  fetchProse().Description,
		Schema:       fetchSchema(),
		Guidance:     fetchProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessNetwork,
	}
}

// Scope is the domain a fetch reaches: an approval for the session covers
// that domain only.
func (*Fetch) Scope(raw json.RawMessage) string {
	var a fetchArgs
	_ = json.Unmarshal(raw, &a)
	u, err := url.Parse(strings.TrimSpace(a.URL))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Present is the card before the result: the URL.
func (*Fetch) Present(raw json.RawMessage) card.Card {
	var a fetchArgs
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Read, Title: "Fetch " + strings.TrimSpace(a.URL), Label: "Fetch", Subject: strings.TrimSpace(a.URL)}
}

// Run fetches the page, or takes it from the cache for a later window,
// and returns one window of it.
func (f *Fetch) Run(ctx context.Context, call tools.Call) tools.Result {
	var a fetchArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	maxChars, start := defaultMaxChars, 0
	if a.MaxChars != nil {
		if *a.MaxChars < 1 || *a.MaxChars > maxMaxChars {
			return tools.InvalidArgs("max_chars must be between 1 and %d", maxMaxChars)
		}
		maxChars = *a.MaxChars
	}
	if a.Start != nil && a.Offset != nil && *a.Start != *a.Offset {
		return tools.InvalidArgs("give start or offset, not both (they are the same position)")
	}
	if from := cmp.Or(a.Start, a.Offset); from != nil {
		if *from < 0 {
			return tools.InvalidArgs("start must be 0 or more")
		}
		start = *from
	}
	u, err := checkURL(a.URL)
	if err != nil {
		return failure("web_fetch", err)
	}
	if d := blocked(u.Hostname(), f.cfg.Deny); d != "" {
		return tools.Errorf("web_fetch: %s is blocked: the domain %s is in [web] deny_domains of the user's config; "+
			"do not try to reach it another way, find another source or ask the user", u.Hostname(), d)
	}
	page, err := f.page(ctx, u)
	if err != nil {
		return failure("web_fetch", err)
	}
	if pu, err := url.Parse(page.URL); err == nil && pu.Hostname() != u.Hostname() {
		if d := blocked(pu.Hostname(), f.cfg.Deny); d != "" {
			return tools.Errorf("web_fetch: %s led to %s, whose domain %s is in [web] deny_domains; find another source", u, pu.Hostname(), d)
		}
	}
	return windowResult(page, start, maxChars)
}

func (f *Fetch) page(ctx context.Context, u *url.URL) (Page, error) {
	key := u.String()
	if p, ok := f.cache.get(key); ok {
		return p, nil
	}
	fetcher := f.cfg.Fetch
	if f.cfg.Local != nil && privateHost(u.Hostname()) {
		fetcher = f.cfg.Local
	}
	p, err := fetcher.Fetch(ctx, key)
	if err != nil {
		return Page{}, err
	}
	f.cache.put(key, p)
	return p, nil
}

// windowResult is one window of a page: what the model reads, with the
// offset to continue from, and the card with the page's title and size.
func windowResult(p Page, start, maxChars int) tools.Result {
	total := utf8.RuneCountInString(p.Markdown)
	if start > total || (start == total && total > 0) {
		return tools.InvalidArgs("start %d is past the end of the page (%d characters)", start, total)
	}
	text, end := window(p.Markdown, start, maxChars)
	var b strings.Builder
	fmt.Fprintf(&b, "Fetched %s", p.URL)
	if p.Title != "" {
		fmt.Fprintf(&b, " (title: %q)", oneLine(p.Title))
	}
	b.WriteString(".\n")
	b.WriteString(untrusted(p.URL, text))
	switch {
	case total == 0:
		b.WriteString("\n(The page has no readable text.)")
	case end < total:
		fmt.Fprintf(&b, "\n(Showing characters %d-%d of %d. Use start=%d to continue.)", start, end, total, end)
	case start > 0:
		fmt.Fprintf(&b, "\n(Showing characters %d-%d of %d, the end of the page.)", start, end, total)
	}
	return tools.Result{Text: b.String(), Card: fetchCard(p, text, start, end, total)}
}

func fetchCard(p Page, text string, start, end, total int) *card.Card {
	title := "Fetch " + p.URL
	if p.Title != "" {
		title += " — " + oneLine(p.Title)
	}
	size := p.Bytes
	if size == 0 {
		size = len(p.Markdown)
	}
	title += " (" + card.Size(size)
	if start > 0 || end < total {
		title += fmt.Sprintf(", characters %d-%d of %d", start, end, total)
	}
	title += ")"
	summary := "Fetched " + card.Size(size)
	if p.Title != "" {
		summary += " · " + oneLine(p.Title)
	}
	return &card.Card{Kind: card.Read, Title: title, Label: "Fetch", Subject: p.URL, Summary: summary,
		Body: text, Truncated: start > 0 || end < total, Fetched: &card.Fetched{Bytes: size}}
}

// window cuts at most maxChars runes of s from rune offset start, ending at
// a line break when one falls in the last fifth, and returns the window and
// the rune offset where it ended.
func window(s string, start, maxChars int) (string, int) {
	i := byteOffset(s, start)
	rest := s[i:]
	if utf8.RuneCountInString(rest) <= maxChars {
		return rest, start + utf8.RuneCountInString(rest)
	}
	cut := byteOffset(rest, maxChars)
	if nl := strings.LastIndexByte(rest[:cut], '\n'); nl >= 0 && utf8.RuneCountInString(rest[:nl+1]) >= maxChars*4/5 {
		cut = nl + 1
	}
	return rest[:cut], start + utf8.RuneCountInString(rest[:cut])
}

// byteOffset is the byte index of rune n of s (len(s) past the end).
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// pageCache keeps recently fetched pages so later windows of a long page
// are not fetched again. Entries expire after pageTTL; at most pageCacheSize
// are kept.
type pageCache struct {
	now   func() time.Time
	mu    sync.Mutex
	pages map[string]cachedPage
}

type cachedPage struct {
	page Page
	at   time.Time
}

const (
	pageTTL       = 15 * time.Minute
	pageCacheSize = 16
)

func newPageCache(now func() time.Time) *pageCache {
	return &pageCache{now: now, pages: map[string]cachedPage{}}
}

func (c *pageCache) get(key string) (Page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok || c.now().Sub(e.at) > pageTTL {
		return Page{}, false
	}
	return e.page, true
}

func (c *pageCache) put(key string, p Page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pages) >= pageCacheSize {
		oldest := ""
		for k, e := range c.pages {
			if oldest == "" || e.at.Before(c.pages[oldest].at) {
				oldest = k
			}
		}
		delete(c.pages, oldest)
	}
	c.pages[key] = cachedPage{page: p, at: c.now()}
}
