package main

import (
	"strings"
	"testing"
)

func TestFlagsMayFollowTheTask(t *testing.T) {
	o, err := parseFlags([]string{"fix", "the", "test", "--model", "deepseek-v4-pro", "-C", "sub"}, noEnv)
	if err != nil {
		t.Fatalf("want flags after the task parsed, got %v", err)
	}
	if o.task != "fix the test" || o.model != "deepseek-v4-pro" || o.dir != "sub" {
		t.Fatalf("want task %q, model and dir set, got task %q, model %q, dir %q", "fix the test", o.task, o.model, o.dir)
	}
}

func TestEverythingAfterDoubleDashIsTheTask(t *testing.T) {
	o, err := parseFlags([]string{"--model", "m", "--", "explain", "--model"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if o.task != "explain --model" || o.model != "m" {
		t.Fatalf("want task %q and model m, got task %q, model %q", "explain --model", o.task, o.model)
	}
}

// noEnv is an environment with no variable set.
func noEnv(string) string { return "" }

// wantUsageError checks that args are refused with a usage error that
// says want.
func wantUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	_, err := parseFlags(args, noEnv)
	if _, ok := err.(errUsage); !ok || !strings.Contains(err.Error(), want) {
		t.Errorf("%q: want a usage error containing %q, got %v", args, want, err)
	}
}

func TestPrintMistakesAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", ""}, "--print needs a task"},
		{[]string{"--print", "  "}, "--print needs a task"},
		{[]string{"-p", "fix", "the", "test"}, `unexpected argument "the" after -p TASK`},
		{[]string{"--system-prompt", "a", "--system-prompt-file", "b"}, "--system-prompt and --system-prompt-file cannot be used together"},
		{[]string{"--append-system-prompt", "a", "--append-system-prompt-file", "b"}, "cannot be used together"},
	} {
		wantUsageError(t, c.args, c.want)
	}
	o, err := parseFlags([]string{"-p", "fix it", "--model", "m"}, noEnv)
	if err != nil || o.print != "fix it" || o.model != "m" {
		t.Fatalf("want -p TASK with a flag after it accepted, got %+v, %v", o, err)
	}
}

func TestBarePrintTakesTheTaskFromTheArgumentsOrStdin(t *testing.T) {
	for _, c := range []struct {
		args       []string
		task, from string
	}{
		{[]string{"-p"}, "", ""},
		{[]string{"-p", "--output-format", "json", "fix it"}, "fix it", "positional"},
		{[]string{"--output-format", "json", "-p", "fix it"}, "fix it", "print"},
		{[]string{"-p", "--model", "m"}, "", ""},
		{[]string{"-p", "--verbose", "--output-format", "stream-json", "fix it"}, "fix it", "positional"},
	} {
		o, err := parseFlags(c.args, noEnv)
		if err != nil || !o.printMode() {
			t.Fatalf("%q: want print mode, got %+v, %v", c.args, o, err)
		}
		got := o.print
		if c.from == "positional" {
			got = o.task
		}
		if got != c.task {
			t.Errorf("%q: want task %q from %s, got print %q task %q", c.args, c.task, c.from, o.print, o.task)
		}
	}
	o, err := parseFlags([]string{"--input-format", "stream-json", "--output-format", "stream-json"}, noEnv)
	if err != nil || !o.printMode() {
		t.Errorf("want --input-format stream-json to mean print mode, got %+v, %v", o, err)
	}
}

func TestToolListsSplitOutsideParentheses(t *testing.T) {
	o, err := parseFlags([]string{"-p", "x", "--allowed-tools", "Bash(git log:*) Read,Edit", "--allowedTools", "Write",
		"--disallowed-tools", "Bash(rm:*), WebFetch"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.allowedTools, "|"); got != "Bash(git log:*)|Read|Edit|Write" {
		t.Errorf("want the allowed entries split outside parentheses, got %q", got)
	}
	if got := strings.Join(o.disallowed, "|"); got != "Bash(rm:*)|WebFetch" {
		t.Errorf("want the disallowed entries, got %q", got)
	}
}

func TestPrintFlagCombinationsThatCannotWork(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "x", "--input-format", "stream-json"}, "--input-format stream-json needs --output-format stream-json"},
		{[]string{"-p", "x", "--include-partial-messages"}, "--include-partial-messages needs --output-format stream-json"},
		{[]string{"-p", "x", "--max-turns", "-1"}, "invalid value -1 for --max-turns"},
		{[]string{"-p", "x", "--output-format", "yaml"}, `invalid value "yaml" for --output-format`},
		{[]string{"-p", "x", "--model", "m", "--fallback-model", "m"}, "--fallback-model is the model itself"},
		{[]string{"--fallback-model", "m"}, "--fallback-model works in print mode: add -p"},
		{[]string{"-p", "x", "--max-budget-usd", "-1"}, "invalid value -1 for --max-budget-usd"},
		{[]string{"-p", "x", "--session-id", "x"}, `invalid --session-id "x": use a UUID`},
		{[]string{"-c", "--session-id", "123e4567-e89b-42d3-a456-426614174000"}, "with --resume or --continue it needs --fork-session"},
		{[]string{"-p", "x", "--fork-session"}, "--fork-session copies the session --resume ID or --continue names"},
		{[]string{"--no-session-persistence"}, "--no-session-persistence works in print mode: add -p"},
		{[]string{"--debug"}, "--debug, --debug-to-stderr and --debug-file work in print mode"},
		{[]string{"-p", "x", "--thinking-display", "brief"}, "use summarized, full or omitted"},
		{[]string{"-p", "x", "--session-mirror"}, "--session-mirror is claude's, and tack does not take it: tack keeps its sessions in"},
		{[]string{"-p", "x", "--resume-session-at=abc"}, "then /rewind to the turn"},
	} {
		wantUsageError(t, c.args, c.want)
	}
}

// claude -p scripts pass Claude Code's permission flags; each must start
// the mode tack has for it, and a wrong name must list tack's modes.
func TestClaudeCodesPermissionFlagsAreTaken(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "x", "--permission-mode", "acceptEdits"}, "acceptEdits"},
		{[]string{"-p", "x", "--permission-mode", "bypassPermissions"}, "bypassPermissions"},
		{[]string{"-p", "x", "--dangerously-skip-permissions"}, "full-access"},
	} {
		o, err := parseFlags(c.args, noEnv)
		if err != nil || o.permissionMode != c.want {
			t.Errorf("%q: want permission mode %q, got %q, %v", c.args, c.want, o.permissionMode, err)
		}
	}
	_, err := parseFlags([]string{"-p", "x", "--permission-mode", "yolo"}, noEnv)
	if err == nil || !strings.Contains(err.Error(), "read-only, ask, auto, full-access") {
		t.Errorf("want an unknown mode refused with the list of modes, got %v", err)
	}
}

func TestResumeTakesClaudesShortFlag(t *testing.T) {
	for _, args := range [][]string{{"-r", "abc", "-p", "x"}, {"-p", "x", "-r=abc"}, {"--resume", "abc", "-p", "x"}} {
		o, err := parseFlags(args, noEnv)
		if err != nil || !o.resumeSet || o.resume != "abc" || o.print != "x" {
			t.Errorf("%q: want session abc resumed for task x, got %+v, %v", args, o, err)
		}
	}
}

func TestFlagMistakesNameFlagsAsHelpWritesThem(t *testing.T) {
	for args, want := range map[string]string{
		"--nope":             "unknown flag: --nope",
		"-x":                 "unknown flag: -x",
		"--model":            "flag needs an argument: --model",
		"-p x --max-turns z": `invalid value "z" for flag --max-turns`,
	} {
		_, err := parseFlags(strings.Fields(args), noEnv)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", args, want, err)
		}
	}
}

func TestClaudesEffortAndThinkingFlagsAreRead(t *testing.T) {
	for args, want := range map[string]string{
		"-p x --effort medium":                  "high",
		"-p x --effort xhigh":                   "max",
		"-p x --thinking disabled":              "off",
		"-p x --max-thinking-tokens 0":          "off",
		"-p x --max-thinking-tokens 8000":       "",
		"-p x --thinking adaptive":              "",
		"-p x --effort low --thinking disabled": "low",
	} {
		o, err := parseFlags(strings.Fields(args), noEnv)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		lo, err := launchOptions(o, t.TempDir(), t.TempDir(), noEnv)
		if err != nil || lo.Effort != want {
			t.Errorf("%s: effort %q (%v), want %q", args, lo.Effort, err, want)
		}
	}
	if _, err := parseFlags([]string{"-p", "x", "--thinking", "sometimes"}, noEnv); err == nil {
		t.Error("--thinking sometimes was taken")
	}
}

// The flags the Agent SDKs pass for their options are taken: those that
// mean something to tack set it, the rest are left out and said so.
func TestAgentSDKFlagsAreTaken(t *testing.T) {
	o, err := parseFlags([]string{"-p", "x", "--thinking-display=omitted", "--betas=context-1m-2025-08-07", "--task-budget=5000",
		"--allow-dangerously-skip-permissions", "--no-session-persistence", "--debug=api,hooks"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if !o.noReasoning || !o.sdk.noPersistence || !o.sdk.debug || strings.Join(o.sdk.debugTypes, ",") != "api,hooks" {
		t.Errorf("options = %+v", o)
	}
	var stderr strings.Builder
	o.sdk.reportLeftOut(&stderr)
	if got := stderr.String(); !strings.Contains(got, "--betas context-1m-2025-08-07 names Anthropic API betas") ||
		!strings.Contains(got, "--task-budget 5000 is an Anthropic API beta") {
		t.Errorf("stderr = %q", got)
	}
}
