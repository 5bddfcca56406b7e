package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestUnknownFlagExitsTwoWithAPointerToHelp(t *testing.T) {
	for _, args := range [][]string{{"--frobnicate"}, {"--ui", "fancy"}, {"--permission-mode", "yolo"}, {"--effort", "extreme"}, {"-p", ""}, {"-p", "fix", "it"}} {
		r := startTackIn(t, nil, t.TempDir(), t.TempDir(), args...)
		r.closeStdin()
		if code := r.exitCode(); code != 2 {
			t.Errorf("%v: want exit 2, got %d", args, code)
		}
		errText := r.stderr.String()
		if strings.Count(errText, "\n") != 1 || !strings.Contains(errText, "tack --help") {
			t.Errorf("%v: want one line pointing at --help, got %q", args, errText)
		}
	}
}

func TestPrintWithoutAnAPIKeyNamesTheWaysToConfigureOne(t *testing.T) {
	r := startTackIn(t, nil, t.TempDir(), t.TempDir(), "-p", "hello")
	r.closeStdin()
	r.wantExit(1)
	for _, want := range []string{"DEEPSEEK_API_KEY", "OPENAI_BASE_URL", "config.toml"} {
		if !strings.Contains(r.stderr.String(), want) {
			t.Errorf("want stderr to name %s, got %q", want, r.stderr.String())
		}
	}
}

func TestContinueSendsTheFirstProcessHistory(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.Reasoning("Thinking first.", 4), llmtest.Text("First answer.", 3)),
		llmtest.ReplyText("Second answer."),
	)
	home, dir := t.TempDir(), t.TempDir()
	first := startTackIn(t, srv, home, dir, "-p", "first question")
	first.closeStdin()
	if code := first.exitCode(); code != 0 {
		t.Fatalf("first run: exit %d, stderr %q", code, first.stderr.String())
	}
	second := startTackIn(t, srv, home, dir, "-c", "-p", "second question")
	second.closeStdin()
	if code := second.exitCode(); code != 0 {
		t.Fatalf("second run: exit %d, stderr %q", code, second.stderr.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests, got %d", len(reqs))
	}
	a, b := reqs[0].Messages, reqs[1].Messages
	if len(b) != len(a)+2 {
		t.Fatalf("want the first history plus answer and prompt (%d messages), got %d", len(a)+2, len(b))
	}
	for i := range a {
		if a[i].Role != b[i].Role || a[i].Content != b[i].Content || !reflect.DeepEqual(a[i].ToolCalls, b[i].ToolCalls) {
			t.Fatalf("message %d differs after -c:\nfirst:  %+v\nsecond: %+v", i, a[i], b[i])
		}
	}
	if ans := b[len(a)]; ans.Content != "First answer." || ans.ReasoningContent != "Thinking first." {
		t.Fatalf("want the first answer with its reasoning_content, got %+v", ans)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
}
