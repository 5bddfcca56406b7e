package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// wireError is a provider error object: {"message","type","code"}, or the
// bare string some compatible servers send instead.
type wireError struct {
	Message string
	Type    string
	Code    string
}

func (e *wireError) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		e.Message = s
		return nil
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	e.Message, e.Type = obj.Message, obj.Type
	if obj.Code != nil {
		e.Code = fmt.Sprint(obj.Code)
	}
	return nil
}

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// statusError classifies a non-200 response. keyEnv names where the API key
// comes from and keySent says whether one was sent, so an auth failure says
// what to fix.
func statusError(resp *http.Response, now time.Time, keyEnv string, keySent bool) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	detail := errorDetail(body, resp.Status)
	e := &Error{
		Status:    resp.StatusCode,
		RequestID: requestID(resp.Header),
	}
	switch code := resp.StatusCode; {
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && !keySent:
		e.Kind = ErrAuth
		e.Message = fmt.Sprintf("the provider wants an API key and none is set; set %s or add one to $TACK_HOME/credentials (%s)", keyEnv, detail.Message)
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Kind = ErrAuth
		e.Message = fmt.Sprintf("the API key was rejected; check %s or $TACK_HOME/credentials (%s)", keyEnv, detail.Message)
	case code == http.StatusPaymentRequired || code == http.StatusTooManyRequests && isQuota(detail):
		e.Kind = ErrQuota
		e.Message = fmt.Sprintf("the account has insufficient balance; top up at the provider or switch model with /model or --model (%s)", detail.Message)
	case code == http.StatusTooManyRequests:
		e.Kind = ErrRateLimit
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), now)
		e.Message = fmt.Sprintf("the provider is rate-limiting requests; %swait a minute and try again (%s)", autoRetry, detail.Message)
	case code == http.StatusBadRequest && strings.Contains(detail.Message, "reasoning_content"):
		// tack passes reasoning back, and pads what a step run with
		// thinking off left without it; this refusal means it failed to.
		e.Kind = ErrInvalidRequest
		e.Message = "the provider refused the conversation because an earlier step's reasoning was not passed back to it, " +
			"which is a fault in tack (please report it, with the session log); to carry on now, turn thinking off with " +
			"/model off (--effort off outside the full screen) or start a new session with /new (" + detail.Message + ")"
	case code == http.StatusBadRequest && outputBound(detail.Message) > 0:
		// vLLM counts the output bound against the window: the prompt fits
		// and a smaller bound would do (vllm#20409).
		e.Kind = ErrInvalidRequest
		e.MaxOutput = outputBound(detail.Message)
		e.Message = fmt.Sprintf("the server's context window holds the prompt but not the output bound tack asked for; "+
			"tack asks again with at most %d output tokens, or set max_output for this model in config.toml's [[models]] (%s)", e.MaxOutput, detail.Message)
	case code == http.StatusBadRequest && isOverflow(detail):
		e.Kind = ErrContextOverflow
		e.Message = fmt.Sprintf("the conversation no longer fits the model's context window; run /compact or start a new session (%s)", detail.Message)
	case code == http.StatusNotFound:
		e.Kind = ErrInvalidRequest
		e.Message = fmt.Sprintf("the provider has no such endpoint or model at %s; check the base URL (DEEPSEEK_BASE_URL or OPENAI_BASE_URL) and the model name (%s)", requestURL(resp), detail.Message)
	case code >= 500:
		e.Kind = ErrServer
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), now)
		e.Message = fmt.Sprintf("the provider failed with a server error; %stry again later (%s)", autoRetry, detail.Message)
	default:
		e.Kind = ErrInvalidRequest
		e.Message = fmt.Sprintf("the provider rejected the request; check the model name and settings (/model, or --model), and report a bug if it persists (%s)", detail.Message)
	}
	return e
}

// maxDetail bounds the provider's explanation quoted in a message.
const maxDetail = 2000

// errorDetail extracts the provider's own explanation: {"error":{...}},
// or vLLM's and SGLang's top-level {"object":"error","message":...},
// falling back to the raw body or the status line.
func errorDetail(body []byte, status string) wireError {
	var env struct {
		Error   *wireError `json:"error"`
		Object  string     `json:"object"`
		Message string     `json:"message"`
		Type    string     `json:"type"`
	}
	if json.Unmarshal(body, &env) == nil {
		switch {
		case env.Error != nil && env.Error.Message != "":
			d := *env.Error
			d.Message = clipText(d.Message, maxDetail)
			return d
		case env.Message != "":
			return wireError{Message: clipText(env.Message, maxDetail), Type: env.Type}
		}
	}
	// An HTML page (a web server's or proxy's error page) says nothing the
	// status line does not, and would flood the message.
	if text := strings.TrimSpace(string(body)); text != "" && len(text) <= 300 && !strings.HasPrefix(text, "<") {
		return wireError{Message: text}
	}
	return wireError{Message: status}
}

// The patterns are compiled on first use, not at start-up.
var (
	windowRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`maximum context length is (\d+) tokens`) })
	promptRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\d+) in the messages|request has (\d+) input tokens`)
	})
)

// outputBound reads a context-length refusal that counts the requested
// output: when the prompt alone fits the window, it returns the output
// bound that would fit; 0 otherwise. vLLM words it "This model's maximum
// context length is 16384 tokens. However, you requested 122946 tokens
// (112946 in the messages, 10000 in the completion)" (vllm#20409); the
// prompt may also be given as "your request has N input tokens".
func outputBound(msg string) int {
	w, p := windowRe().FindStringSubmatch(msg), promptRe().FindStringSubmatch(msg)
	if w == nil || p == nil {
		return 0
	}
	window, _ := strconv.Atoi(w[1])
	prompt, _ := strconv.Atoi(p[1] + p[2])
	if prompt >= window {
		return 0
	}
	return window - prompt
}

func isQuota(d wireError) bool {
	return strings.Contains(d.Code+" "+d.Type, "insufficient_quota")
}

func isOverflow(d wireError) bool {
	text := strings.ToLower(d.Message + " " + d.Code)
	for _, s := range []string{"context length", "context_length", "maximum context", "too long", "context window"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// requestURL is the URL the failed request went to, for messages that
// send the user to check it.
func requestURL(resp *http.Response) string {
	if resp.Request == nil || resp.Request.URL == nil {
		return "the configured base URL"
	}
	u := *resp.Request.URL
	u.User = nil
	return u.String()
}

func requestID(h http.Header) string {
	if id := h.Get("X-Request-Id"); id != "" {
		return id
	}
	return h.Get("X-Deepseek-Request-Id")
}

// retryAfter parses a Retry-After header given in seconds or as an HTTP
// date; anything unparsable or in the past is 0.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if at, err := http.ParseTime(v); err == nil && at.After(now) {
		return at.Sub(now)
	}
	return 0
}
