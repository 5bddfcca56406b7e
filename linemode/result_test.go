package linemode

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// TestBashResultsShowTheTextTheModelRead runs real bash calls whose
// results carry every marker (timeout, signal, truncation, a background
// task and its status) and checks that line mode prints exactly the text
// the model received: the oracle is the tool message of the next request.
func TestBashResultsShowTheTextTheModelRead(t *testing.T) {
	tests := []struct {
		name  string
		calls []string // tool call arguments, as tool name + JSON
	}{
		{"bash_timed_out", []string{`bash {"command":"sleep 30","description":"Wait too long","timeoutMs":200}`}},
		{"bash_signalled", []string{`bash {"command":"echo before; kill -SEGV $$","description":"Crash"}`}},
		{"bash_truncated", []string{`bash {"command":"seq 1 200000","description":"Count far"}`}},
		{"bash_background", []string{
			`bash {"command":"sleep 30","description":"Wait in the background","run_in_background":true}`,
			`bash_output {"task_id":"bash-1"}`,
		}},
		{"bash_no_output", []string{`bash {"command":"true","description":"Nothing"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var script []llmtest.Response
			for i, c := range tt.calls {
				name, args, _ := strings.Cut(c, " ")
				script = append(script, llmtest.Reply(llmtest.ToolCall(callID(i), name, args, 2), llmtest.Finish("tool_calls")))
			}
			script = append(script, llmtest.ReplyText("Seen."))
			d := startDoor(t, doorConfig{mode: "full-access"}, script...)
			d.feed("run it")
			d.eof()
			d.wantExit(t, 0)
			screen := d.out.String()
			reqs := d.srv.Requests()
			for i := range tt.calls {
				model := reqs[i+1].ToolResult(callID(i))
				shown := shownResult(t, screen, i)
				if shown != model {
					t.Errorf("call %d: want line mode to show the model's text\n%q\ngot\n%q", i, model, shown)
				}
			}
			golden.File(t, tt.name, elide(normalise(screen, d.home)))
		})
	}
}

func callID(i int) string { return "call_" + string(rune('a'+i)) }

// shownResult is the text of the i-th [tool result] on the screen, its
// continuation lines unindented.
func shownResult(t *testing.T, screen string, i int) string {
	t.Helper()
	parts := strings.Split(screen, tagIndent+"[tool result] ")
	if len(parts) <= i+1 {
		t.Fatalf("want %d tool results on the screen, got %q", i+1, screen)
	}
	lines := strings.Split(parts[i+1], "\n")
	out := []string{lines[0]}
	for _, l := range lines[1:] {
		rest, ok := strings.CutPrefix(l, resultIndent)
		if !ok {
			break
		}
		out = append(out, rest)
	}
	return strings.Join(out, "\n")
}

// normalise replaces what changes from run to run: the home directory
// and the spill file's random name.
var spillName = regexp.MustCompile(`bash-[0-9]+-(stdout|stderr)\.log`)

func normalise(screen, home string) string {
	screen = strings.ReplaceAll(screen, home, "$TACK_HOME")
	screen = regexp.MustCompile(`spill/[0-9]{8}-[0-9]{6}-[0-9a-f]+/`).ReplaceAllString(screen, "spill/<session>/")
	return spillName.ReplaceAllString(screen, "bash-N-$1.log")
}

// elide keeps a golden file reviewable: a result of more than 12 lines
// keeps only its last 5 (where a truncated result's notice is; where the
// kept tail starts varies from run to run). The full text is checked
// against the model's above.
func elide(screen string) string {
	var out, block []string
	flush := func() {
		if len(block) > 12 {
			block = append([]string{tagIndent + "[tool result] [… lines left out of the golden file …]"}, block[len(block)-5:]...)
		}
		out, block = append(out, block...), nil
	}
	for _, l := range strings.Split(screen, "\n") {
		switch {
		case strings.HasPrefix(l, tagIndent+"[tool result] "):
			flush()
			block = []string{l}
		case len(block) > 0 && strings.HasPrefix(l, resultIndent):
			block = append(block, l)
		default:
			flush()
			out = append(out, l)
		}
	}
	flush()
	return strings.Join(out, "\n")
}
