package mention

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// claudeCodeMentions is one prompt's mentions, each of a file or folder
// of its own, and what Claude Code 2.1.332 attached for each: the Read it
// made (with the offset and limit of a #L suffix), the folder it listed,
// or nothing (testdata/claudecode/record.py mentions).
const claudeCodeMentions = "../../testdata/claudecode/cc-2.1.332.mentions.json"

// recordedMention is one case of the recording; JSON's keys match the
// fields' names.
type recordedMention struct {
	Name, Text, Path string
	Absent           bool
	Attached         *struct{ Offset, Limit int }
}

// TestFindReadsMentionsAsClaudeCodeDoes finds the mentions of the
// recorded prompt and wants a mention of each path Claude Code attached,
// with its lines, and none of the others. Named differences: tack reads
// a mention in brackets, (@notes.txt), and a quoted one, @"a b.txt", as
// its image mentions always have; Claude Code 2.1.332 leaves both as
// text. (A mention of a file that is not there is the caller's to drop.)
func TestFindReadsMentionsAsClaudeCodeDoes(t *testing.T) {
	var cases []recordedMention
	testkit.ReadJSON(t, claudeCodeMentions, &cases)
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.Text
	}
	found := map[string]Ref{}
	for _, ref := range Find(strings.Join(texts, " ; ")) {
		found[filepath.Clean(ref.Name)] = ref
	}
	differs := map[string]bool{"bracket": true, "quoted": true}
	for _, c := range cases {
		ref, ok := found[c.Path]
		switch {
		case c.Absent:
		case c.Attached == nil && !differs[c.Name]:
			if ok {
				t.Errorf("%s: %s is text to Claude Code, got the mention %+v", c.Name, c.Text, ref)
			}
		case !ok:
			t.Errorf("%s: want %s read as a mention of %s, as Claude Code attached it (%+v)", c.Name, c.Text, c.Path, c.Attached)
		case c.Attached != nil && c.Attached.Offset > 0 && (ref.Line != c.Attached.Offset || ref.End-ref.Line+1 != c.Attached.Limit):
			t.Errorf("%s: %s: got lines %d-%d, want %d lines from %d", c.Name, c.Text, ref.Line, ref.End, c.Attached.Limit, c.Attached.Offset)
		case c.Attached != nil && c.Attached.Offset == 0 && ref.Line != 0:
			t.Errorf("%s: %s: want the whole file, got lines %d-%d", c.Name, c.Text, ref.Line, ref.End)
		}
	}
}

func TestFindKeepsALineSuffixItCannotRead(t *testing.T) {
	for text, want := range map[string]Ref{
		"@a.go#L5-2": {Name: "a.go#L5-2"},
		"@a.go#L0":   {Name: "a.go#L0"},
		"@a.go#Lx":   {Name: "a.go#Lx"},
		"@#L3":       {Name: "#L3"},
		"@a.go#L7.":  {Name: "a.go", Line: 7, End: 7},
	} {
		if got := Find(text); len(got) != 1 || got[0] != want {
			t.Errorf("%s: got %+v, want %+v", text, got, want)
		}
	}
}
