package fs

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Edit is the edit tool: replace an exact string in a file.
type Edit struct{ tracker *Tracker }

type editArgs struct {
	FilePath   string  `json:"file_path"`
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

// editSchema is the JSON schema of edit's arguments, from edit.schema.json.
var editSchema = tools.SchemaFile(specFiles, "edit.schema.json")

// editProse is what the model is told about the tool, from edit.md.
var editProse = tools.ProseFile(specFiles, "edit.md")

// Spec describes edit to the model.
func (*Edit) Spec() tools.Spec {
	return tools.Spec{
		Name:        "edit",
		Description: editProse().Description,
		Schema:      editSchema(),
		Guidance:    editProse().Guidance,
		Access:      tools.AccessEdit,
	}
}

// Present is PresentIn with the file named as the model wrote it.
func (e *Edit) Present(raw json.RawMessage) card.Card { return e.PresentIn(raw, "") }

// PresentIn shows old_string replaced by new_string in the file named from
// cwd. It does not look at the disk, so a resumed session shows the same
// card.
func (*Edit) PresentIn(raw json.RawMessage, cwd string) card.Card {
	var a editArgs
	_ = json.Unmarshal(raw, &a)
	var before, after string
	if a.OldString != nil {
		before = *a.OldString
	}
	if a.NewString != nil {
		after = *a.NewString
	}
	name := shown(cwd, a.FilePath)
	return card.Card{Kind: card.Diff, Title: "Edit " + name, Label: "Edit", Subject: name,
		Diffs: []card.FileDiff{unnumbered(fileDiff(name, before, after, false))}}
}

// Validate says whether the call would fail on the file as it is now.
func (e *Edit) Validate(call tools.Call) (tools.Result, bool) {
	_, res, ok := e.change(call)
	return res, ok
}

// Preview is the change the call would make to the file as it is now,
// numbered by its lines, for the approval; not ok when the call would
// fail (Run then says why).
func (e *Edit) Preview(call tools.Call) (card.Card, bool) {
	ch, _, ok := e.change(call)
	if !ok {
		return card.Card{}, false
	}
	return *ch.card(call.Env.Cwd), true
}

// Run applies the replacement after the read-before-write and stale checks.
func (e *Edit) Run(_ context.Context, call tools.Call) tools.Result {
	ch, res, ok := e.change(call)
	if !ok {
		return res
	}
	a, path := ch.args, ch.path
	text := fmt.Sprintf("The file %s has been updated successfully.", path)
	if a.ReplaceAll {
		// Claude Code's sentence, which quotes both strings (clipped here).
		text = fmt.Sprintf("The file %s has been updated. All occurrences of '%s' were successfully replaced with '%s'.",
			path, clipQuoted(*a.OldString), clipQuoted(*a.NewString))
	}
	if err := writeObserved(e.tracker, path, []byte(ch.after)); err != nil {
		return tools.Errorf("cannot edit %q: %v", path, err)
	}
	c := ch.card(call.Env.Cwd)
	c.Original = original(ch.before)
	return tools.Result{Text: text, Card: c}
}

// editChange is what an edit does to its file as it is now.
type editChange struct {
	args          editArgs
	path          string
	before, after string
}

// change is what the call would do to the file as it is now, after the
// read-before-write and stale checks; not ok with the result that says
// why it cannot.
func (e *Edit) change(call tools.Call) (editChange, tools.Result, bool) {
	a, res, ok := editArguments(call.Args)
	if !ok {
		return editChange{}, res, false
	}
	path := resolve(call.Env.Cwd, a.FilePath)
	if isNotebook(path) {
		// As Claude Code's Edit: a cell's lines are escaped strings in
		// the notebook's JSON, which read does not show.
		return editChange{}, tools.Errorf("%s is a Jupyter notebook: change its cells with notebook_edit", path), false
	}
	before, res, ok := e.current(path)
	if !ok {
		return editChange{}, res, false
	}
	after, n := replacement(before, a)
	switch {
	case n == 0 && hasLinePrefixes(*a.OldString):
		return editChange{}, tools.Errorf("old_string was not found in %s; it seems to include the line numbers and `→` that read puts before each line, which are not part of the file: copy the text after the `→`", path), false
	case n == 0:
		return editChange{}, tools.Errorf("old_string was not found in %s; read the file again and copy the exact text, including whitespace", path), false
	case n > 1 && !a.ReplaceAll:
		return editChange{}, tools.Errorf("old_string matches %d places in %s; include more surrounding lines to make it unique, or set replace_all", n, path), false
	}
	return editChange{args: a, path: path, before: before, after: after}, tools.Result{}, true
}

// card is the change's diff, its file named from cwd.
func (ch editChange) card(cwd string) *card.Card {
	name := display(cwd, ch.path)
	return &card.Card{Kind: card.Diff, Title: "Edit " + name, Label: "Edit", Subject: name,
		Diffs: []card.FileDiff{editDiff(name, ch.before, ch.after, ch.args)}}
}

// replacement is before with the call's old_string replaced (every
// occurrence with replace_all), and how many places it matched; when it
// matched none, or several without replace_all, after is "".
func replacement(before string, a editArgs) (after string, matches int) {
	old, repl := intended(before, *a.OldString, *a.NewString)
	n := strings.Count(before, old)
	switch {
	case n == 0 || (n > 1 && !a.ReplaceAll):
		return "", n
	case repl == "" && !strings.HasSuffix(old, "\n"):
		return deleteLines(before, old, a.ReplaceAll), n
	case a.ReplaceAll:
		return strings.ReplaceAll(before, old, repl), n
	}
	return strings.Replace(before, old, repl, 1), n
}

// editArguments decodes and validates edit's arguments.
func editArguments(raw json.RawMessage) (editArgs, tools.Result, bool) {
	var a editArgs
	if res, ok := decodeArgs(raw, &a, &a.FilePath); !ok {
		return a, res, false
	}
	switch {
	case a.OldString == nil || *a.OldString == "":
		return a, tools.InvalidArgs("old_string must be a non-empty string"), false
	case a.NewString == nil:
		return a, tools.InvalidArgs("invalid new_string: expected a string"), false
	case *a.OldString == *a.NewString:
		return a, tools.InvalidArgs("old_string and new_string must differ"), false
	}
	return a, tools.Result{}, true
}

// current is the text file's content, if the session may change it.
func (e *Edit) current(path string) (string, tools.Result, bool) {
	content, info, res, ok := readExisting("edit", path)
	switch {
	case !ok:
		return "", res, false
	case info == nil:
		return "", tools.Errorf("cannot edit %q: not found; use write to create a new file", path), false
	case looksBinary(content, false):
		return "", binaryError("edit", path), false
	}
	if err := e.tracker.Check(path, versionOf(content, info)); err != nil {
		return "", policyError(err), false
	}
	return string(content), tools.Result{}, true
}

// maxQuoted bounds a string quoted back in replace_all's sentence.
const maxQuoted = 80

func clipQuoted(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return s
	}
	return string([]rune(s)[:maxQuoted]) + "…"
}

// linePrefix is what read puts before every line: the number, right-
// aligned, and an arrow (see window.format).
var linePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ *[0-9]+→`) })

// hasLinePrefixes reports whether every non-empty line of s starts like a
// line of read's output, the usual reason a copied old_string is not found.
func hasLinePrefixes(s string) bool {
	seen := false
	for _, l := range strings.Split(s, "\n") {
		if l == "" {
			continue
		}
		if !linePrefix().MatchString(l) {
			return false
		}
		seen = true
	}
	return seen
}
