package fs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Write is the write tool: create a file or replace its whole content.
type Write struct{ tracker *Tracker }

type writeArgs struct {
	FilePath string  `json:"file_path"`
	Content  *string `json:"content"`
}

// writeSchema is the JSON schema of write's arguments, from write.schema.json.
var writeSchema = tools.SchemaFile(specFiles, "write.schema.json")

// writeProse is what the model is told about the tool, from write.md.
var writeProse = tools.ProseFile(specFiles, "write.md")

// Spec describes write to the model.
func (*Write) Spec() tools.Spec {
	return tools.Spec{
		Name:        "write",
		Description: writeProse().Description,
		Schema:      writeSchema(),
		Guidance:    writeProse().Guidance,
		Access:      tools.AccessEdit,
	}
}

// Present is PresentIn with the file named as the model wrote it.
func (w *Write) Present(raw json.RawMessage) card.Card { return w.PresentIn(raw, "") }

// PresentIn shows the content to be written as added lines of the file
// named from cwd. It does not look at the disk, so a resumed session
// shows the same card.
func (*Write) PresentIn(raw json.RawMessage, cwd string) card.Card {
	var a writeArgs
	_ = json.Unmarshal(raw, &a)
	content := ""
	if a.Content != nil {
		content = *a.Content
	}
	name := shown(cwd, a.FilePath)
	return card.Card{Kind: card.Diff, Title: "Write " + name, Label: "Write", Subject: name,
		Diffs: []card.FileDiff{fileDiff(name, "", content, false)}}
}

// Validate says whether the write would be refused on the file as it is
// now.
func (w *Write) Validate(call tools.Call) (tools.Result, bool) {
	_, res, ok := w.change(call)
	return res, ok
}

// Preview is what the call would change in the file as it is now: an
// overwrite shows the lines that change among the file's, a new file its
// lines; not ok when the write would be refused or the file is binary.
func (w *Write) Preview(call tools.Call) (card.Card, bool) {
	ch, _, ok := w.change(call)
	if !ok || looksBinary([]byte(ch.before), false) {
		return card.Card{}, false
	}
	return *ch.card(call.Env.Cwd), true
}

// Run writes the file after the read-before-write and stale checks.
func (w *Write) Run(_ context.Context, call tools.Call) tools.Result {
	ch, res, ok := w.change(call)
	if !ok {
		return res
	}
	if err := os.MkdirAll(filepath.Dir(ch.path), 0o755); err != nil {
		return tools.Errorf("cannot write %q: %v", ch.path, err)
	}
	if err := writeObserved(w.tracker, ch.path, []byte(ch.content)); err != nil {
		return tools.Errorf("cannot write %q: %v", ch.path, err)
	}
	// Claude Code's Write answers in these sentences, which models trained
	// on it take as success; edit's sentence is the same.
	text := fmt.Sprintf("The file %s has been updated successfully.", ch.path)
	c := ch.card(call.Env.Cwd)
	if ch.existed {
		c.Original = original(ch.before)
	} else {
		text = fmt.Sprintf("File created successfully at: %s", ch.path)
	}
	return tools.Result{Text: text, Card: c}
}

// original is a changed file's text before the change, as its result's
// card keeps it: nil above card.OriginalTextLimit, and for a file that is
// not text (an image written over), which no answer shows as a string.
func original(before string) *string {
	if len(before) > card.OriginalTextLimit || !utf8.ValidString(before) || strings.IndexByte(before, 0) >= 0 {
		return nil
	}
	return &before
}

// writeChange is what a write does to its file as it is now.
type writeChange struct {
	path            string
	before, content string
	existed         bool
}

// change is what the call would do to the file as it is now, after the
// read-before-write and stale checks (a missing file needs no read); not
// ok with the result that says why it cannot.
func (w *Write) change(call tools.Call) (writeChange, tools.Result, bool) {
	var a writeArgs
	if res, ok := decodeArgs(call.Args, &a, &a.FilePath); !ok {
		return writeChange{}, res, false
	}
	if a.Content == nil {
		return writeChange{}, tools.InvalidArgs("invalid content: expected a string"), false
	}
	path := resolve(call.Env.Cwd, a.FilePath)
	content, info, res, ok := readExisting("write", path)
	switch {
	case !ok:
		return writeChange{}, res, false
	case info == nil:
		return writeChange{path: path, content: *a.Content}, tools.Result{}, true
	}
	if err := w.tracker.Check(path, versionOf(content, info)); err != nil {
		return writeChange{}, policyError(err), false
	}
	return writeChange{path: path, before: string(content), content: *a.Content, existed: true}, tools.Result{}, true
}

// card is the change's diff, its file named from cwd.
func (ch writeChange) card(cwd string) *card.Card {
	name := display(cwd, ch.path)
	return &card.Card{Kind: card.Diff, Title: "Write " + name, Label: "Write", Subject: name,
		Diffs: []card.FileDiff{fileDiff(name, ch.before, ch.content, !ch.existed)}}
}

// readExisting reads the regular file at path that the tool named verb is
// to change, for it to check against what the session read. info is nil
// for a missing file; any other failure is the tool's error.
func readExisting(verb, path string) (content []byte, info os.FileInfo, res tools.Result, ok bool) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, tools.Result{}, true
	case err != nil:
		return nil, nil, tools.Errorf("cannot %s %q: %v", verb, path, errors.Unwrap(err)), false
	}
	if res, ok := regularFile(verb, path, info); !ok {
		return nil, nil, res, false
	}
	content, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, tools.Errorf("cannot %s %q: %v", verb, path, errors.Unwrap(err)), false
	}
	return content, info, tools.Result{}, true
}

// policyError is the result for a Tracker refusal, with its code.
func policyError(err error) tools.Result {
	r := tools.Errorf("%v", err)
	r.Code = CodeStaleVersion
	if errors.Is(err, errNotRead) {
		r.Code = CodeNotObserved
	}
	return r
}

// writeObserved writes content to path, atomically, and records the new
// version, so the session may change the file again without reading it
// back.
func writeObserved(t *Tracker, path string, content []byte) error {
	if err := writeAtomic(path, content); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		var le *os.LinkError
		if errors.As(err, &le) {
			return le.Err
		}
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return errors.Unwrap(err)
	}
	t.Observe(path, versionOf(content, info))
	return nil
}
