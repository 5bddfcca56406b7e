package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestFailuresMapToKindsWithActionableMessages(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		resp       llmtest.Response
		kind       ErrorKind
		status     int
		retryable  bool
		retryAfter time.Duration
		message    string // a fragment the user can act on
	}{
		{"401", llmtest.HTTPError(401, "Authentication Fails"), ErrAuth, 401, false, 0, "check DEEPSEEK_API_KEY or $TACK_HOME/credentials"},
		{"403", llmtest.HTTPError(403, "Forbidden"), ErrAuth, 403, false, 0, "the API key was rejected"},
		{"402", llmtest.HTTPError(402, "Insufficient Balance"), ErrQuota, 402, false, 0, "top up at the provider or switch model with /model"},
		{"400", llmtest.HTTPError(400, "Invalid Format"), ErrInvalidRequest, 400, false, 0, "(Invalid Format)"},
		{"400-context-overflow", llmtest.HTTPError(400, "This model's maximum context length is 1000000 tokens. However, you requested 1200000 tokens."),
			ErrContextOverflow, 400, false, 0, "run /compact"},
		{"404", llmtest.HTTPError(404, "Not Found"), ErrInvalidRequest, 404, false, 0, "check the base URL"},
		{"413", llmtest.HTTPError(413, "Payload Too Large"), ErrInvalidRequest, 413, false, 0, "rejected the request"},
		{"422", llmtest.HTTPError(422, "Invalid Parameters"), ErrInvalidRequest, 422, false, 0, "(Invalid Parameters)"},
		{"429-retry-after-seconds", llmtest.RateLimited("7"), ErrRateLimit, 429, true, 7 * time.Second, "rate-limiting"},
		{"429-retry-after-date", llmtest.RateLimited(now.Add(3 * time.Second).Format(http.TimeFormat)), ErrRateLimit, 429, true, 3 * time.Second, "retries automatically"},
		{"429-without-retry-after", llmtest.RateLimited(""), ErrRateLimit, 429, true, 0, "(Rate Limit Reached)"},
		{"429-insufficient-quota", llmtest.Response{Status: 429, Body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`},
			ErrQuota, 429, false, 0, "insufficient balance"},
		{"500", llmtest.HTTPError(500, "Server Error"), ErrServer, 500, true, 0, "server error"},
		{"503", llmtest.HTTPError(503, "Server Overloaded").WithHeader("Retry-After", "4"), ErrServer, 503, true, 4 * time.Second, "(Server Overloaded)"},
		{"503-plain-body", llmtest.Response{Status: 503, Body: "upstream connect error"}, ErrServer, 503, true, 0, "(upstream connect error)"},
		{"malformed-json", llmtest.Reply(llmtest.Text("a", 0), llmtest.Malformed()), ErrMalformed, 0, false, 0, "cannot decode"},
		{"no-done", llmtest.Response{Events: []llmtest.Event{{Data: `{"choices":[{"delta":{"content":"hi"}}]}`}}}, ErrStreamClosed, 0, true, 0, "before it finished"},
		{"closed-before-content", llmtest.Response{Events: []llmtest.Event{{Comment: "keep-alive"}}}, ErrStreamClosed, 0, true, 0, "before sending anything"},
		{"insufficient-system-resource", llmtest.Reply(llmtest.Text("par", 0), llmtest.Finish("insufficient_system_resource")), ErrServer, 0, true, 0, "ran out of capacity mid-answer"},
		{"disconnect", llmtest.Reply(llmtest.Text("hi", 0), llmtest.Disconnect()), ErrTransport, 0, true, 0, "broke mid-response"},
		{"empty-response", llmtest.Reply(llmtest.Usage(10, 5, 0, 0)), ErrEmptyResponse, 0, true, 0, "empty response"},
		{"model-stopped", llmtest.Reply(llmtest.Text("x", 0), llmtest.Finish("content_filter")), ErrModelStopped, 0, false, 0, "model stopped: content_filter; the provider's content filter stopped the answer; rephrase the request"},
		{"mid-stream-error", llmtest.Response{Events: []llmtest.Event{{Data: `{"error":{"message":"overloaded"}}`}}}, ErrServer, 0, true, 0, "(overloaded)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.resp.WithHeader("X-Request-Id", "req-42"))
			c := NewClient(ClientConfig{BaseURL: srv.URL(), APIKey: "sk-test", Now: func() time.Time { return now }})
			s, err := c.Stream(context.Background(), Request{Model: "m"})
			if err == nil {
				_, err = Collect(s)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want an *Error of kind %q, got %v", tt.kind, err)
			}
			if e.Kind != tt.kind || e.Status != tt.status || e.Retryable() != tt.retryable || e.RetryAfter != tt.retryAfter {
				t.Errorf("want kind %q status %d retryable %v retry-after %v, got %q %d %v %v",
					tt.kind, tt.status, tt.retryable, tt.retryAfter, e.Kind, e.Status, e.Retryable(), e.RetryAfter)
			}
			if !strings.Contains(e.Message, tt.message) {
				t.Errorf("want the message to contain %q, got %q", tt.message, e.Message)
			}
			if e.RequestID != "req-42" {
				t.Errorf("want request id req-42 kept, got %q", e.RequestID)
			}
		})
	}
}

func TestAuthFailureWithoutAKeySaysToSetOne(t *testing.T) {
	srv := llmtest.New(t, llmtest.HTTPError(401, "Missing bearer token"))
	c := NewClient(ClientConfig{BaseURL: srv.URL(), KeyEnv: "OPENAI_API_KEY"})
	_, err := c.Stream(context.Background(), Request{Model: "m"})
	want := "the provider wants an API key and none is set; set OPENAI_API_KEY or add one to $TACK_HOME/credentials (Missing bearer token)"
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrAuth || e.Message != want {
		t.Fatalf("want an auth error reading %q, got %v", want, err)
	}
}

func TestNotFoundNamesTheURLAndLeavesOutAnHTMLErrorPage(t *testing.T) {
	srv := llmtest.New(t, llmtest.Response{Status: 404, Body: "<html><body><h1>404 Not Found</h1></body></html>"})
	c := NewClient(ClientConfig{BaseURL: srv.URL() + "/v9/", APIKey: "k"})
	_, err := c.Stream(context.Background(), Request{Model: "m"})
	want := "the provider has no such endpoint or model at " + srv.URL() + "/v9/chat/completions; check the base URL " +
		"(DEEPSEEK_BASE_URL or OPENAI_BASE_URL) and the model name (404 Not Found)"
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrInvalidRequest || e.Message != want {
		t.Fatalf("want an error reading %q, got %v", want, err)
	}
}

func TestCapacityFinishMessageIsExact(t *testing.T) {
	_, _, err := streamOne(t, llmtest.Reply(llmtest.Finish("insufficient_system_resource")))
	var e *Error
	want := "the provider ran out of capacity mid-answer (insufficient_system_resource); tack retries automatically, or try again later"
	if !errors.As(err, &e) || e.Message != want {
		t.Errorf("want message %q, got %v", want, err)
	}
}

func TestFailedStreamStillReportsUsage(t *testing.T) {
	chunks, _, err := streamOne(t, llmtest.Reply(llmtest.Usage(1, 2, 0, 0)))
	if kindOf(err) != ErrEmptyResponse || len(chunks) != 1 || chunks[0].Kind != ChunkUsage {
		t.Errorf("want a usage chunk then an empty-response error, got %+v, %v", chunks, err)
	}
}

func TestUnreachableServerIsTransportError(t *testing.T) {
	srv := llmtest.NewServer(nil)
	url := srv.URL()
	srv.Close()
	_, err := NewClient(ClientConfig{BaseURL: url}).Stream(context.Background(), Request{Model: "m"})
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrTransport || !strings.Contains(e.Message, "check the network") {
		t.Errorf("want a transport error telling the user to check the network, got %v", err)
	}
}

func TestCancelledBeforeResponseIsAborted(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("never read"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newTestClient(srv).Stream(ctx, Request{Model: "m"})
	if kindOf(err) != ErrAborted {
		t.Errorf("want kind %q, got %v", ErrAborted, err)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := map[string]time.Duration{
		"":     0,
		"0":    0,
		"2":    2 * time.Second,
		"1.5":  1500 * time.Millisecond,
		"soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat):  90 * time.Second,
		now.Add(-10 * time.Second).Format(http.TimeFormat): 0,
	}
	for in, want := range tests {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q): want %v, got %v", in, want, got)
		}
	}
}

func TestTopLevelErrorBodiesKeepTheServersExplanation(t *testing.T) {
	long := "This model's maximum context length is 4096 tokens. However, you requested 4726 tokens (4700 in the messages, 26 in the completion). " + strings.Repeat("Please reduce the length of the messages or completion. ", 8)
	srv := llmtest.New(t, llmtest.Response{Status: 400, Body: `{"object":"error","message":"` + long + `","type":"invalid_request_error","param":null,"code":null}`})
	_, err := NewClient(ClientConfig{BaseURL: srv.URL()}).Stream(context.Background(), Request{Model: "m"})
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrContextOverflow || !strings.Contains(e.Message, long) {
		t.Fatalf("want a context overflow quoting the server's whole message, got %v", err)
	}
}

func TestOutputBoundRefusals(t *testing.T) {
	for msg, want := range map[string]int{
		"This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion).": 0,
		"This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the messages, 6048 in the completion).":        5480,
		"This model's maximum context length is 1000000 tokens. However, you requested 1200000 tokens.":                                                0,
		"Invalid Format": 0,
	} {
		if got := outputBound(msg); got != want {
			t.Errorf("outputBound(%q): want %d, got %d", msg, want, got)
		}
	}
}

// TestReasoningContentRefusalIsWordedAsTacksFault: DeepSeek's 400 about
// reasoning_content is never the user's doing; it says so, and how to go
// on.
func TestReasoningContentRefusalIsWordedAsTacksFault(t *testing.T) {
	srv := llmtest.New(t, llmtest.HTTPError(400, llmtest.ReasoningContentRefusal))
	_, err := newTestClient(srv).Stream(context.Background(), Request{Model: "deepseek-flash"})
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrInvalidRequest || e.Retryable() {
		t.Fatalf("want a non-retryable invalid-request error, got %v", err)
	}
	for _, want := range []string{"a fault in tack", "please report it", "/model off", "--effort off", "/new", llmtest.ReasoningContentRefusal} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("want the message to contain %q, got %q", want, e.Message)
		}
	}
	if strings.Contains(e.Message, "check the model name") {
		t.Errorf("want no advice to check the model name, got %q", e.Message)
	}
}

// TestThinkingModePadsEveryAssistantMessage: a step run with thinking off
// leaves a tool-call message without reasoning; once thinking is on, the
// request carries a one-space reasoning_content for it (DeepSeek V4-Pro
// refuses an empty one) and the fake server, which enforces DeepSeek's
// rule, accepts it. With thinking off nothing is padded.
func TestThinkingModePadsEveryAssistantMessage(t *testing.T) {
	history := []Message{
		{Role: RoleUser, Content: "list"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: RoleTool, ToolCallID: "c1", Content: "a.go"},
		{Role: RoleAssistant, Content: "One file."},
		{Role: RoleUser, Content: "more"},
	}
	for _, tt := range []struct {
		effort Effort
		want   string
	}{{EffortHigh, " "}, {"", " "}, {EffortOff, ""}} {
		srv := llmtest.New(t, llmtest.ReplyText("ok"))
		if _, err := Collect(must(newTestClient(srv).Stream(context.Background(), Request{Model: "deepseek-flash", Effort: tt.effort, Messages: history}))); err != nil {
			t.Fatalf("effort %q: want the request accepted, got %v", tt.effort, err)
		}
		msgs := srv.Requests()[0].Messages
		if msgs[1].ReasoningContent != tt.want || msgs[3].ReasoningContent != tt.want {
			t.Errorf("effort %q: want reasoning_content %q on both assistant messages, got %q and %q", tt.effort, tt.want, msgs[1].ReasoningContent, msgs[3].ReasoningContent)
		}
	}
}
