package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

const testKey = "sk-live-4f9a8c2e7b1d"

// errorTexts is every text err can show: its message and each cause's.
func errorTexts(err error) []string {
	var out []string
	for ; err != nil; err = errors.Unwrap(err) {
		out = append(out, err.Error())
	}
	return out
}

// TestServerEchoesOfTheKeyAreRedacted has the fake server quote the key
// and the Authorization header back in every place a server can (error
// bodies of each shape, a mid-stream error object, undecodable stream
// data); no text of the failure may carry the key.
func TestServerEchoesOfTheKeyAreRedacted(t *testing.T) {
	tests := []struct {
		name string
		resp llmtest.Response
		kind ErrorKind
	}{
		// OpenAI-style: "Incorrect API key provided: sk-...".
		{"401-quotes-key", llmtest.HTTPError(401, "Incorrect API key provided: "+llmtest.EchoKey+". You can find your API key at ..."), ErrAuth},
		{"400-vllm-object", llmtest.Response{Status: 400, Body: `{"object":"error","message":"bad header Authorization: ` + llmtest.EchoAuthorization + `","type":"BadRequestError"}`}, ErrInvalidRequest},
		{"502-proxy-dump", llmtest.Response{Status: 502, Body: "upstream refused: Authorization: " + llmtest.EchoAuthorization}, ErrServer},
		{"404-quotes-key", llmtest.HTTPError(404, "no model for key "+llmtest.EchoKey), ErrInvalidRequest},
		{"mid-stream-error", llmtest.Reply(llmtest.Text("par", 0), llmtest.ErrorObject("quota of "+llmtest.EchoKey+" exhausted")), ErrServer},
		{"undecodable-data", llmtest.Reply(llmtest.Data(`{"key":"` + llmtest.EchoKey + `",`)), ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.resp)
			c := NewClient(ClientConfig{BaseURL: srv.URL(), APIKey: testKey})
			s, err := c.Stream(context.Background(), Request{Model: "m"})
			if err == nil {
				_, err = Collect(s)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("want a %s *Error, got %v", tt.kind, err)
			}
			if !strings.Contains(e.Message, Redacted) {
				t.Errorf("want the echoed key shown as %s, got %q", Redacted, e.Message)
			}
			for _, text := range errorTexts(err) {
				if strings.Contains(text, testKey) {
					t.Errorf("the key leaked: %q", text)
				}
			}
		})
	}
}

// TestBaseURLCredentialsAreRedacted covers the base URL's own secrets:
// its password and key parameters, which the unusable-URL message and Go's
// transport errors quote.
func TestBaseURLCredentialsAreRedacted(t *testing.T) {
	for _, base := range []string{
		"http://tack:pw-9b7c6d5e4f@bad host/v1",
		"http://127.0.0.1:1/v1?api_key=qk-3e4r5t6y7u",
	} {
		c := NewClient(ClientConfig{BaseURL: base, APIKey: testKey})
		_, err := c.Stream(context.Background(), Request{Model: "m"})
		if err == nil {
			t.Fatalf("%s: want a failure", base)
		}
		for _, text := range errorTexts(err) {
			for _, secret := range []string{"pw-9b7c6d5e4f", "qk-3e4r5t6y7u", testKey} {
				if strings.Contains(text, secret) {
					t.Errorf("%s: %s leaked in %q", base, secret, text)
				}
			}
		}
	}
}

// TestRedactionKeepsTheCauseReachable: errors.Is still sees through a
// redacted cause (the agent tells a cancellation so).
func TestRedactionKeepsTheCauseReachable(t *testing.T) {
	e := NewRedactor(testKey, "").Error(&Error{Kind: ErrTransport, Message: "m", Err: context.Canceled})
	if !errors.Is(e, context.Canceled) {
		t.Fatalf("want the cause reachable, got %v", e.Err)
	}
}
