package linemode

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// printTask runs one print-mode task over script and returns stdout and
// stderr.
func printTask(t *testing.T, format string, script ...llmtest.Response) (PrintResult, string, string) {
	t.Helper()
	s, err := openSession(t, script...)()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	res := Print(context.Background(), s.Agent, PrintOptions{Task: "do it", Format: format, Stdout: &stdout, Stderr: &stderr})
	return res, stdout.String(), stderr.String()
}

func TestPrintJSONRecordCarriesUsageStepsAndARoundedCost(t *testing.T) {
	res, out, _ := printTask(t, "json", llmtest.Reply(llmtest.Text("All done.", 3), llmtest.Usage(100, 1000, 20, 5)))
	if !res.Success || res.Result != "All done." || res.NumSteps != 1 || res.StopReason != "completed" {
		t.Fatalf("want a completed one-step result with the answer, got %+v", res)
	}
	want := PrintUsage{Input: 1000, CacheHit: 100, Output: 20, Reasoning: 5}
	if res.Usage != want {
		t.Errorf("want usage %+v, got %+v", want, res.Usage)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("want stdout to be one JSON object on one line, got %q (%v)", out, err)
	}
	// 100 cache hits at $0.006, 1,000 misses at $0.30 and 20 output tokens
	// at $1.20 per million
	if !strings.Contains(out, `"cost":0.0003246,`) {
		t.Errorf("want the cost without float noise, got %s", out)
	}
	if rec["error"] != nil {
		t.Errorf("want error null for a completed turn, got %v", rec["error"])
	}
}

func TestPrintShowsProgressOnStderrOnly(t *testing.T) {
	_, out, errOut := printTask(t, "text",
		llmtest.HTTPError(500, "overloaded"),
		llmtest.ReplyText("Recovered."),
	)
	if out != "Recovered.\n" {
		t.Errorf("want stdout to hold exactly the answer, got %q", out)
	}
	if !strings.Contains(errOut, "Retrying model request (1/5) in ") {
		t.Errorf("want the retry notice on stderr, got %q", errOut)
	}
}
