package fs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Write is the write tool: create a file or replace its whole content.
type Write struct{ tracker *Tracker }

type writeArgs struct {
	FilePath string  `json:"file_path"`
	Content  *string `json:"content"`
}

var writeSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"file_path":{"type":"string","description":"Path of the file to write, absolute or relative to the working directory."},` +
	`"content":{"type":"string","description":"The complete new content of the file."}},` +
	`"required":["file_path","content"],"additionalProperties":false}`)

// Spec describes write to the model.
func (*Write) Spec() tools.Spec {
	return tools.Spec{
		Name: "write",
		Description: "Create a file, or replace the whole content of an existing one. Missing parent directories are " +
			"created. An existing file must have been read in this session and be unchanged on disk since.",
		Schema: writeSchema,
		Guidance: "Use write to create new files or to rewrite a file completely; prefer edit for changes to part " +
			"of an existing file. Read an existing file before overwriting it; if the file changed since you read " +
			"it, read it again and redo your change on the new content.",
		Access: tools.AccessEdit,
	}
}

// Present shows the content to be written as added lines. It does not look
// at the disk, so a resumed session shows the same card.
func (*Write) Present(raw json.RawMessage) card.Card {
	var a writeArgs
	_ = json.Unmarshal(raw, &a)
	content := ""
	if a.Content != nil {
		content = *a.Content
	}
	return card.Card{Kind: card.Diff, Title: "Write " + a.FilePath, Label: "Write", Subject: a.FilePath,
		Diffs: []card.FileDiff{fileDiff(a.FilePath, "", content, false)}}
}

// Preview is what the call would change in the file as it is now: an
// overwrite shows the lines that change among the file's, a new file its
// lines; not ok when the write would be refused or the file is binary.
func (w *Write) Preview(call tools.Call) (card.Card, bool) {
	var a writeArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil || a.FilePath == "" || a.Content == nil {
		return card.Card{}, false
	}
	path := resolve(call.Env.Cwd, a.FilePath)
	content, info, _, ok := readExisting("write", path)
	if !ok || looksBinary(content, false) {
		return card.Card{}, false
	}
	name := display(call.Env.Cwd, path)
	return card.Card{Kind: card.Diff, Title: "Write " + name, Label: "Write", Subject: name,
		Diffs: []card.FileDiff{fileDiff(name, string(content), *a.Content, info == nil)}}, true
}

// Run writes the file after the read-before-write and stale checks.
func (w *Write) Run(_ context.Context, call tools.Call) tools.Result {
	var a writeArgs
	if res, ok := decodeArgs(call.Args, &a, &a.FilePath); !ok {
		return res
	}
	if a.Content == nil {
		return tools.InvalidArgs("invalid content: expected a string")
	}
	path := resolve(call.Env.Cwd, a.FilePath)
	before, existed, res, ok := w.current(path)
	if !ok {
		return res
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return tools.Errorf("cannot write %q: %v", path, err)
	}
	if err := writeObserved(w.tracker, path, []byte(*a.Content)); err != nil {
		return tools.Errorf("cannot write %q: %v", path, err)
	}
	// Claude Code's Write answers in these sentences, which models trained
	// on it take as success; edit's sentence is the same.
	text := fmt.Sprintf("The file %s has been updated successfully.", path)
	if !existed {
		text = fmt.Sprintf("File created successfully at: %s", path)
	}
	title := "Write "
	name := display(call.Env.Cwd, path)
	c := &card.Card{Kind: card.Diff, Title: title + name, Label: "Write", Subject: name,
		Diffs: []card.FileDiff{fileDiff(name, before, *a.Content, !existed)}}
	return tools.Result{Text: text, Card: c}
}

// current is the content write replaces, after checking that the session
// may replace it. A missing file needs no read.
func (w *Write) current(path string) (before string, existed bool, res tools.Result, ok bool) {
	content, info, res, ok := readExisting("write", path)
	if !ok || info == nil {
		return "", false, res, ok
	}
	if err := w.tracker.Check(path, versionOf(content, info)); err != nil {
		return "", false, policyError(err), false
	}
	return string(content), true, tools.Result{}, true
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
