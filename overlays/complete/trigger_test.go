package complete

import (
	"strings"
	"testing"
)

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
		{"cursor before the slash", "/model", 0, false, Trigger{}},
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

// Whatever the draft and wherever the cursor, a trigger is a span of the
// draft around the cursor that starts with its "/" or "@": what accepting
// a row replaces. (A cursor at the draft's start once sliced the text
// before it from its second byte: Home, or a recalled "/command" prompt,
// ended tack.)
func FuzzFindTrigger(f *testing.F) {
	for _, seed := range []string{"/mo", "/model deep", "see @ma please", `open @"my no`, "first\n@do", "/", "@", ""} {
		f.Add(seed, 0)
		f.Add(seed, len(seed))
	}
	f.Fuzz(func(t *testing.T, draft string, cursor int) {
		tr, ok := FindTrigger(draft, cursor)
		if !ok {
			return
		}
		cursor = min(max(0, cursor), len(draft))
		if tr.Start < 0 || tr.Start >= cursor || cursor > tr.End || tr.End > len(draft) {
			t.Fatalf("FindTrigger(%q, %d): span %d–%d is not around the cursor", draft, cursor, tr.Start, tr.End)
		}
		if lead := draft[tr.Start]; (lead != '/' && lead != '@') || !strings.Contains(draft[tr.Start:tr.End], tr.Query) {
			t.Fatalf("FindTrigger(%q, %d): %+v is not a trigger of the draft", draft, cursor, tr)
		}
	})
}
