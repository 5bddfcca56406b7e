package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Limits of web_search.
const (
	maxQueryRunes    = 128
	defaultCount     = 10
	maxCount         = 50
	maxResultContent = 4000 // runes of one result's page content
)

// Search is the web_search tool.
type Search struct {
	searcher Searcher
	// deny are the domains of [web] deny_domains, left out of results.
	deny []string
}

type searchArgs struct {
	Query       string `json:"query"`
	Count       *int   `json:"count"`
	NeedContent bool   `json:"need_content"`
	// AllowedDomains and BlockedDomains are Claude Code's WebSearch's:
	// results only from the first, never from the second.
	AllowedDomains []string `json:"allowed_domains"`
	BlockedDomains []string `json:"blocked_domains"`
}

// searchSchema is the JSON schema of web_search's arguments, from search.schema.json.
var searchSchema = tools.SchemaFile(specFiles, "search.schema.json")

// searchProse is what the model is told about the tool, from search.md.
var searchProse = tools.ProseFile(specFiles, "search.md",
	"{{max_query}}", strconv.Itoa(maxQueryRunes),
	"{{max_results}}", strconv.Itoa(maxCount),
	"{{default_results}}", strconv.Itoa(defaultCount))

// Spec describes web_search to the model.
func (*Search) Spec() tools.Spec {
	return tools.Spec{
		Name:         "web_search",
		Description:  searchProse().Description,
		Schema:       searchSchema(),
		Guidance:     searchProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessWebSearch,
	}
}

// Present is the card before the result: the query.
func (*Search) Present(raw json.RawMessage) card.Card {
	var a searchArgs
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Search, Title: searchTitle(a.Query), Label: "Web search", Subject: a.Query}
}

func searchTitle(q string) string { return fmt.Sprintf("Search %q", q) }

// Run searches and lists the results for the model.
func (s *Search) Run(ctx context.Context, call tools.Call) tools.Result {
	var a searchArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	a.Query = strings.TrimSpace(a.Query)
	if n := utf8.RuneCountInString(a.Query); n == 0 || n > maxQueryRunes {
		return tools.InvalidArgs("query must be 1-%d characters, got %d; shorten it to the key terms", maxQueryRunes, n)
	}
	count := defaultCount
	if a.Count != nil {
		if *a.Count < 1 || *a.Count > maxCount {
			return tools.InvalidArgs("count must be between 1 and %d", maxCount)
		}
		count = *a.Count
	}
	results, err := s.searcher.Search(ctx, Query{Query: withSites(a), Count: count, NeedContent: a.NeedContent})
	if err != nil {
		return failure("web_search", err)
	}
	results = slices.DeleteFunc(results, func(r Result) bool {
		u, err := url.Parse(r.URL)
		if err != nil {
			return true
		}
		host := u.Hostname()
		return blocked(host, s.deny) != "" || blocked(host, a.BlockedDomains) != "" ||
			len(a.AllowedDomains) > 0 && blocked(host, a.AllowedDomains) == ""
	})
	return tools.Result{Text: searchText(a.Query, results), Card: searchCard(a.Query, results)}
}

// withSites is the query with the domain filters as the search service's
// site: and -site: operators, those that fit in its length, so that it
// returns results the filters keep: a single allowed domain, and the
// blocked ones. The results are filtered all the same.
func withSites(a searchArgs) string {
	q := a.Query
	var ops []string
	if len(a.AllowedDomains) == 1 {
		ops = append(ops, "site:"+a.AllowedDomains[0])
	}
	for _, d := range a.BlockedDomains {
		ops = append(ops, "-site:"+d)
	}
	for _, op := range ops {
		if utf8.RuneCountInString(q)+1+utf8.RuneCountInString(op) <= maxQueryRunes {
			q += " " + op
		}
	}
	return q
}

// failure is the error result of a failed web call.
func failure(tool string, err error) tools.Result {
	var we *Error
	if errors.As(err, &we) {
		return tools.Errorf("%s: %s", tool, we.Message)
	}
	return tools.Errorf("%s failed: %v", tool, err)
}

// searchText is what the model reads: the results, numbered, inside an
// untrusted-content envelope.
func searchText(query string, rs []Result) string {
	if len(rs) == 0 {
		return fmt.Sprintf("No results for %q. Try other words, fewer operators, or a broader query.", query)
	}
	var b strings.Builder
	for i, r := range rs {
		fmt.Fprintf(&b, "%d. %s\n   URL: %s\n", i+1, oneLine(r.Title), r.URL)
		var meta []string
		if r.Site != "" {
			meta = append(meta, "Site: "+oneLine(r.Site))
		}
		if r.Date != "" {
			meta = append(meta, "Date: "+r.Date)
		}
		if len(meta) > 0 {
			fmt.Fprintf(&b, "   %s\n", strings.Join(meta, " · "))
		}
		if text := firstNonEmpty(r.Summary, r.Snippet); text != "" {
			fmt.Fprintf(&b, "   %s\n", indent(strings.TrimSpace(text)))
		}
		if r.Content != "" {
			content, cut := cutRunes(strings.TrimSpace(r.Content), maxResultContent)
			fmt.Fprintf(&b, "   Content:\n   %s\n", indent(content))
			if cut {
				b.WriteString("   (content cut at 4000 characters; read the page with web_fetch for the rest)\n")
			}
		}
	}
	header := fmt.Sprintf("%d results for %q.", len(rs), query)
	return header + "\n" + untrusted("web search results", strings.TrimRight(b.String(), "\n"))
}

// searchCard lists the results by title and URL.
func searchCard(query string, rs []Result) *card.Card {
	lines := make([]string, len(rs))
	found := &card.Found{Total: len(rs), Pages: make([]card.Page, len(rs))}
	for i, r := range rs {
		lines[i] = oneLine(r.Title) + " — " + r.URL
		found.Pages[i] = card.Page{Title: oneLine(r.Title), URL: r.URL}
	}
	noun := "results"
	if len(rs) == 1 {
		noun = "result"
	}
	return &card.Card{Kind: card.Search, Title: fmt.Sprintf("%s — %d %s", searchTitle(query), len(rs), noun),
		Label: "Web search", Subject: query, Summary: fmt.Sprintf("%d %s", len(rs), noun), Body: strings.Join(lines, "\n"),
		Found: found}
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n   ") }

// cutRunes cuts s to at most n runes and reports whether it cut.
func cutRunes(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	return string([]rune(s)[:n]), true
}
