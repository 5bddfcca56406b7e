package llm

import (
	"errors"

	"github.com/tack-agent/tack/backend/redact"
)

// Redacted stands in for a secret removed from a message.
const Redacted = redact.Redacted

// Redactor removes an endpoint's credentials from a model call's failures
// before they reach the user, the model or the session log: the API key
// wherever it occurs, any Authorization header value, and the password and
// key parameters of the base URL (see package redact).
type Redactor struct {
	redact.Redactor
}

// NewRedactor returns the Redactor of an endpoint with apiKey at baseURL.
func NewRedactor(apiKey, baseURL string) Redactor {
	return Redactor{redact.Endpoint(apiKey, baseURL)}
}

// Error redacts e in place, its message and its cause's text, and returns
// it. errors.Is still sees the cause; nothing can unwrap its unredacted
// text.
func (r Redactor) Error(e *Error) *Error {
	if e == nil {
		return nil
	}
	e.Message = r.Text(e.Message)
	if e.Err != nil {
		if _, done := e.Err.(redactedError); !done {
			e.Err = redactedError{err: e.Err, text: r.Text(e.Err.Error())}
		}
	}
	return e
}

// redactedError is a cause whose text has had its credentials removed.
type redactedError struct {
	err  error
	text string
}

func (e redactedError) Error() string        { return e.text }
func (e redactedError) Is(target error) bool { return errors.Is(e.err, target) }

// redactErr redacts err when it is an *Error and returns it.
func (r Redactor) redactErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		r.Error(e)
	}
	return err
}
