package claudemsg

import (
	"encoding/json"
	"time"

	"github.com/tack-agent/tack/backend/card"
)

// webFetchOutput is WebFetch's WebFetchOutput: the URL asked for, the
// size of what was downloaded, and as the result the text the model read
// (tack's web_fetch gives the page itself, where Claude Code's gives a
// model's answer to the call's prompt about it). A page tack fetched
// answered 200 OK: its own fetcher takes no other status, and the search
// service's reader gives only pages it read.
func webFetchOutput(input json.RawMessage, text string, c *card.Card, ms int64) any {
	if c.Fetched == nil {
		return nil
	}
	var in struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(input, &in)
	return pageFetched{Bytes: c.Fetched.Bytes, Code: 200, CodeText: "OK", Result: text, DurationMs: ms, URL: in.URL}
}

type pageFetched struct {
	Bytes      int    `json:"bytes"`
	Code       int    `json:"code"`
	CodeText   string `json:"codeText"`
	Result     string `json:"result"`
	DurationMs int64  `json:"durationMs"`
	URL        string `json:"url"`
}

// webSearchOutput is WebSearch's WebSearchOutput: the query, and the pages
// found as one search's hits. Claude Code names the search by the id of
// the server tool use that made it; tack's search is the call itself, so
// it is named by the call's id.
func webSearchOutput(callID string, input json.RawMessage, c *card.Card, took time.Duration) any {
	if c.Found == nil {
		return nil
	}
	var in struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal(input, &in)
	hits := make([]searchHit, len(c.Found.Pages))
	for i, p := range c.Found.Pages {
		hits[i] = searchHit(p)
	}
	return searched{Query: in.Query, Results: []searchResults{{ToolUseID: callID, Content: hits}},
		DurationSeconds: took.Seconds(), SearchCount: 1}
}

type searched struct {
	Query           string          `json:"query"`
	Results         []searchResults `json:"results"`
	DurationSeconds float64         `json:"durationSeconds"`
	SearchCount     int             `json:"searchCount"`
}

type searchResults struct {
	ToolUseID string      `json:"tool_use_id"`
	Content   []searchHit `json:"content"`
}

type searchHit struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}
