package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
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

// halfStreamServer is a model server in a few lines of raw HTTP, no
// llmtest: the first request gets half an SSE stream, cut inside an event,
// and the connection closed (Connection: close, no length, so the body
// ends cleanly there), as when a proxy or the server drops it; later
// requests, and the session title's, get a whole answer. It returns the base URL.
func halfStreamServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	event := func(text, finish string) string {
		return `data: {"choices":[{"index":0,"delta":{"content":"` + text + `"},"finish_reason":` + finish + "}]}\n\n"
	}
	go func() {
		cut := false
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(c))
			if err == nil {
				_, _ = io.Copy(io.Discard, req.Body)
			}
			body := event("Whole answer.", "null") + event("", `"stop"`) + "data: [DONE]\n\n"
			if err == nil && req.Header.Get("X-Tack-Purpose") == "" && !cut { // not the title's request
				body, cut = event("HALF ANSWER, ", "null")+`data: {"choices":[{"index":0,"del`, true
			}
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"+body)
			_ = c.Close()
		}
	}()
	return "http://" + l.Addr().String()
}

// A connection dropped halfway through the answer is retried, and the
// cut half never reaches the result.
func TestPrintRetriesAStreamCutInsideAnEvent(t *testing.T) {
	home := t.TempDir()
	cmd := exec.Command(tackbin.Path(t), "-p", "hi", "--output-format", "json")
	cmd.Dir, cmd.Stdin = t.TempDir(), strings.NewReader("")
	cmd.Env = append(tackEnv(nil, home), "DEEPSEEK_BASE_URL="+halfStreamServer(t), "DEEPSEEK_API_KEY=test")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var rec printRecord
	if err != nil || json.Unmarshal(out, &rec) != nil || rec.IsError || rec.Result != "Whole answer." {
		t.Fatalf("want the retried whole answer as the result and exit 0, got %q (%v); stderr %q", out, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "Retrying model request (1/5)") {
		t.Errorf("want stderr to say the request was retried, got %q", stderr.String())
	}
}
