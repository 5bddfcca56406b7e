package permission

import (
	"encoding/json"
	"testing"
)

// A hook's "if" names calls as a deny rule does: any command of a line,
// any file, the domain; a line the parser cannot read runs the hook, as
// Claude Code's best-effort matching does.
func TestConditionCoversTheCallsItsRuleNames(t *testing.T) {
	cases := []struct {
		rule, tool, input string
		want              bool
	}{
		{"Bash(git commit:*)", "bash", `{"command":"git add -A && git commit -m x"}`, true},
		{"Bash(git commit:*)", "bash", `{"command":"git status"}`, false},
		{"Bash", "bash", `{"command":"ls"}`, true},
		{"Bash(git push *)", "bash", `{"command":"echo $(( $(git push) ))"}`, true},
		{"Edit(src/**)", "write", `{"file_path":"/w/src/a.go"}`, true},
		{"Edit(src/**)", "edit", `{"file_path":"/w/docs/a.md"}`, false},
		{"Read(~/.ssh/**)", "read", `{"file_path":"/home/u/.ssh/id_rsa"}`, true},
		{"WebFetch(domain:docs.rs)", "web_fetch", `{"url":"https://docs.rs/x"}`, true},
		{"Bash(git push *)", "edit", `{"file_path":"/w/a"}`, false},
	}
	for _, c := range cases {
		cond, err := ParseCondition(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		if got := cond.Covers(c.tool, json.RawMessage(c.input), "/w", "/home/u"); got != c.want {
			t.Errorf("%s over %s %s: want %v, got %v", c.rule, c.tool, c.input, c.want, got)
		}
	}
	for _, bad := range []string{"Bash(git push *", "tool_input.command matches 'rm'", "Bash(a)(b)", ""} {
		if _, err := ParseCondition(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}
