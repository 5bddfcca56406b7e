package commands

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var commandName = regexp.MustCompile(`^[a-z0-9_-]+(\.[a-z0-9_-]+)*(:[a-z0-9_-]+(\.[a-z0-9_-]+)*)*$`)

// FuzzParse checks Parse against the command syntax on any line: a command
// is "/", a name of lowercase letters, digits, '_' and '-' in parts joined
// by single ':' or '.', then the end or whitespace; the name and rawInput rebuild the line exactly, and every
// line of that shape is a command.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"/plan", "/plan x", "/plan\tx y", "/plan\nline two", "/plan\u00a0x", "/a_b-9", "/Plan", "/ plan", " /plan",
		"/", "", "//x", "/plan!", "/plan\xff", "/plan\u2003x", "/model deepseek-v4-pro high", "plain prompt",
		"/frontend:review x", "/skill:pdf", "/:", "/a:", "/a::b", "/:a", "/skill:a.b c", "/a.", "/a..b", "/.a", "/a.:b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, rawInput, ok := Parse(line)
		if want := isCommandLine(line); ok != want {
			t.Fatalf("Parse(%q): want ok %v, got %v", line, want, ok)
		}
		if !ok {
			if name != "" || rawInput != "" {
				t.Fatalf("Parse(%q): want empty results when not a command, got (%q, %q)", line, name, rawInput)
			}
			if msg := UnknownMessage(line, nil); !strings.HasPrefix(msg, "Unknown command: ") {
				t.Fatalf("UnknownMessage(%q): want the unknown command prefix, got %q", line, msg)
			}
			return
		}
		if line[0] != '/' {
			t.Fatalf("Parse(%q): want a command only at a leading slash", line)
		}
		if !commandName.MatchString(name) || !ValidName(name) {
			t.Fatalf("Parse(%q): want a lowercase name of [a-z0-9_-] parts joined by ':' or '.', got %q", line, name)
		}
		if got := "/" + name + rawInput; got != line {
			t.Fatalf("Parse(%q): want the parts to rebuild the line, got %q", line, got)
		}
		if r, _ := utf8.DecodeRuneInString(rawInput); rawInput != "" && !unicode.IsSpace(r) {
			t.Fatalf("Parse(%q): want rawInput empty or starting with whitespace, got %q", line, rawInput)
		}
	})
}

// isCommandLine is the syntax written the other way round: split off the
// longest name after the slash and look at what follows it.
func isCommandLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "/")
	if !ok {
		return false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789_-:.", r) })
	if end < 0 {
		end = len(rest)
	}
	if !commandName.MatchString(rest[:end]) {
		return false
	}
	if end == len(rest) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest[end:])
	return unicode.IsSpace(r)
}
