package llm

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// autoRetry is the clause a retryable failure's message carries while
// retries remain; Exhausted removes it.
const autoRetry = "tack retries automatically, or "

// RetryPolicy decides whether and when a failed model call is tried again.
// The agent loop does the waiting and logs each retry; the policy only
// computes delays.
type RetryPolicy struct {
	Max    int            // retries after the first attempt
	Base   time.Duration  // delay before the first retry
	Cap    time.Duration  // no delay exceeds it
	Jitter float64        // ± fraction applied to the backoff
	Rand   func() float64 // uniform in [0,1); nil means no jitter
}

// DefaultRetryPolicy is 5 retries, 500 ms doubling to 10 s, ±10% jitter.
func DefaultRetryPolicy(rand func() float64) RetryPolicy {
	return RetryPolicy{Max: 5, Base: 500 * time.Millisecond, Cap: 10 * time.Second, Jitter: 0.1, Rand: rand}
}

// Wait waits the delay before a retry, and returns ctx's error if ctx
// ends first.
func Wait(ctx context.Context, delay time.Duration) error {
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Delay returns how long to wait before retry number attempt (1 for the
// first retry) after err, and false when err must not be retried or the
// retries are used up. A provider Retry-After within Cap replaces the
// backoff; a longer one is ignored in favour of the backoff.
func (p RetryPolicy) Delay(attempt int, err *Error) (time.Duration, bool) {
	if err == nil || !err.Retryable() || attempt < 1 || attempt > p.Max {
		return 0, false
	}
	if err.RetryAfter > 0 && err.RetryAfter <= p.Cap {
		return err.RetryAfter, true
	}
	d := p.Base
	for i := 1; i < attempt && d < p.Cap; i++ {
		d *= 2
	}
	d = min(d, p.Cap)
	if p.Rand != nil && p.Jitter > 0 {
		d = time.Duration(float64(d) * (1 + p.Jitter*(2*p.Rand()-1)))
	}
	return min(d, p.Cap), true
}

// Exhausted returns err reworded for when the policy's retries have run
// out: it says how many were made and no longer promises another, keeping
// the advice on what to do next.
func (p RetryPolicy) Exhausted(err *Error) *Error {
	e := *err
	e.Err = err
	e.Message = fmt.Sprintf("gave up after %d retries: %s", p.Max, strings.Replace(err.Message, autoRetry, "", 1))
	return &e
}
