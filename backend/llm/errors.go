package llm

import (
	"fmt"
	"time"
)

// ErrorKind is the stable classification of a failed model call.
type ErrorKind string

const (
	ErrAuth            ErrorKind = "auth"             // 401, 403
	ErrQuota           ErrorKind = "quota"            // 402
	ErrInvalidRequest  ErrorKind = "invalid-request"  // 400, 413, 422
	ErrContextOverflow ErrorKind = "context-overflow" // 400 naming the context length
	ErrRateLimit       ErrorKind = "rate-limit"       // 429
	ErrServer          ErrorKind = "server"           // 5xx
	ErrTransport       ErrorKind = "transport"        // network failure, idle timeout
	ErrMalformed       ErrorKind = "malformed"        // undecodable stream data
	ErrStreamClosed    ErrorKind = "stream-closed"    // EOF before the finish
	ErrEmptyResponse   ErrorKind = "empty-response"   // finished with no content
	ErrModelStopped    ErrorKind = "model-stopped"    // content_filter and other finish reasons
	ErrNoCredentials   ErrorKind = "no-credentials"
	ErrAborted         ErrorKind = "aborted"
)

// Error is a failed model call.
type Error struct {
	Kind       ErrorKind
	Status     int           // HTTP status, 0 when none
	Message    string        // what went wrong, for the user
	RetryAfter time.Duration // the provider's Retry-After, 0 when absent
	// MaxOutput is the largest output bound the server would take, when it
	// refused the one asked for as too large for its window.
	MaxOutput int
	// KeyEnv names, for ErrNoCredentials, the variable the missing key
	// belongs in.
	KeyEnv    string
	RequestID string
	Err       error // underlying cause, if any
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the retry policy may try the call again.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case ErrRateLimit, ErrServer, ErrTransport, ErrEmptyResponse, ErrStreamClosed:
		return true
	}
	return false
}
