package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// claudeCodeFailures is what claude -p 2.1.332 printed, and how it
// exited, when the Messages API refused its request and when a
// UserPromptSubmit hook blocked the prompt, in each output format
// (testdata/claudecode/record.py failures).
const claudeCodeFailures = "../../testdata/claudecode/cc-2.1.332.print-failures.json"

type recordedFailure struct {
	Name     string `json:"name"`
	Format   string `json:"format"`
	APIError *struct {
		Status int `json:"status"`
		Error  struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"api_error"`
	BlockPrompt string `json:"block_prompt"`
	Exit        int    `json:"exit"`
	Stdout      string `json:"stdout"`
	Result      *struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	} `json:"result"`
}

// TestPrintFailuresAgreeWithClaudeCode runs each recorded failure through
// tack -p. Where claude -p puts the reason in the result (json,
// stream-json), tack's result carries it too, so a script that reads
// .result learns why the run failed. Named differences: in text, tack
// writes the reason to stderr and leaves stdout empty, where claude -p
// prints it as the answer; tack's failed result has the subtype
// error_during_execution where claude -p's says success; and a blocked
// prompt is a failure in tack (is_error, exit 1), since the task was not
// done, where claude -p exits 0.
func TestPrintFailuresAgreeWithClaudeCode(t *testing.T) {
	var cases []recordedFailure
	testkit.ReadJSON(t, claudeCodeFailures, &cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			home, dir := t.TempDir(), t.TempDir()
			srv, reason, recorded := llmtest.New(t, llmtest.ReplyText("done")), c.BlockPrompt, c.Stdout
			if c.APIError != nil {
				reason = c.APIError.Error.Message
				srv = llmtest.New(t, llmtest.HTTPError(c.APIError.Status, reason))
			}
			if c.BlockPrompt != "" {
				hook, _ := json.Marshal("echo '" + c.BlockPrompt + "' >&2; exit 2")
				testkit.WriteTree(t, home, map[string]string{".claude/settings.json": `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + string(hook) + `}]}]}}`})
			}
			if c.Result != nil {
				recorded = c.Result.Result
			}
			if !strings.Contains(recorded, reason) {
				t.Fatalf("the recording does not hold the reason %q: %q", reason, recorded)
			}
			args := []string{"-p", "hello", "--output-format", c.Format}
			if c.Format == "stream-json" {
				args = append(args, "--verbose")
			}
			r := startTackIn(t, srv, home, dir, args...)
			r.closeStdin()
			wantExit := c.Exit
			if c.BlockPrompt != "" {
				wantExit = 1
			}
			r.wantExit(wantExit)
			stdout := r.stdout.String()
			if c.Format == "text" {
				if stdout != "" || !strings.Contains(r.stderr.String(), reason) {
					t.Errorf("want the reason %q on stderr and nothing on stdout, got stdout %q, stderr %q", reason, stdout, r.stderr.String())
				}
				return
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			var got struct {
				Type    string `json:"type"`
				Subtype string `json:"subtype"`
				IsError bool   `json:"is_error"`
				Result  string `json:"result"`
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
				t.Fatalf("the last line is not JSON (%v): %q", err, stdout)
			}
			if got.Type != c.Result.Type || got.Subtype != "error_during_execution" || !got.IsError ||
				!strings.Contains(got.Result, reason) {
				t.Errorf("want a failed result whose text holds %q, as claude -p's %+v does, got %+v", reason, *c.Result, got)
			}
		})
	}
}
