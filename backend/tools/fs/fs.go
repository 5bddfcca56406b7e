// Package fs holds the file tools the model uses: read, write and edit.
// They share a per-session Tracker so that a file is only overwritten by a
// model that has seen its current content.
package fs

import (
	"bytes"
	"embed"
	"encoding/json"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the package's tools: their
// prose (tools.ProseFile) and the schemas of their arguments
// (tools.SchemaFile).
//
//go:embed read.md read.schema.json write.md write.schema.json
//go:embed edit.md edit.schema.json notebook.md notebook.schema.json
var specFiles embed.FS

// Result codes of the read-before-write policy.
const (
	CodeNotObserved  = "FS_NOT_OBSERVED"
	CodeStaleVersion = "FS_STALE_VERSION"
)

// New makes read, write and edit over one session's tracker, in that order.
// read refuses the secrets (tack's credentials file) and every process's
// environ.
func New(t *Tracker, secrets ...string) []tools.Tool {
	return []tools.Tool{&Read{tracker: t, secrets: secrets}, &Write{tracker: t}, &Edit{tracker: t}, &Notebook{tracker: t}}
}

// decodeArgs decodes a file tool's arguments into a, whose file_path field
// is path, and refuses an empty file_path, which every file tool takes.
func decodeArgs(raw json.RawMessage, a any, path *string) (tools.Result, bool) {
	if err := tools.DecodeArgs(raw, a); err != nil {
		return tools.InvalidArgs("%v", err), false
	}
	if *path == "" {
		return tools.InvalidArgs("invalid file_path: expected a non-empty string"), false
	}
	return tools.Result{}, true
}

// resolve makes p absolute, relative to the session's working directory.
func resolve(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// shown is how a card names path as the model wrote it: as display names
// it, or as written when cwd is unknown.
func shown(cwd, path string) string {
	if cwd == "" || path == "" {
		return path
	}
	return display(cwd, resolve(cwd, path))
}

// display is how a card names a path: relative to cwd when inside it.
func display(cwd, abs string) string {
	if cwd == "" {
		return abs
	}
	rel, err := filepath.Rel(cwd, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return rel
}

// sniffLen is how much of a file decides whether it is text.
const sniffLen = 8 << 10

// looksBinary reports whether head, the first bytes of a file, shows it is
// not UTF-8 text: a NUL byte or an invalid UTF-8 sequence. When the head is
// a prefix of a longer file, a rune cut at its end is not held against it.
func looksBinary(head []byte, prefix bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if prefix {
		for i := 0; i < utf8.UTFMax-1 && len(head) > 0; i++ {
			if utf8.Valid(head) {
				return false
			}
			head = head[:len(head)-1]
		}
	}
	return !utf8.Valid(head)
}

// binaryError is the refusal for files that are not UTF-8 text, with the
// way to work on them instead.
func binaryError(verb, path string) tools.Result {
	next := "inspect it with bash instead (file, xxd, strings)"
	switch {
	case verb == "edit":
		next = "change it with bash instead (sed, or iconv to convert it to UTF-8)"
	case strings.EqualFold(filepath.Ext(path), ".pdf"):
		next = "for a PDF, extract its text with bash instead (pdftotext -f FIRST -l LAST FILE -, from poppler-utils)"
	}
	return tools.Errorf("cannot %s %q: binary file (it contains NUL bytes or invalid UTF-8); only UTF-8 text files are supported, %s", verb, path, next)
}
