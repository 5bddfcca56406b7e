package llm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestRetryPolicyDelays(t *testing.T) {
	p := DefaultRetryPolicy(nil)
	server := &Error{Kind: ErrServer}
	tests := []struct {
		attempt int
		err     *Error
		want    time.Duration
		ok      bool
	}{
		{1, server, 500 * time.Millisecond, true},
		{2, server, time.Second, true},
		{3, &Error{Kind: ErrTransport}, 2 * time.Second, true},
		{4, &Error{Kind: ErrEmptyResponse}, 4 * time.Second, true},
		{5, &Error{Kind: ErrRateLimit}, 8 * time.Second, true},
		{6, server, 0, false},
		{0, server, 0, false},
		{1, &Error{Kind: ErrRateLimit, RetryAfter: 3 * time.Second}, 3 * time.Second, true},
		{1, &Error{Kind: ErrRateLimit, RetryAfter: 30 * time.Second}, 500 * time.Millisecond, true},
		{1, &Error{Kind: ErrAuth}, 0, false},
		{1, &Error{Kind: ErrQuota}, 0, false},
		{1, &Error{Kind: ErrInvalidRequest}, 0, false},
		{1, &Error{Kind: ErrContextOverflow}, 0, false},
		{1, &Error{Kind: ErrMalformed}, 0, false},
		{1, &Error{Kind: ErrStreamClosed}, 500 * time.Millisecond, true},
		{1, &Error{Kind: ErrModelStopped}, 0, false},
		{1, &Error{Kind: ErrAborted}, 0, false},
		{1, nil, 0, false},
	}
	for _, tt := range tests {
		got, ok := p.Delay(tt.attempt, tt.err)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Delay(%d, %v): want %v %v, got %v %v", tt.attempt, tt.err, tt.want, tt.ok, got, ok)
		}
	}
}

func TestRetryBackoffIsCappedAndJittered(t *testing.T) {
	p := RetryPolicy{Max: 10, Base: 500 * time.Millisecond, Cap: 10 * time.Second, Jitter: 0.1}
	err := &Error{Kind: ErrServer}
	for _, tt := range []struct {
		rand    float64
		attempt int
		want    time.Duration
	}{
		{0, 1, 450 * time.Millisecond}, // -10%
		{1, 1, 550 * time.Millisecond}, // +10%
		{0.5, 3, 2 * time.Second},      // centre
		{0, 9, 9 * time.Second},        // capped, then -10%
		{1, 9, 10 * time.Second},       // never above the cap
		{0.5, 10, 10 * time.Second},    // many doublings stay capped
	} {
		p.Rand = func() float64 { return tt.rand }
		if got, _ := p.Delay(tt.attempt, err); got != tt.want {
			t.Errorf("attempt %d with rand %v: want %v, got %v", tt.attempt, tt.rand, tt.want, got)
		}
	}
}

func TestExhaustedRetryableFailuresNoLongerPromiseARetry(t *testing.T) {
	p := DefaultRetryPolicy(nil)
	for _, tt := range []struct {
		name   string
		resp   llmtest.Response
		advice string
	}{
		{"429", llmtest.RateLimited(""), "wait a minute and try again (Rate Limit Reached)"},
		{"500", llmtest.HTTPError(500, "Server Error"), "try again later (Server Error)"},
		{"disconnect", llmtest.Reply(llmtest.Text("hi", 0), llmtest.Disconnect()), "check the network and try again"},
		{"empty-response", llmtest.Reply(llmtest.Usage(10, 5, 0, 0)), "try again"},
		{"mid-stream-error", llmtest.Response{Events: []llmtest.Event{{Data: `{"error":{"message":"overloaded"}}`}}}, "try again later (overloaded)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := streamOne(t, tt.resp)
			var e *Error
			if !errors.As(err, &e) || !e.Retryable() {
				t.Fatalf("want a retryable *Error, got %v", err)
			}
			got := p.Exhausted(e)
			if !strings.HasPrefix(got.Message, "gave up after 5 retries: ") || strings.Contains(got.Message, "retries automatically") {
				t.Errorf("want a message saying tack gave up after 5 retries without promising another, got %q", got.Message)
			}
			if !strings.HasSuffix(got.Message, tt.advice) {
				t.Errorf("want the advice %q kept, got %q", tt.advice, got.Message)
			}
			if got.Kind != e.Kind || got.Status != e.Status || !errors.Is(got, e) {
				t.Errorf("want kind, status and cause kept, got %+v from %+v", got, e)
			}
		})
	}
}

func TestWaitEndsWithItsContext(t *testing.T) {
	if err := Wait(context.Background(), time.Millisecond); err != nil {
		t.Errorf("want the delay waited out, got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Wait(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("want a cancelled wait to return at once with the context's error, got %v", err)
	}
}
