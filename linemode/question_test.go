package linemode

import (
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
)

var dbQuestion = interact.Question{
	ID: "db", Header: "Database", Question: "Which database?",
	Options: []interact.Option{
		{Label: "SQLite", Description: "a file"},
		{Label: "Postgres", Description: "a server", Recommended: true},
		{Label: "None"},
	},
	AllowCustom: true,
}

func TestQuestionPromptListsRecommendedOptionFirst(t *testing.T) {
	want := "\n[Database] Which database?\n" +
		"  1. Postgres (recommended)\n     a server\n" +
		"  2. SQLite\n     a file\n" +
		"  3. None\n> "
	if got := QuestionPrompt(dbQuestion); got != want {
		t.Errorf("want %q, got %q", want, got)
	}
}

func TestParseAnswer(t *testing.T) {
	multi := dbQuestion
	multi.MultiSelect = true
	closed := dbQuestion
	closed.AllowCustom = false
	noRecommendation := interact.Question{ID: "q", Question: "?", Options: []interact.Option{{Label: "a"}, {Label: "b"}}}
	free := interact.Question{ID: "f", Question: "Name?", AllowCustom: true}
	tests := []struct {
		name      string
		q         interact.Question
		line      string
		selected  []string
		custom    string
		wantReask string
	}{
		{"number picks the shown option", dbQuestion, "2", []string{"SQLite"}, "", ""},
		{"empty line picks the recommended option", dbQuestion, "  ", []string{"Postgres"}, "", ""},
		{"text is a custom answer", dbQuestion, " MySQL please ", []string{}, "MySQL please", ""},
		{"out of range re-asks", dbQuestion, "7", nil, "", "Please enter one of the option numbers or a custom answer."},
		{"multi-select takes commas and spaces", multi, "3, 1 3", []string{"None", "Postgres"}, "", ""},
		{"multi-select out of range re-asks", multi, "1,9", nil, "", "Please enter one of the option numbers (comma or space separated) or a custom answer."},
		{"text without custom answers re-asks", closed, "MySQL", nil, "", "Please enter one of the option numbers."},
		{"empty without a recommendation re-asks", noRecommendation, "", nil, "", "Please enter one of the option numbers."},
		{"free question takes text", free, "tack", []string{}, "tack", ""},
		{"free question re-asks on empty", free, "", nil, "", "Please enter an answer."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, reask, ok := ParseAnswer(tt.q, tt.line)
			if tt.wantReask != "" {
				if ok || reask != tt.wantReask {
					t.Fatalf("want re-ask %q, got ok=%v reask=%q", tt.wantReask, ok, reask)
				}
				return
			}
			if !ok {
				t.Fatalf("want an answer, got re-ask %q", reask)
			}
			if !reflect.DeepEqual(a.Selected, tt.selected) || a.Custom != tt.custom || a.ID != tt.q.ID {
				t.Errorf("want id %q selected %q custom %q, got %+v", tt.q.ID, tt.selected, tt.custom, a)
			}
		})
	}
}

func TestParseDecision(t *testing.T) {
	rememberable := interact.Approval{Tool: "bash", Summary: "ls", Remember: "ls"}
	once := interact.Approval{Tool: "bash", Summary: "ls"}
	tests := []struct {
		name string
		a    interact.Approval
		line string
		want interact.Decision
		ok   bool
	}{
		{"y allows", rememberable, "y", interact.Decision{Verdict: interact.Allow}, true},
		{"yes allows", rememberable, " YES ", interact.Decision{Verdict: interact.Allow}, true},
		{"a allows for the session", rememberable, "a", interact.Decision{Verdict: interact.AllowSession}, true},
		{"a is refused when nothing can be remembered", once, "a", interact.Decision{}, false},
		{"n denies", rememberable, "n", interact.Decision{Verdict: interact.Deny}, true},
		{"n with a reason passes it on", rememberable, "n use the read tool instead", interact.Decision{Verdict: interact.Deny, Reason: "use the read tool instead"}, true},
		{"empty re-asks", rememberable, "", interact.Decision{}, false},
		{"other words re-ask", rememberable, "maybe", interact.Decision{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reask, ok := ParseDecision(tt.a, tt.line)
			if ok != tt.ok || got != tt.want {
				t.Errorf("want %+v ok=%v, got %+v ok=%v (reask %q)", tt.want, tt.ok, got, ok, reask)
			}
			if !ok && reask == "" {
				t.Error("want a re-ask message when the line is no answer, got none")
			}
		})
	}
}

func TestApprovalPromptShowsToolSummaryDetailsAndChoices(t *testing.T) {
	got := ApprovalPrompt(interact.Approval{Tool: "bash", Summary: "rm -rf build", Details: "rm -rf build\necho done", Remember: "rm"}, "/w")
	want := "\n[approval] bash: rm -rf build\n    rm -rf build\n    echo done\n" +
		"allow? [y]es / [a]lways for this session (rm) / [n]o (reason)\n> "
	if got != want {
		t.Errorf("want %q, got %q", want, got)
	}
}

func TestApprovalPromptShowsWhatTheDialogShows(t *testing.T) {
	tests := []struct {
		name string
		a    interact.Approval
		want string
	}{
		{"a command in the session's directory", interact.Approval{Tool: "bash", Summary: "git push", Remember: "git push",
			Card: &card.Card{Kind: card.Terminal, Title: "git push", Description: "Publish the branch",
				Terminal: &card.TerminalView{Command: "git push"}}},
			"\n[approval] bash: git push\n    $ git push\n    in /work/repo\n    # Publish the branch\n" +
				"allow? [y]es / [a]lways for this session (git push) / [n]o (reason)\n> "},
		{"a command in the workdir the call names", interact.Approval{Tool: "bash", Summary: "make",
			Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: "make\nmake install", Cwd: "/work/repo/sub"}}},
			"\n[approval] bash: make\n    $ make\n      make install\n    in /work/repo/sub\n" +
				"allow? [y]es / [n]o (reason)\n> "},
		{"an edit with its diff", interact.Approval{Tool: "edit", Summary: "Edit main.go", Remember: "edit",
			Card: &card.Card{Kind: card.Diff, Title: "Edit main.go", Diffs: []card.FileDiff{{Path: "main.go", Added: 1, Removed: 1,
				Lines: []card.DiffLine{{Op: card.OpContext, Text: "package main"}, {Op: card.OpDelete, Text: "old()"}, {Op: card.OpAdd, Text: "new()"}}}}}},
			"\n[approval] edit: Edit main.go\n    main.go\n      package main\n    - old()\n    + new()\n    └ +1 -1 · 1 file\n" +
				"allow? [y]es / [a]lways for this session (edit) / [n]o (reason)\n> "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ApprovalPrompt(tt.a, "/work/repo"); got != tt.want {
				t.Errorf("want %q, got %q", tt.want, got)
			}
		})
	}
}
