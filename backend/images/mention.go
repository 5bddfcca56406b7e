package images

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/mention"
)

// Mentions finds the image files a message names with @ (mention.Find):
// `@shot.png`, `@docs/arch diagram.png` written as
// `@"docs/arch diagram.png"`, or an absolute path. A mention is an image
// only when its name has an image extension and the file exists; the rest
// stay text. Paths resolve against cwd; each file is listed once, in
// order.
func Mentions(text, cwd string) []string {
	var out []string
	seen := map[string]bool{}
	for _, ref := range mention.Find(text) {
		if !IsImageName(ref.Name) {
			continue
		}
		path := ref.Name
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
