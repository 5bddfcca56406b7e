package images

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Mentions finds the image files a message names with @: `@shot.png`,
// `@docs/arch diagram.png` written as `@"docs/arch diagram.png"`, or an
// absolute path. A mention is an image only when its name has an image
// extension and the file exists; the rest stay text. Paths resolve against
// cwd; each file is listed once, in order.
func Mentions(text, cwd string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !unicode.IsSpace(rune(text[i-1])) && text[i-1] != '(') {
			continue
		}
		name, n := mentionAt(text[i+1:])
		i += n
		if name == "" || !IsImageName(name) {
			continue
		}
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(cwd, path)
		}
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() || seen[path] {
			continue
		}
		seen[path] = true
		out = append(out, path)
	}
	return out
}

// mentionAt reads the name after an @: quoted, or up to white space or a
// closing bracket, without trailing punctuation. n is how many bytes it
// took.
func mentionAt(s string) (name string, n int) {
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

// PastedPath reads a bracketed paste as a path to an image file, as
// terminals paste a file dragged onto them: possibly quoted, a file://
// URL, or with backslash-escaped spaces. It returns the path, or "" when
// the paste is not an existing image file.
func PastedPath(paste, cwd string) string {
	p := strings.TrimSpace(paste)
	if strings.ContainsAny(p, "\n\r") || p == "" {
		return ""
	}
	if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
		p = p[1 : len(p)-1]
	}
	p = strings.TrimPrefix(p, "file://")
	p = strings.ReplaceAll(p, `\ `, " ")
	if !IsImageName(p) {
		return ""
	}
	path := p
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	return p
}

// MentionFor is how a path is written as a mention, quoted when it holds
// white space.
func MentionFor(path string) string {
	if strings.IndexFunc(path, unicode.IsSpace) >= 0 {
		return `@"` + path + `"`
	}
	return "@" + path
}
