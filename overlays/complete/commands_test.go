package complete

import (
	"strings"
	"testing"
)

func builtins() []Command {
	return []Command{
		{Name: "compact", Description: "Summarize older history"},
		{Name: "copy", Description: "Copy the last answer"},
		{Name: "details", Hint: "[collapsed|expanded|hidden]", Description: "Tool card and reasoning visibility"},
		{Name: "model", Hint: "[provider/]model", Description: "Pick the model"},
		{Name: "resume", Hint: "[id]", Description: "Resume a session"},
		{Name: "status", Description: "Show session status"},
	}
}

func names(cs []Command) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return strings.Join(out, " ")
}

func TestMatchCommands(t *testing.T) {
	uses := map[string]int{"status": 5, "copy": 2}
	tests := []struct {
		query string
		uses  map[string]int
		want  string
	}{
		{"", nil, "compact copy details model resume status"},
		{"", uses, "status copy compact details model resume"},
		{"co", nil, "compact copy"},
		{"co", uses, "copy compact"},
		{"s", nil, "status resume details"},
		{"MOD", nil, "model"},
		{"xyz", nil, ""},
	}
	for _, tt := range tests {
		if got := names(MatchCommands(builtins(), tt.query, tt.uses)); got != tt.want {
			t.Errorf("MatchCommands(%q, %v): want %q, got %q", tt.query, tt.uses, tt.want, got)
		}
	}
}
