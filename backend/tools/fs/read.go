package fs

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// Limits of read.
const (
	readLimit       = 2000   // lines per call, default and maximum
	readMaxLineLen  = 2000   // runes kept of one line
	readMaxBytes    = 51_200 // bytes of line text per call
	lineTruncSuffix = "... (line truncated to 2000 chars)"
	// With allow_large, Claude Code's way of asking for a whole large
	// file: about 100,000 tokens, a tenth of DeepSeek's window.
	readLargeLimit    = 20_000
	readLargeMaxBytes = 400_000
)

// Read is the read tool: a window of a UTF-8 text file, line-numbered.
type Read struct {
	tracker *Tracker
	// secrets are files read refuses (tack's credentials).
	secrets []string
}

type readArgs struct {
	FilePath string `json:"file_path"`
	Offset   *int   `json:"offset"`
	Limit    *int   `json:"limit"`
	// AllowLarge and Pages are Claude Code's Read's: a larger window, and
	// a PDF's pages, which read cannot open (it says how to).
	AllowLarge bool   `json:"allow_large"`
	Pages      string `json:"pages"`
}

// readSchema is the JSON schema of read's arguments, from read.schema.json.
var readSchema = tools.SchemaFile(specFiles, "read.schema.json")

// readProse is what the model is told about the tool, from read.md.
var readProse = tools.ProseFile(specFiles, "read.md",
	"{{max_lines}}", strconv.Itoa(readLimit),
	"{{max_kb}}", strconv.Itoa(readMaxBytes/1024),
	"{{max_line_chars}}", strconv.Itoa(readMaxLineLen))

// Spec describes read to the model.
func (*Read) Spec() tools.Spec {
	return tools.Spec{
		Name:         "read",
		Description:  readProse().Description,
		Schema:       readSchema(),
		Guidance:     readProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

// Present is PresentIn with the file named as the model wrote it.
func (r *Read) Present(raw json.RawMessage) card.Card { return r.PresentIn(raw, "") }

// PresentIn is the read card before the result: the file named from cwd
// and the requested range.
func (*Read) PresentIn(raw json.RawMessage, cwd string) card.Card {
	var a readArgs
	_ = json.Unmarshal(raw, &a)
	name := shown(cwd, a.FilePath)
	title := "Read " + name
	lines := ""
	if a.Offset != nil || a.Limit != nil {
		first, n := 1, readLimit
		if a.Offset != nil {
			first = *a.Offset
		}
		if a.Limit != nil {
			n = *a.Limit
		}
		lines = fmt.Sprintf("lines %d-%d", first, first+n-1)
		title += fmt.Sprintf(" (%d-%d)", first, first+n-1)
	}
	return card.Card{Kind: card.Read, Title: title, Label: "Read", Subject: name, Description: lines}
}

// Run reads the window and records the file's version in the tracker.
func (r *Read) Run(ctx context.Context, call tools.Call) tools.Result {
	var a readArgs
	if res, ok := decodeArgs(call.Args, &a, &a.FilePath); !ok {
		return res
	}
	maxLines, maxBytes := readLimit, readMaxBytes
	if a.AllowLarge {
		maxLines, maxBytes = readLargeLimit, readLargeMaxBytes
	}
	offset, limit := 1, maxLines
	if a.Offset != nil {
		if *a.Offset < 1 {
			return tools.InvalidArgs("offset must be greater than or equal to 1")
		}
		offset = *a.Offset
	}
	if a.Limit != nil {
		if *a.Limit < 1 {
			return tools.InvalidArgs("limit must be greater than or equal to 1")
		}
		if *a.Limit > maxLines {
			return tools.InvalidArgs("limit must be less than or equal to %d", maxLines)
		}
		limit = *a.Limit
	}
	cwd := call.Env.Cwd
	path := resolve(cwd, a.FilePath)
	if why := r.refusal(path); why != "" {
		return tools.Errorf("read refuses %s: %s. Do not try to read it another way; ask the user if you need what it holds.", a.FilePath, why)
	}
	if isImageFile(path) {
		return readImage(call.Env, path, display(cwd, path))
	}
	if a.Offset == nil && a.Limit == nil && isNotebook(path) {
		if res, ok := r.readNotebook(path, display(cwd, path)); ok {
			return res
		}
	}
	w, res, ok := r.readWindow(ctx, path, offset, limit, maxBytes)
	if !ok {
		return res
	}
	text := w.format(offset)
	return tools.Result{Text: text, Card: w.card(display(cwd, path), offset, limit)}
}

// readWindow opens, checks and scans the file, recording its version.
func (r *Read) readWindow(ctx context.Context, path string, offset, limit, maxBytes int) (window, tools.Result, bool) {
	// Stat before opening: opening a FIFO would block until a writer came.
	if info, err := os.Stat(path); err != nil {
		return window{}, openError("read", path, err), false
	} else if res, ok := regularFile("read", path, info); !ok {
		return window{}, res, false
	}
	f, err := os.Open(path)
	if err != nil {
		return window{}, openError("read", path, err), false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return window{}, tools.Errorf("cannot read %q: %v", path, err), false
	}
	if res, ok := regularFile("read", path, info); !ok {
		return window{}, res, false
	}
	hr := newHashingReader(f)
	br := bufio.NewReaderSize(hr, 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return window{}, tools.Errorf("cannot read %q: %v", path, err), false
	}
	if looksBinary(head, len(head) == sniffLen) {
		return window{}, binaryError("read", path), false
	}
	w, err := scanWindow(ctx, br, offset, limit, maxBytes)
	if err != nil {
		return window{}, tools.Errorf("cannot read %q: %v", path, err), false
	}
	if w.total < offset && !(w.total == 0 && offset == 1) {
		return window{}, tools.Errorf("offset %d is out of range for %q (%d lines)", offset, path, w.total), false
	}
	v, err := hr.version(info)
	if err != nil {
		return window{}, tools.Errorf("cannot read %q: %v", path, err), false
	}
	r.tracker.Observe(path, v)
	return w, tools.Result{}, true
}

// regularFile refuses what is not a regular file, pointing read at glob
// for a directory.
func regularFile(verb, path string, info os.FileInfo) (tools.Result, bool) {
	switch {
	case info.Mode().IsRegular():
		return tools.Result{}, true
	case info.IsDir() && verb == "read":
		return tools.Errorf("cannot read %q: not a regular file (it is a directory; use glob to list its files)", path), false
	}
	return tools.Errorf("cannot %s %q: not a regular file", verb, path), false
}

// openError turns an open failure into the model-facing error.
func openError(verb, path string, err error) tools.Result {
	if errors.Is(err, fs.ErrNotExist) {
		return tools.Errorf("cannot %s %q: not found", verb, path)
	}
	return tools.Errorf("cannot %s %q: %v", verb, path, errors.Unwrap(err))
}

// window is the part of a file one read shows.
type window struct {
	lines []string // shown lines, already cut to readMaxLineLen
	total int      // lines in the file; only lines up to the window when capped
	more  bool     // lines after the window exist
	// capped says the byte budget ended the window; total is then unknown.
	capped bool
	// newline says the last line scanned ended with a newline.
	newline bool
}

// format renders the window as Claude Code's Read does, `cat -n` style:
// models trained on it (DeepSeek's among them) strip exactly that prefix
// when they quote a line back to edit, and it needs no envelope. The
// footer, after a blank line, says where the window ends.
func (w window) format(offset int) string {
	var b strings.Builder
	for i, l := range w.lines {
		fmt.Fprintf(&b, "%6d→%s\n", offset+i, l)
	}
	if len(w.lines) > 0 {
		b.WriteString("\n")
	}
	last := offset + len(w.lines) - 1
	switch {
	case w.capped:
		fmt.Fprintf(&b, "(Output capped. Showing lines %d-%d. Use offset=%d to continue.)", offset, last, last+1)
	case w.more:
		fmt.Fprintf(&b, "(Showing lines %d-%d of %d. Use offset=%d to continue.)", offset, last, w.total, last+1)
	default:
		fmt.Fprintf(&b, "(End of file - total %d lines)", w.total)
	}
	return b.String()
}

// card is the read result card: the numbered lines without the envelope,
// the numbers right-aligned and the tabs of the text expanded, so every
// line's indentation starts in the same column as it does in an editor.
func (w window) card(name string, offset, limit int) *card.Card {
	var b strings.Builder
	digits := len(strconv.Itoa(offset + len(w.lines) - 1))
	for i, l := range w.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%*d", digits, offset+i)
		if l != "" {
			b.WriteString("  " + detab(l))
		}
	}
	partial := w.more || w.capped || offset > 1
	title := "Read " + name
	lines := ""
	if partial && len(w.lines) > 0 {
		lines = fmt.Sprintf("lines %d-%d", offset, offset+len(w.lines)-1)
		title += fmt.Sprintf(" (%d-%d)", offset, offset+len(w.lines)-1)
	}
	summary := fmt.Sprintf("Read %d lines", len(w.lines))
	if len(w.lines) == 1 {
		summary = "Read 1 line"
	}
	return &card.Card{Kind: card.Read, Title: title, Label: "Read", Subject: name, Description: lines,
		Summary: summary, Body: b.String(), Truncated: partial,
		Window: &card.LineWindow{Start: offset, Lines: len(w.lines), Total: w.total, Limit: limit, Capped: w.capped,
			Newline: w.newline && !w.capped}}
}

// cardTabWidth is the distance between tab stops in a read card.
const cardTabWidth = 4

// detab expands the tabs of a line to stops every cardTabWidth columns of
// the line itself (a rune counts as one column).
func detab(line string) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := cardTabWidth - col%cardTabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}
