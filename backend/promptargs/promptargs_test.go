package promptargs

import (
	"strings"
	"testing"
)

// Claude Code's dialect is held to recordings of Claude Code itself by
// customcmd's TestExpandFillsPlaceholdersAsClaudeCodeDoes.

// Codex's prompts fill $1…$9 from the first word and take $$ for a dollar.
func TestExpandFillsCodexPlaceholders(t *testing.T) {
	got := Expand(CodexDialect, "Fix issue #$1 with priority $2 ($$5 budget).\nAll: $ARGUMENTS\nMissing: [$3]", `  123 "very high"  `, nil)
	want := "Fix issue #123 with priority very high ($5 budget).\nAll: 123 \"very high\"\nMissing: []"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := Expand(CodexDialect, "Review the staged diff.", "focus on tests", nil); got != "Review the staged diff.\n\nfocus on tests" {
		t.Errorf("a prompt without placeholders lost the input: %q", got)
	}
	if got := Expand(CodexDialect, "Review the staged diff.", "", nil); got != "Review the staged diff." {
		t.Errorf("got %q", got)
	}
}

func TestSplitArgsLikeAShell(t *testing.T) {
	got := SplitArgs(`a "b c" 'd "e"' f\ g ""`)
	want := []string{"a", "b c", `d "e"`, "f g", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
