// Package spill keeps oversized tool results out of the model's context: the
// whole text goes to a file and the model reads a head and tail preview that
// names the file and says how to read more.
package spill

import (
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxInline is the largest result, in bytes, that the agent passes to the
// model unchanged.
const MaxInline = 50_000

// Spill returns text unchanged and false when it is at most max bytes.
// Otherwise it saves the whole text to a new file in dir (created 0700 if
// missing; the file is 0600 and named after name) and returns a preview and
// true: the head of the text, a notice giving the number of omitted bytes and
// the file path, and the tail. The preview is at most max bytes whenever max
// leaves room for the notice, and head and tail are cut on UTF-8 boundaries.
// When the file cannot be written the notice says so instead of naming it.
func Spill(dir, name, text string, max int) (string, bool) {
	if len(text) <= max {
		return text, false
	}
	where := store(dir, name, text)
	// Reserve the notice as if nothing fitted: the omitted count can only be
	// smaller, so the real notice is never longer than the reservation.
	room := max - len(notice(len(text), where)) - 2*len(gap)
	head, tail := "", ""
	if room > 0 {
		head = headOf(text, room/2)
		tail = tailOf(text, room-room/2)
	}
	omitted := len(text) - len(head) - len(tail)
	return head + gap + notice(omitted, where) + gap + tail, true
}

const gap = "\n\n"

// store writes text to a new file and returns the sentence that locates it.
func store(dir, name, text string) string {
	path, err := write(dir, name, text)
	if err != nil {
		return fmt.Sprintf("The full result could not be saved (%v).", err)
	}
	return fmt.Sprintf("Full formatted result stored at: %s. Use read with offset/limit, or grep this path to search within it.", path)
}

func notice(omitted int, where string) string {
	return fmt.Sprintf("(Omitted %d bytes. %s)", omitted, where)
}

func write(dir, name, text string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("no spill directory is configured")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create spill directory: %w", err)
	}
	f, err := os.CreateTemp(dir, safeName(name)+"-*.txt")
	if err != nil {
		return "", fmt.Errorf("create spill file: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("write spill file %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("close spill file %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// safeName keeps letters, digits, '-' and '_' so a tool name cannot steer
// the file elsewhere.
func safeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "result"
	}
	return b.String()
}

// headOf is the longest prefix of s of at most n bytes ending on a rune
// boundary.
func headOf(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailOf is the longest suffix of s of at most n bytes starting on a rune
// boundary.
func tailOf(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
