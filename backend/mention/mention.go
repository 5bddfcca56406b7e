// Package mention reads the @mentions of a message: the files, folders
// and images a user names with @, as Claude Code reads them. It only
// reads the text; what a mention names on disk is for its callers.
package mention

import (
	"strconv"
	"strings"
	"unicode"
)

// Ref is one mention.
type Ref struct {
	// Name is the path as written, unquoted: relative to the working
	// directory, or absolute.
	Name string
	// Line and End are the lines a #L3-5 or #L4 suffix asks for, End
	// equal to Line for one line; both 0 for the whole file.
	Line, End int
}

// Find lists the mentions of text in order: an @ that starts the text or
// follows white space or an opening bracket, then a name that is quoted
// (@"docs/arch diagram.png") or runs to white space or a closing bracket,
// without the punctuation that ends a sentence after it (@notes.txt,).
// An e-mail address is no mention.
func Find(text string) []Ref {
	var out []Ref
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !unicode.IsSpace(rune(text[i-1])) && text[i-1] != '(') {
			continue
		}
		name, n := nameAt(text[i+1:])
		i += n
		if name == "" {
			continue
		}
		ref := Ref{Name: name}
		if base, lines, ok := strings.Cut(name, "#L"); ok && base != "" {
			if first, last, ok := lineRange(lines); ok {
				ref = Ref{Name: base, Line: first, End: last}
			}
		}
		out = append(out, ref)
	}
	return out
}

// nameAt reads the name after an @: quoted, or up to white space or a
// closing bracket, without trailing punctuation. n is how many bytes it
// took.
func nameAt(s string) (name string, n int) {
	if strings.HasPrefix(s, `"`) {
		if end := strings.IndexByte(s[1:], '"'); end >= 0 {
			return s[1 : 1+end], end + 2
		}
		return "", 0
	}
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ')' })
	if end < 0 {
		end = len(s)
	}
	return strings.TrimRight(s[:end], ".,;:!?"), end
}

// lineRange reads "3-5" or "4" of a #L suffix: a first line of 1 or more
// and a last one not before it.
func lineRange(s string) (first, last int, ok bool) {
	a, b, isRange := strings.Cut(s, "-")
	first, err := strconv.Atoi(a)
	if err != nil || first < 1 {
		return 0, 0, false
	}
	last = first
	if isRange {
		if last, err = strconv.Atoi(b); err != nil || last < first {
			return 0, 0, false
		}
	}
	return first, last, true
}

// For is how a path is written as a mention, quoted when it holds white
// space.
func For(path string) string {
	if strings.IndexFunc(path, unicode.IsSpace) >= 0 {
		return `@"` + path + `"`
	}
	return "@" + path
}
