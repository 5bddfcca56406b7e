package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// vllmErrorStream is vLLM ending a stream with its top-level error object
// after some content (vllm#40986): the content is no answer.
const vllmErrorStream = "../../testdata/servers/vllm-error-after-content.chunks.jsonl"

// TestPrintNeverPrintsAnAnswerCutByAnErrorObject: the content before the
// error object is not printed, and the retry's answer is the result.
func TestPrintNeverPrintsAnAnswerCutByAnErrorObject(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.MustReplay(t, vllmErrorStream), llmtest.ReplyText("The real answer."))
			r := startTack(t, srv, "-p", "hi", "--output-format", format)
			r.closeStdin()
			if code := r.exitCode(); code != 0 {
				t.Fatalf("want exit 0 after the retry, got %d (stderr %q)", code, r.stderr.String())
			}
			out := r.stdout.String()
			if strings.Contains(out, "Let me look at") {
				t.Errorf("want the content cut by the error kept out of stdout, got %q", out)
			}
			if format == "text" && out != "The real answer.\n" {
				t.Errorf("want only the retried answer, got %q", out)
			}
			if format == "json" {
				var rec printRecord
				if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Result != "The real answer." || rec.IsError {
					t.Errorf("want the retried answer as the result, got %q (%v)", out, err)
				}
			}
			srv.AssertConsumed(t)
		})
	}
}

// TestPrintExitsOneWhenEveryAttemptEndsInAnErrorObject: an answer that
// never completes is a failure, not an empty success.
func TestPrintExitsOneWhenEveryAttemptEndsInAnErrorObject(t *testing.T) {
	var script []llmtest.Response
	for range 6 { // the first try and five retries
		script = append(script, llmtest.MustReplay(t, vllmErrorStream))
	}
	srv := llmtest.New(t, script...)
	r := startTack(t, srv, "-p", "hi")
	r.closeStdin()
	if code := r.exitCode(); code != 1 {
		t.Fatalf("want exit 1, got %d (stderr %q)", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "" {
		t.Errorf("want nothing on stdout, got %q", got)
	}
	if !strings.Contains(r.stderr.String(), "CUDA out of memory") {
		t.Errorf("want the server's explanation on stderr, got %q", r.stderr.String())
	}
	srv.AssertConsumed(t)
}
