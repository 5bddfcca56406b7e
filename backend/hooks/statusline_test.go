package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func statusInput() StatusInput {
	used, left := 42, 58
	return StatusInput{
		SessionID: "s-1", SessionName: "Parser fix", TranscriptPath: "/tmp/s-1.jsonl", Cwd: "/work/proj",
		Model:         StatusModel{ID: "deepseek-v4-pro", DisplayName: "DeepSeek V4 Pro"},
		Workspace:     StatusDirs{CurrentDir: "/work/proj", ProjectDir: "/work/proj"},
		Version:       "1.2.3",
		Effort:        &StatusEffort{Level: "high"},
		Thinking:      &StatusThinking{Enabled: true},
		Cost:          StatusCost{TotalUSD: 0.1234, DurationMS: 65000, APIMS: 12000, LinesAdded: 156, LinesRemoved: 23},
		ContextWindow: StatusContext{TotalInput: 42000, TotalOutput: 300, Size: 100000, UsedPct: &used, RemainingPct: &left, CurrentUsage: &StatusTokens{Input: 2000, Output: 300, CacheRead: 40000}},
	}
}

// runStatus runs command as the status line with statusInput, in an
// environment of os.Environ and env.
func runStatus(t *testing.T, command string, env ...string) ([]string, error) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the status line scripts here are sh")
	}
	run, err := StatusLine{Command: command, Source: "~/.claude/settings.json"}.Run(context.Background(), t.TempDir(), append(os.Environ(), env...), statusInput())
	return run.Rows, err
}

// ccusage statusline, the most used status line command, reads tack's
// input: the model, the session's cost, and the context (which it takes
// from total_input_tokens, the last request's prompt).
func TestCcusageStatuslineReadsTheInput(t *testing.T) {
	ccusage := testkit.ClaudeTool(t, "ccusage")
	rows, err := runStatus(t, ccusage+" statusline --offline --no-cache", "HOME="+t.TempDir(), "NO_COLOR=1")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(rows, "\n")
	for _, want := range []string{"🤖 DeepSeek V4 Pro", "💰 $0.12 session", "🧠 42,000 (42%)"} {
		if !strings.Contains(line, want) {
			t.Errorf("ccusage statusline printed %q, want %q in it", line, want)
		}
	}
}

// ccstatusline's widgets over the status line's figures show tack's.
func TestCcstatuslineReadsTheInput(t *testing.T) {
	ccstatusline := testkit.ClaudeTool(t, "ccstatusline")
	home := t.TempDir()
	testkit.WriteFile(t, filepath.Join(home, ".config", "ccstatusline", "settings.json"), `{"version":4,"colorLevel":0,"lines":[[`+
		`{"id":"1","type":"model"},{"id":"2","type":"separator"},{"id":"3","type":"context-percentage"},{"id":"4","type":"separator"},`+
		`{"id":"5","type":"context-length"},{"id":"6","type":"separator"},{"id":"7","type":"session-cost"},{"id":"8","type":"separator"},`+
		`{"id":"9","type":"thinking-effort"}]]}`)
	rows, err := runStatus(t, ccstatusline, "HOME="+home, "CCSTATUSLINE_WIDTH=200")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(strings.Join(rows, "\n")), "\u00a0", " ")), " ")
	if want := "Model: DeepSeek V4 Pro | Ctx Used: 42.0% | Ctx: 42.0k | Cost: $0.12 | Thinking: high"; got != want {
		t.Errorf("ccstatusline printed %q, want %q", got, want)
	}
}

// Scripts written for Claude Code's status line, as its documentation
// writes them (bash and jq over the documented paths), read tack's input:
// jq is the oracle for the field names and shapes.
func TestStatusLineScriptsWrittenForClaudeCodeReadTheirFields(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (apt-get install jq): the scripts under test are written with it")
	}
	script := filepath.Join(t.TempDir(), "statusline.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
input=$(cat)
MODEL=$(echo "$input" | jq -r '.model.display_name')
DIR=$(echo "$input" | jq -r '.workspace.current_dir')
PCT=$(echo "$input" | jq -r '.context_window.used_percentage // 0' | cut -d. -f1)
COST=$(echo "$input" | jq -r '.cost.total_cost_usd')
EVENT=$(echo "$input" | jq -r '.hook_event_name')
NAME=$(echo "$input" | jq -r '.session_name // empty')
printf '\033[36m[%s]\033[0m %s | ctx %s%% | $%.2f | %s | %s\n' "$MODEL" "${DIR##*/}" "$PCT" "$COST" "$EVENT" "$NAME"
echo "$input" | jq -r '"+\(.cost.total_lines_added) -\(.cost.total_lines_removed) · cache \(.context_window.current_usage.cache_read_input_tokens) · \(.output_style.name) · \(.exceeds_200k_tokens) \(.fast_mode) · \(.effort.level) \(.thinking.enabled)"'
`), 0o755)
	rows, err := runStatus(t, script)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"\x1b[36m[DeepSeek V4 Pro]\x1b[0m proj | ctx 42% | $0.12 | Status | Parser fix", "+156 -23 · cache 40000 · default · false false · high true"}
	if !slices.Equal(rows, want) {
		t.Errorf("rows %q, want %q", rows, want)
	}
}

// Before the model has answered, the percentages and the last request's
// tokens are null, as in Claude Code, and jq's defaults apply; added_dirs
// is a list even when empty, and session_name absent without a title. The run says when to run again.
func TestStatusLineFieldsAreNullBeforeTheFirstAnswer(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (apt-get install jq): the script under test is written with it")
	}
	in := statusInput()
	in.ContextWindow, in.SessionName = StatusContext{Size: 1000000}, ""
	run, err := StatusLine{Command: `jq -r '"\(.context_window.used_percentage // "-") \(.context_window.current_usage // "none") \(.workspace.added_dirs) \(has("session_name"))"'`, Every: 5 * time.Second}.
		Run(context.Background(), t.TempDir(), os.Environ(), in)
	if err != nil || !slices.Equal(run.Rows, []string{"- none [] false"}) || run.Every != 5*time.Second {
		t.Errorf("run %+v (%v)", run, err)
	}
}

// The command learns the terminal's size from COLUMNS and LINES, as
// under Claude Code: its stdout is a pipe, so tput cannot tell.
func TestStatusLineCommandKnowsTheTerminalSize(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line script here is sh")
	}
	in := statusInput()
	in.Columns, in.Lines = 132, 41
	run, err := StatusLine{Command: `echo "$COLUMNS x $LINES"`}.Run(context.Background(), t.TempDir(), append(os.Environ(), "COLUMNS=80", "LINES=24"), in)
	if err != nil || !slices.Equal(run.Rows, []string{"132 x 41"}) {
		t.Errorf("rows %q (%v), want the terminal's size, 132 x 41", run.Rows, err)
	}
}

func TestStatusLineKeepsItsFirstRowsWithoutTrailingBlanks(t *testing.T) {
	for _, c := range []struct {
		script string
		want   []string
	}{
		{`printf 'one\r\ntwo\n\n\n'`, []string{"one", "two"}},
		{`printf '1\n2\n3\n4\n5\n'`, []string{"1", "2", "3"}},
		{`true`, nil},
	} {
		rows, err := runStatus(t, c.script)
		if err != nil || !slices.Equal(rows, c.want) {
			t.Errorf("%s: rows %q (%v), want %q", c.script, rows, err, c.want)
		}
	}
}

func TestStatusLineThatFailsShowsNothingAndSaysWhy(t *testing.T) {
	rows, err := runStatus(t, `echo partial; echo "jq: command not found" >&2; exit 127`)
	if rows != nil || err == nil {
		t.Fatalf("rows %q, err %v", rows, err)
	}
	for _, want := range []string{"~/.claude/settings.json", "status 127", "jq: command not found", "run it by hand"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// A command that hangs is ended with what it started, and says how to
// fix it.
func TestStatusLineThatHangsIsEnded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line script here is sh")
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	run, err := StatusLine{Command: "sleep 30 & echo $! > " + pidFile + "; wait", Source: "--settings", Timeout: 200 * time.Millisecond}.
		Run(context.Background(), t.TempDir(), os.Environ(), statusInput())
	if run.Rows != nil || err == nil || !strings.Contains(err.Error(), "took over 200ms") {
		t.Fatalf("run %+v, err %v", run, err)
	}
	pid, _ := os.ReadFile(pidFile)
	alive := func() string {
		out, _ := exec.Command("ps", "-o", "stat=", "-p", strings.TrimSpace(string(pid))).Output()
		if len(out) > 0 && !strings.HasPrefix(string(out), "Z") {
			return string(out)
		}
		return ""
	}
	// SIGKILL was sent when Run returned; give the kernel a moment.
	for deadline := time.Now().Add(10 * time.Second); alive() != "" && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if state := alive(); state != "" {
		t.Errorf("the command's child %s still runs (%s)", pid, state)
	}
}

// The effort reaches a status line as Claude Code's effort.level and
// thinking.enabled: no level when the model does not reason, neither
// when it has no effort to set.
func TestStatusLineEffort(t *testing.T) {
	for _, c := range []struct {
		effort llm.Effort
		want   string
	}{
		{"", ` `},
		{llm.EffortOff, ` {"enabled":false}`},
		{llm.EffortHigh, `{"level":"high"} {"enabled":true}`},
		{llm.EffortMax, `{"level":"max"} {"enabled":true}`},
	} {
		var in StatusInput
		in.Effort, in.Thinking = EffortOf(c.effort)
		b, _ := json.Marshal(in)
		var got struct{ Effort, Thinking json.RawMessage }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if s := string(got.Effort) + " " + string(got.Thinking); s != c.want {
			t.Errorf("effort %q: effort and thinking %s, want %s", c.effort, s, c.want)
		}
	}
}
