package subagent

import (
	"reflect"
	"strings"
	"testing"
)

func TestAgentsFlagDefinesAgentsAsClaudeCodeWritesThem(t *testing.T) {
	defs, err := FromJSON([]byte(`{"reviewer": {"description": "Reviews", "prompt": "Review.", "tools": ["Read", "Bash(git diff:*)", "KillShell"], "model": "claude-sonnet-4-5"},
		"scout": {"description": "Looks", "prompt": "Look.", "model": "deepseek-flash"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Definition{
		{Name: "reviewer", Description: "Reviews", Prompt: "Review.", Tools: []string{"read", "bash", "bash_kill"}, ClaudeModel: "claude-sonnet-4-5", Path: "--agents"},
		{Name: "scout", Description: "Looks", Prompt: "Look.", Model: "deepseek-flash", Path: "--agents"},
	}
	if !reflect.DeepEqual(defs, want) {
		t.Errorf("got %+v\nwant %+v", defs, want)
	}
	merged := With([]Definition{General(), {Name: "reviewer", Description: "from a file"}}, defs)
	if r, _ := Find(merged, "reviewer"); r.Path != "--agents" || len(merged) != 3 {
		t.Errorf("want the flag's reviewer to replace the file's, got %+v", merged)
	}
	for in, want := range map[string]string{`[]`: "not an object of agents by name", `{"x": {"description": "d"}}`: `needs a "description" and a "prompt"`} {
		if _, err := FromJSON([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", in, want, err)
		}
	}
}
