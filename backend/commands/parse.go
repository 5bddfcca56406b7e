package commands

import (
	"unicode"
	"unicode/utf8"
)

// Parse splits a command line. A command starts with a slash at byte zero,
// then a name of lowercase letters, digits, '_' and '-' in parts joined by
// single ':' (which namespace: /frontend:review, /skill:pdf) or within a
// part by single '.' (/skill:research.paper.draft, as skill collections
// name theirs), then the end of the line or whitespace. Everything after the name, the separating whitespace
// included, is rawInput. ok is false for anything else, which is not a
// command.
func Parse(line string) (name, rawInput string, ok bool) {
	if len(line) < 2 || line[0] != '/' {
		return "", "", false
	}
	end := 1
	for end < len(line) && isNameByte(line[end]) {
		end++
	}
	if end == 1 || !ValidName(line[1:end]) {
		return "", "", false
	}
	if end < len(line) {
		r, _ := utf8.DecodeRuneInString(line[end:])
		if !unicode.IsSpace(r) {
			return "", "", false
		}
	}
	return line[1:end], line[end:], true
}

// ValidName reports whether name may name a command: name bytes, with a
// ':' or a '.' only between two others. A name that ends in '.' is not
// one, so a sentence's "/tmp." stays text.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) || isJoin(name[i]) && (i == 0 || i == len(name)-1 || isJoin(name[i-1])) {
			return false
		}
	}
	return true
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-' || isJoin(b)
}

// isJoin reports whether b joins the parts of a name: ':' namespaces, '.'
// joins words.
func isJoin(b byte) bool { return b == ':' || b == '.' }
