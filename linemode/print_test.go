package linemode

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// printRun runs print mode over script with o and returns the outcome,
// stdout and stderr.
func printRun(t *testing.T, o PrintOptions, script ...llmtest.Response) (PrintOutcome, string, string) {
	t.Helper()
	return printWith(t, openSession(t, script...), o)
}

// printWith runs print mode with o on the session open opens.
func printWith(t *testing.T, open func() (*launch.Session, error), o PrintOptions) (PrintOutcome, string, string) {
	t.Helper()
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	o.Stdout, o.Stderr = &stdout, &stderr
	out := Print(context.Background(), s, o)
	return out, stdout.String(), stderr.String()
}

func TestPrintJSONResultCarriesUsageTurnsAndARoundedCost(t *testing.T) {
	out, stdout, _ := printRun(t, PrintOptions{Task: "do it", Format: FormatJSON},
		llmtest.Reply(llmtest.Text("All done.", 3), llmtest.Usage(100, 1000, 20, 5)))
	res := out.Results[0]
	if !out.OK() || res.Result != "All done." || res.NumTurns != 1 || res.Subtype != "success" {
		t.Fatalf("want a completed one-request result with the answer, got %+v", res)
	}
	want := claudemsg.Usage{InputTokens: 1000, CacheReadInputTokens: 100, OutputTokens: 20, ReasoningOutputTokens: 5}
	if res.Usage != want {
		t.Errorf("want usage %+v, got %+v", want, res.Usage)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("want stdout to be one JSON object on one line, got %q (%v)", stdout, err)
	}
	// 100 cache hits at $0.006, 1,000 misses at $0.30 and 20 output tokens
	// at $1.20 per million
	if !strings.Contains(stdout, `"total_cost_usd":0.0003246,`) {
		t.Errorf("want the cost without float noise, got %s", stdout)
	}
	if _, ok := rec["errors"]; ok {
		t.Errorf("want no errors for a completed turn, got %v", rec["errors"])
	}
}

func TestPrintShowsProgressOnStderrOnly(t *testing.T) {
	_, stdout, stderr := printRun(t, PrintOptions{Task: "do it", Format: FormatText},
		llmtest.HTTPError(500, "overloaded"),
		llmtest.ReplyText("Recovered."),
	)
	if stdout != "Recovered.\n" {
		t.Errorf("want stdout to hold exactly the answer, got %q", stdout)
	}
	if !strings.Contains(stderr, "Retrying model request (1/5) in ") {
		t.Errorf("want the retry notice on stderr, got %q", stderr)
	}
}
