package complete

import "testing"

func TestFindTrigger(t *testing.T) {
	tests := []struct {
		name, draft string
		cursor      int
		ok          bool
		want        Trigger
	}{
		{"slash command", "/mo", 3, true, Trigger{Kind: CommandTrigger, End: 3, Query: "mo"}},
		{"slash with cursor inside", "/model", 2, true, Trigger{Kind: CommandTrigger, End: 6, Query: "m"}},
		{"command argument closes", "/model deep", 11, false, Trigger{}},
		{"slash not at start", "a /mo", 5, false, Trigger{}},
		{"at at start", "@src/ma", 7, true, Trigger{Kind: FileTrigger, End: 7, Query: "src/ma"}},
		{"at after space", "see @ma please", 7, true, Trigger{Kind: FileTrigger, Start: 4, End: 7, Query: "ma"}},
		{"bare at", "look @", 6, true, Trigger{Kind: FileTrigger, Start: 5, End: 6}},
		{"email does not trigger", "mail a@b", 8, false, Trigger{}},
		{"space ends the token", "@main.go and", 12, false, Trigger{}},
		{"quoted with spaces", `open @"my no`, 12, true, Trigger{Kind: FileTrigger, Start: 5, End: 12, Query: "my no", Quoted: true}},
		{"closed quote ends it", `@"my notes.md" x`, 16, false, Trigger{}},
		{"quoted spans to its closing quote", `@"my n" x`, 5, true, Trigger{Kind: FileTrigger, End: 7, Query: "my ", Quoted: true}},
		{"after newline", "first\n@do", 9, true, Trigger{Kind: FileTrigger, Start: 6, End: 9, Query: "do"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FindTrigger(tt.draft, tt.cursor)
			if ok != tt.ok || got != tt.want {
				t.Errorf("FindTrigger(%q, %d): want %v %+v, got %v %+v", tt.draft, tt.cursor, tt.ok, tt.want, ok, got)
			}
		})
	}
}

func TestFileText(t *testing.T) {
	tests := []struct {
		path   string
		quoted bool
		want   string
	}{
		{"main.go", false, "@main.go "},
		{"src/", false, "@src/"},
		{"docs/my notes.md", false, `@"docs/my notes.md" `},
		{"my docs/", false, `@"my docs/`},
		{"main.go", true, `@"main.go" `},
	}
	for _, tt := range tests {
		if got := FileText(tt.path, tt.quoted); got != tt.want {
			t.Errorf("FileText(%q, %v): want %q, got %q", tt.path, tt.quoted, tt.want, got)
		}
	}
}
