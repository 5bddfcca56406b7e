//go:build unix

package claudelog

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// The tools people run on Claude Code's transcripts, installed from npm
// (testkit.ClaudeTool), read tack's: their reading is the oracle, not ours.

// runTool runs bin with args, stdin and env (on top of a HOME of its
// own), and returns what it printed.
func runTool(t *testing.T, stdin string, env []string, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), append([]string{"HOME=" + t.TempDir(), "NO_COLOR=1"}, env...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}

// reply is a turn of two requests to model, each using u: a reply with
// a tool call, and the answer; the model titles the session after it.
func reply(turn int, model string, u llm.Usage) []session.Data {
	call := llm.ToolCall{ID: "call_" + strings.Repeat("x", turn), Name: "bash", Arguments: `{"command":"ls"}`}
	return []session.Data{
		session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: "list the files"},
		session.StepStart{Turn: turn, Step: 1, Model: model},
		session.AssistantMessage{Turn: turn, Step: 1, Text: "Let me look.", ToolCalls: []llm.ToolCall{call}, Usage: u, Finish: llm.FinishToolCalls},
		session.ToolResult{Turn: turn, Step: 1, CallID: call.ID, Name: "bash", Text: "a.txt\n"},
		session.AssistantMessage{Turn: turn, Step: 2, Text: "There is a.txt.", Usage: u, Finish: llm.FinishStop},
		session.TurnEnd{Turn: turn, Reason: session.StopCompleted},
		session.Title{Title: "Files of the project", Source: "model"},
	}
}

// A session and its fork, laid out as Claude Code lays out its projects,
// are counted by ccusage as what the model was asked: each request once,
// the fork's copies of the original's with them.
func TestCcusageCountsASessionAndItsForkOnce(t *testing.T) {
	ccusage := testkit.ClaudeTool(t, "ccusage")
	l := newLog(t, session.Header{})
	appendAt(t, l, t0, reply(1, "deepseek-flash", llm.Usage{Input: 300, CacheRead: 1000, Output: 40})...)
	fork := forkOf(t, l, t0.Add(time.Hour))
	appendAt(t, fork, t0.Add(time.Hour), reply(2, "deepseek-flash", llm.Usage{Input: 20, CacheRead: 1400, Output: 7})...)

	config := t.TempDir()
	project := filepath.Join(config, "projects", "-w")
	for _, log := range []*session.Log{l, fork} {
		tr := New(log, "2.0.0", nil)
		testkit.WriteFile(t, filepath.Join(project, filepath.Base(tr.Path())), string(syncRead(t, tr)))
	}
	out := runTool(t, "", []string{"CLAUDE_CONFIG_DIR=" + config, "TZ=UTC"}, ccusage, "daily", "--json", "--offline")
	var got struct {
		Totals struct{ InputTokens, OutputTokens, CacheReadTokens, CacheCreationTokens int }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("ccusage daily --json printed no JSON (%v):\n%s", err, out)
	}
	// Two requests of the original, two of the fork's own.
	want := struct{ InputTokens, OutputTokens, CacheReadTokens, CacheCreationTokens int }{2*300 + 2*20, 2*40 + 2*7, 2*1000 + 2*1400, 0}
	if got.Totals != want {
		t.Fatalf("ccusage counted %+v, want %+v:\n%s", got.Totals, want, out)
	}
}

// ccusage prices a reply by the costUSD tack wrote, for a model its own
// price list lacks.
func TestCcusageTakesTheCostOfTackReplies(t *testing.T) {
	ccusage := testkit.ClaudeTool(t, "ccusage")
	l := newLog(t, session.Header{})
	appendAt(t, l, t0, reply(1, "acme-coder", llm.Usage{Input: 300, CacheRead: 1000, Output: 40})...)
	config := t.TempDir()
	tr := New(l, "2.0.0", acmePrices())
	testkit.WriteFile(t, filepath.Join(config, "projects", "-w", filepath.Base(tr.Path())), string(syncRead(t, tr)))
	out := runTool(t, "", []string{"CLAUDE_CONFIG_DIR=" + config, "TZ=UTC"}, ccusage, "daily", "--json", "--offline")
	var got struct{ Totals struct{ TotalCost float64 } }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("ccusage daily --json printed no JSON (%v):\n%s", err, out)
	}
	// Two requests of 1,000 cached, 300 uncached and 40 output tokens at
	// $0.1, $1 and $2 a million.
	if want := 2 * (1000*0.1 + 300*1 + 40*2) / 1e6; math.Abs(got.Totals.TotalCost-want) > 1e-12 {
		t.Fatalf("ccusage priced the session at $%g, want tack's $%g:\n%s", got.Totals.TotalCost, want, out)
	}
}

// ccstatusline's token widgets sum a transcript's usage and take the
// context from its last main-chain request.
func TestCcstatuslineTokenWidgetsReadATranscript(t *testing.T) {
	ccstatusline := testkit.ClaudeTool(t, "ccstatusline")
	l := newLog(t, session.Header{})
	appendAt(t, l, t0, reply(1, "deepseek-flash", llm.Usage{Input: 100, CacheRead: 200, Output: 10})...)
	appendAt(t, l, t0.Add(time.Minute), reply(2, "deepseek-flash", llm.Usage{Input: 30, CacheRead: 250, Output: 5})...)
	tr := New(l, "2.0.0", nil)
	if err := tr.Sync(); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	widgets := `{"version":4,"colorLevel":0,"flexMode":"full","lines":[[` +
		`{"id":"1","type":"tokens-input","rawValue":true},{"id":"2","type":"custom-text","customText":" "},` +
		`{"id":"3","type":"tokens-output","rawValue":true},{"id":"4","type":"custom-text","customText":" "},` +
		`{"id":"5","type":"tokens-cached","rawValue":true},{"id":"6","type":"custom-text","customText":" "},` +
		`{"id":"7","type":"context-length","rawValue":true}]]}`
	testkit.WriteFile(t, filepath.Join(home, ".config", "ccstatusline", "settings.json"), widgets)
	in := `{"session_id":"` + l.Header().ID + `","transcript_path":"` + tr.Path() + `","model":{"id":"deepseek-flash","display_name":"DeepSeek"}}`
	out := runTool(t, in, []string{"HOME=" + home}, ccstatusline)
	got := strings.Join(strings.Fields(strings.ReplaceAll(out, "\u00a0", " ")), " ")
	// Input 2×100 + 2×30, output 2×10 + 2×5, cached 2×200 + 2×250, and
	// the last request's prompt, 30 + 250, in context.
	if want := "260 30 900 280"; !strings.Contains(got, want) {
		t.Fatalf("ccstatusline showed %q, want input, output, cached and context %q", got, want)
	}
}

// ccstatusline's session-name widget reads the name the user gave the
// session (/rename) from its custom-title line; a model's title it leaves
// alone, as in Claude Code.
func TestCcstatuslineShowsTheNameTheUserGave(t *testing.T) {
	ccstatusline := testkit.ClaudeTool(t, "ccstatusline")
	l := newLog(t, session.Header{})
	appendAt(t, l, t0, reply(1, "deepseek-flash", llm.Usage{Input: 100, Output: 10})...)
	appendAt(t, l, t0, session.Title{Title: "Parser fix", Source: session.TitleModel})
	tr := New(l, "2.0.0", nil)
	home := t.TempDir()
	testkit.WriteFile(t, filepath.Join(home, ".config", "ccstatusline", "settings.json"),
		`{"version":4,"colorLevel":0,"flexMode":"full","lines":[[{"id":"1","type":"session-name","rawValue":true}]]}`)
	show := func() string {
		if err := tr.Sync(); err != nil {
			t.Fatal(err)
		}
		in := `{"session_id":"` + l.Header().ID + `","transcript_path":"` + tr.Path() + `","model":{"id":"deepseek-flash","display_name":"DeepSeek"}}`
		return strings.TrimSpace(strings.ReplaceAll(runTool(t, in, []string{"HOME=" + home}, ccstatusline), "\u00a0", " "))
	}
	if got := show(); strings.Contains(got, "Parser fix") {
		t.Fatalf("ccstatusline showed the model's title as the session's name: %q", got)
	}
	appendAt(t, l, t0.Add(time.Minute), session.Title{Title: "Release notes", Source: session.TitleUser})
	if got := show(); !strings.Contains(got, "Release notes") {
		t.Fatalf("ccstatusline showed %q, want the name the user gave, Release notes", got)
	}
}
