package fs

import (
	"regexp"
	"strings"
)

// How edit finds the text the model meant. A model reads files without
// their "\r" and often cannot write the typographic quotes a file holds;
// Claude Code's Edit forgives both, and models trained on it count on it.

// intended is old_string and new_string as they apply to content: adapted
// to a CRLF file's line endings, and old_string as content spells it where
// it differs only in its quotes. Text that matches as given is left alone.
func intended(content, old, repl string) (string, string) {
	old, repl = matchLineEndings(content, old, repl)
	if !strings.Contains(content, old) {
		old = matchQuotes(content, old)
	}
	return old, repl
}

// matchLineEndings adapts old and repl to a CRLF file when the model wrote
// them with LF endings (it reads files without the "\r"), so the edit
// matches and the file keeps its line endings. Text that already matches
// as given is left alone.
func matchLineEndings(content, old, repl string) (string, string) {
	if strings.Contains(content, old) || !strings.Contains(content, "\r\n") || strings.Contains(old, "\r\n") {
		return old, repl
	}
	crlf := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
	}
	return crlf(old), crlf(repl)
}

// matchQuotes is the first text of content that reads as old once curly
// quotes (‘ ’ “ ”) are taken for straight ones, as Claude Code's Edit
// matches; old itself where there is none.
func matchQuotes(content, old string) string {
	if !strings.ContainsAny(content, "‘’“”") {
		return old
	}
	var pattern strings.Builder
	for _, r := range old {
		switch r {
		case '\'', '‘', '’':
			pattern.WriteString("['‘’]")
		case '"', '“', '”':
			pattern.WriteString(`["“”]`)
		default:
			pattern.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re, err := regexp.Compile(pattern.String())
	if err != nil { // an old_string too large to compile matches as given
		return old
	}
	if found := re.FindString(content); found != "" {
		return found
	}
	return old
}

// deleteLines removes old from content (every occurrence with all, else
// the first), and with it the line break after an occurrence that fills
// whole lines: a model deleting a line sends the line without its "\n",
// and Claude Code's Edit leaves no blank line behind.
func deleteLines(content, old string, all bool) string {
	var b strings.Builder
	for {
		i := strings.Index(content, old)
		if i < 0 {
			break
		}
		end := i + len(old)
		if i == 0 || content[i-1] == '\n' {
			switch {
			case strings.HasPrefix(content[end:], "\n"):
				end++
			case strings.HasPrefix(content[end:], "\r\n"):
				end += 2
			}
		}
		b.WriteString(content[:i])
		content = content[end:]
		if !all {
			break
		}
	}
	b.WriteString(content)
	return b.String()
}
