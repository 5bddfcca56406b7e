package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// DeepSeek's Search and Fetch APIs (POST /v1/tools/search, POST
// /v1/tools/fetch), scripted apart from the chat script: each request takes
// the next WebReply pushed for its endpoint. Requests are validated against
// the limits the API documents (a bearer key, a query of 1-128 characters,
// count 1-50, an http or https URL of at most 8192 characters without
// credentials); a violating request is recorded and answered 400.

// Web endpoint paths.
const (
	SearchPath = "/v1/tools/search"
	FetchPath  = "/v1/tools/fetch"
)

// WebReply is one scripted answer of the Search or Fetch API.
type WebReply struct {
	Status int // 200 when zero
	Header http.Header
	Body   string
}

// SearchResult is one result of a scripted search.
type SearchResult struct {
	Title    string  `json:"title"`
	URL      string  `json:"url"`
	Snippet  string  `json:"snippet"`
	Summary  string  `json:"summary"`
	Content  string  `json:"content"`
	Score    float64 `json:"rerank_score"`
	Date     string  `json:"date"`
	SiteName string  `json:"site_name"`
}

// SearchReply answers a search with results.
func SearchReply(results ...SearchResult) WebReply {
	if results == nil {
		results = []SearchResult{}
	}
	b, _ := json.Marshal(map[string]any{"results": results})
	return WebReply{Body: string(b)}
}

// FetchReply answers a fetch with a page's title and Markdown content.
func FetchReply(title, content string) WebReply {
	b, _ := json.Marshal(map[string]string{"title": title, "content": content})
	return WebReply{Body: string(b)}
}

// WebError answers with status and a DeepSeek error body carrying message,
// e.g. WebError(404, "failed to fetch URL").
func WebError(status int, message string) WebReply {
	return WebReply{Status: status, Body: HTTPError(status, message).Body}
}

// WithHeader returns r with a response header added.
func (r WebReply) WithHeader(key, value string) WebReply {
	r.Header = withHeader(r.Header, key, value)
	return r
}

// WebRequest is one request received by a web endpoint.
type WebRequest struct {
	Path          string
	Authorization string
	Body          map[string]any
}

// webScript is the pending replies and received requests of the web
// endpoints; Server.mu guards it.
type webScript struct {
	replies  map[string][]WebReply
	requests []WebRequest
}

// PushSearch appends replies for the Search API.
func (s *Server) PushSearch(rs ...WebReply) { s.pushWeb(SearchPath, rs) }

// PushFetch appends replies for the Fetch API.
func (s *Server) PushFetch(rs ...WebReply) { s.pushWeb(FetchPath, rs) }

func (s *Server) pushWeb(path string, rs []WebReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.web.replies == nil {
		s.web.replies = map[string][]WebReply{}
	}
	s.web.replies[path] = append(s.web.replies[path], rs...)
}

// WebRequests returns every Search and Fetch request received so far.
func (s *Server) WebRequests() []WebRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]WebRequest(nil), s.web.requests...)
}

// WebRemaining is how many scripted web replies have not been served.
func (s *Server) WebRemaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, rs := range s.web.replies {
		n += len(rs)
	}
	return n
}

// serveWeb answers a Search or Fetch request and reports whether r was one.
func (s *Server) serveWeb(w http.ResponseWriter, r *http.Request) bool {
	var path string
	switch {
	case strings.HasSuffix(r.URL.Path, SearchPath):
		path = SearchPath
	case strings.HasSuffix(r.URL.Path, FetchPath):
		path = FetchPath
	default:
		return false
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return true
	}
	reply := s.admitWeb(path, raw, r.Header)
	for k, vs := range reply.Header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	if reply.Status == 0 {
		reply.Status = http.StatusOK
	}
	w.WriteHeader(reply.Status)
	io.WriteString(w, Response{Body: reply.Body}.echo(r.Header).Body)
	return true
}

func (s *Server) admitWeb(path string, raw []byte, h http.Header) WebReply {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := WebRequest{Path: path, Authorization: h.Get("Authorization")}
	problems := webProblems(path, raw, h, &req)
	s.web.requests = append(s.web.requests, req)
	if len(problems) == 0 && len(s.web.replies[path]) == 0 {
		problems = append(problems, "the "+path+" script has run out")
	}
	if len(problems) > 0 {
		for _, p := range problems {
			s.violations = append(s.violations, fmt.Sprintf("%s request %d: %s", path, len(s.web.requests), p))
		}
		return WebError(http.StatusBadRequest, "llmtest: "+strings.Join(problems, "; "))
	}
	reply := s.web.replies[path][0]
	s.web.replies[path] = s.web.replies[path][1:]
	return reply
}

// webProblems checks a request against the API's documented limits and
// decodes its body into req.
func webProblems(path string, raw []byte, h http.Header, req *WebRequest) []string {
	var problems []string
	if !strings.HasPrefix(h.Get("Authorization"), "Bearer ") {
		problems = append(problems, "no bearer API key")
	}
	if !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		problems = append(problems, "Content-Type is not application/json")
	}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		return append(problems, "body is not a JSON object: "+err.Error())
	}
	if path == SearchPath {
		return append(problems, searchProblems(req.Body)...)
	}
	return append(problems, fetchProblems(req.Body)...)
}

func searchProblems(b map[string]any) []string {
	var problems []string
	q, _ := b["query"].(string)
	if n := utf8.RuneCountInString(q); n < 1 || n > 128 || strings.TrimSpace(q) == "" {
		problems = append(problems, fmt.Sprintf("query must be 1-128 characters, not all blank (got %d)", n))
	}
	if c, ok := b["count"]; ok {
		if f, isNum := c.(float64); !isNum || f < 1 || f > 50 || f != float64(int(f)) {
			problems = append(problems, fmt.Sprintf("count must be an integer 1-50 (got %v)", c))
		}
	}
	if v, ok := b["need_content"]; ok {
		if _, isBool := v.(bool); !isBool {
			problems = append(problems, "need_content must be a boolean")
		}
	}
	return problems
}

func fetchProblems(b map[string]any) []string {
	raw, _ := b["url"].(string)
	if raw == "" || utf8.RuneCountInString(raw) > 8192 {
		return []string{"url must be 1-8192 characters"}
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return []string{"url must be an http or https URL with a host, got " + raw}
	case u.User != nil:
		return []string{"url must not carry a username or password"}
	}
	return nil
}
