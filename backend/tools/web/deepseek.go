package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/llm"
)

// DeepSeek calls DeepSeek's Search API (POST {base}/v1/tools/search) and
// Fetch API (POST {base}/v1/tools/fetch) with the account's API key. Rate
// limits, server errors and broken connections are retried as model calls
// are: Retry's backoff, a Retry-After the server sends.
type DeepSeek struct {
	// BaseURL is the DeepSeek API base, e.g. https://api.deepseek.com; a
	// trailing /v1 is tolerated.
	BaseURL string
	APIKey  string
	// HTTP sends the requests; http.DefaultClient when nil.
	HTTP    *http.Client
	Retry   llm.RetryPolicy
	Version string
	// Sleep waits between retries; tests make it instant.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
}

// Per-attempt timeouts: a search answers in about a second; a fetch can
// take several while DeepSeek reads the page.
const (
	searchTimeout = 30 * time.Second
	fetchTimeout  = 60 * time.Second
)

type wireResult struct {
	Title    string `json:"title"`
	URL      string `json:"url"`
	Snippet  string `json:"snippet"`
	Summary  string `json:"summary"`
	Content  string `json:"content"`
	Date     string `json:"date"`
	SiteName string `json:"site_name"`
}

// Search runs q on the Search API.
func (d *DeepSeek) Search(ctx context.Context, q Query) ([]Result, error) {
	body := map[string]any{"query": q.Query}
	if q.Count > 0 {
		body["count"] = q.Count
	}
	if q.NeedContent {
		body["need_content"] = true
	}
	var out struct {
		Results []wireResult `json:"results"`
	}
	if err := d.post(ctx, "/v1/tools/search", body, searchTimeout, &out); err != nil {
		return nil, err
	}
	rs := make([]Result, len(out.Results))
	for i, r := range out.Results {
		rs[i] = Result{Title: r.Title, URL: r.URL, Date: r.Date, Site: r.SiteName, Snippet: r.Snippet, Summary: r.Summary, Content: r.Content}
	}
	return rs, nil
}

// Fetch reads a page through the Fetch API, which answers Markdown.
func (d *DeepSeek) Fetch(ctx context.Context, rawURL string) (Page, error) {
	var out struct {
		Title   string `json:"title"`
		Content string `json:"content"`
	}
	if err := d.post(ctx, "/v1/tools/fetch", map[string]string{"url": rawURL}, fetchTimeout, &out); err != nil {
		return Page{}, err
	}
	return Page{URL: rawURL, Title: out.Title, Markdown: out.Content}, nil
}

// post sends one API call, retrying what the policy retries.
func (d *DeepSeek) post(ctx context.Context, path string, body any, timeout time.Duration, out any) error {
	payload, err := json.Marshal(body)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		le := d.attempt(ctx, path, payload, timeout, out)
		if le == nil {
			return nil
		}
		if ctx.Err() != nil {
			return errorf("the request was cancelled")
		}
		delay, ok := d.Retry.Delay(attempt, le)
		if !ok {
			if le.Retryable() && d.Retry.Max > 0 {
				le = d.Retry.Exhausted(le)
			}
			return &Error{Message: le.Message, Status: le.Status}
		}
		if err := d.sleep(ctx, delay); err != nil {
			return errorf("the request was cancelled")
		}
	}
}

func (d *DeepSeek) sleep(ctx context.Context, delay time.Duration) error {
	if d.Sleep != nil {
		return d.Sleep(ctx, delay)
	}
	return llm.Wait(ctx, delay)
}

// attempt makes one HTTP exchange and classifies its failure as a model
// call's would be, so the retry policy applies unchanged. The failure
// reaches the model and the session log, so the key is redacted from it.
func (d *DeepSeek) attempt(ctx context.Context, path string, payload []byte, timeout time.Duration, out any) *llm.Error {
	return llm.NewRedactor(d.APIKey, d.BaseURL).Error(d.exchange(ctx, path, payload, timeout, out))
}

func (d *DeepSeek) exchange(ctx context.Context, path string, payload []byte, timeout time.Duration, out any) *llm.Error {
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	base := strings.TrimSuffix(strings.TrimRight(d.BaseURL, "/"), "/v1")
	req, err := http.NewRequestWithContext(actx, http.MethodPost, base+path, bytes.NewReader(payload))
	if err != nil {
		return &llm.Error{Kind: llm.ErrInvalidRequest, Message: fmt.Sprintf("the DeepSeek base URL %q is not usable: %v; check DEEPSEEK_BASE_URL", d.BaseURL, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+d.APIKey)
	req.Header.Set("User-Agent", "tack/"+d.Version)
	hc := d.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		msg := fmt.Sprintf("could not reach DeepSeek's %s API (%v); tack retries automatically, or check the network", apiName(path), err)
		if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			msg = fmt.Sprintf("DeepSeek's %s API did not answer within %s; tack retries automatically, or try again later", apiName(path), timeout)
		}
		return &llm.Error{Kind: llm.ErrTransport, Message: msg, Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return d.statusError(path, resp)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 32<<20)).Decode(out); err != nil {
		return &llm.Error{Kind: llm.ErrMalformed, Message: fmt.Sprintf("DeepSeek's %s API sent an answer tack cannot read (%v)", apiName(path), err)}
	}
	return nil
}

func apiName(path string) string {
	if strings.HasSuffix(path, "fetch") {
		return "Fetch"
	}
	return "Search"
}

// statusError explains a non-200 answer in words the model can act on.
func (d *DeepSeek) statusError(path string, resp *http.Response) *llm.Error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	detail := serverMessage(raw, resp.Status)
	api := apiName(path)
	e := &llm.Error{Status: resp.StatusCode, Message: detail}
	switch code := resp.StatusCode; {
	case code == http.StatusPaymentRequired:
		e.Kind = llm.ErrQuota
		e.Message = "the DeepSeek account's balance is used up (402 Insufficient Balance), so web tools cannot run; " +
			"do not retry: tell the user to top up at platform.deepseek.com, and go on without the web"
	case code == http.StatusNotFound && api == "Fetch":
		e.Kind = llm.ErrInvalidRequest
		e.Message = "failed to fetch URL: the page could not be read (it may not exist, need a login, or refuse crawlers); " +
			"check the address, or find another source with web_search"
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = llm.ErrAuth
		e.Message = fmt.Sprintf("DeepSeek refused the API key (HTTP %d: %s); the user should check DEEPSEEK_API_KEY", code, detail)
	case code == http.StatusTooManyRequests:
		e.Kind = llm.ErrRateLimit
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), d.now())
		e.Message = fmt.Sprintf("DeepSeek's %s API is rate limited (429: %s); tack retries automatically, or wait a minute", api, detail)
	case code >= 500:
		e.Kind = llm.ErrServer
		e.Message = fmt.Sprintf("DeepSeek's %s API failed (HTTP %d: %s); tack retries automatically, or try again later", api, code, detail)
	default:
		e.Kind = llm.ErrInvalidRequest
		e.Message = fmt.Sprintf("DeepSeek's %s API refused the request (HTTP %d: %s); fix the arguments and try again", api, code, detail)
	}
	return e
}

func (d *DeepSeek) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// serverMessage is the message of an error body, {"error":{"message"}} or
// {"message"}, else the status line.
func serverMessage(raw []byte, status string) string {
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &body) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
		var s string
		if json.Unmarshal(body.Error, &s) == nil && s != "" {
			return s
		}
		if body.Message != "" {
			return body.Message
		}
	}
	if t := strings.TrimSpace(string(raw)); t != "" && len(t) < 200 && !strings.ContainsAny(t, "<{") {
		return t
	}
	return status
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
