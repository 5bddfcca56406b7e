package search

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// globLimit is the most paths glob returns.
const globLimit = 100

// Glob is the glob tool: files whose name or path matches a glob, newest
// first.
type Glob struct{ files *workspace.Walker }

// NewGlob makes the glob tool over the files files lists.
func NewGlob(files *workspace.Walker) *Glob { return &Glob{files: files} }

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

// globSchema is the JSON schema of glob's arguments, from glob.schema.json.
var globSchema = tools.SchemaFile(specFiles, "glob.schema.json")

// globProse is what the model is told about the tool, from glob.md.
var globProse = tools.ProseFile(specFiles, "glob.md", "{{limit}}", strconv.Itoa(globLimit))

// Spec describes glob to the model.
func (*Glob) Spec() tools.Spec {
	return tools.Spec{
		Name:         "glob",
		Description:  globProse().Description,
		Schema:       globSchema(),
		Guidance:     globProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

// Present is the search card before results.
func (*Glob) Present(raw json.RawMessage) card.Card {
	var a globArgs
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Search, Title: "Glob " + a.Pattern, Label: "Glob", Subject: a.Pattern}
}

type globHit struct {
	abs   string
	mtime time.Time
}

// Run walks the search directory and lists matching files.
func (g *Glob) Run(ctx context.Context, call tools.Call) tools.Result {
	var a globArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	if a.Pattern == "" {
		return tools.InvalidArgs("invalid pattern: expected a non-empty string")
	}
	pattern, dir := a.Pattern, a.Path
	if filepath.IsAbs(pattern) && dir == "" {
		dir, pattern = splitAbsolute(pattern)
	}
	pm, err := newPathMatcher(pattern)
	if err != nil {
		return tools.InvalidArgs("%v", err)
	}
	if dir != a.Path {
		pm.anchor() // the rest of an absolute pattern is a path below dir
	}
	root, info, res := target(call.Env.Cwd, dir)
	if res != nil {
		return *res
	}
	if !info.IsDir() {
		return tools.Errorf("cannot search %q: not a directory", root)
	}
	hits, err := globFiles(ctx, g.files, root, pm)
	if err != nil {
		return tools.Errorf("glob was interrupted: %v", err)
	}
	return globResult(call.Env.Cwd, a.Pattern, hits)
}

// splitAbsolute splits an absolute pattern, which models often send, into
// the directory before its first wildcard and the pattern below it:
// "/src/app/**/*.go" searches /src/app for "**/*.go".
func splitAbsolute(pattern string) (dir, rest string) {
	parts := strings.Split(filepath.ToSlash(pattern), "/")
	i := 0
	for i < len(parts)-1 && !strings.ContainsAny(parts[i], `*?[{\`) {
		i++
	}
	if i < 2 { // no directory to search below: leave the pattern as it is
		return "", pattern
	}
	return filepath.FromSlash(strings.Join(parts[:i], "/") + "/"), strings.Join(parts[i:], "/")
}

// globFiles collects the matching files, newest first, then by path.
func globFiles(ctx context.Context, files *workspace.Walker, root string, pm *pathMatcher) ([]globHit, error) {
	hits, err := collect(ctx, files, root, func(e workspace.Entry) (globHit, bool) {
		if !pm.match(e) {
			return globHit{}, false
		}
		info, err := e.Info()
		if err != nil {
			return globHit{}, false
		}
		return globHit{abs: e.Abs, mtime: info.ModTime()}, true
	})
	slices.SortFunc(hits, func(x, y globHit) int {
		if c := y.mtime.Compare(x.mtime); c != 0 {
			return c
		}
		return cmp.Compare(x.abs, y.abs)
	})
	return hits, err
}

func globResult(cwd, pattern string, hits []globHit) tools.Result {
	c := &card.Card{Kind: card.Search, Title: "Glob " + pattern, Label: "Glob", Subject: pattern,
		Summary: "Found " + count(len(hits), "file", "files")}
	if len(hits) == 0 {
		c.Body, c.Summary, c.Found = "No files found", "No files found", &card.Found{}
		return tools.Result{Text: "No files found", Card: c}
	}
	shown := hits[:min(len(hits), globLimit)]
	c.Found = &card.Found{Total: len(hits)}
	var text, body strings.Builder
	for i, h := range shown {
		if i > 0 {
			text.WriteByte('\n')
			body.WriteByte('\n')
		}
		text.WriteString(h.abs)
		body.WriteString(display(cwd, h.abs))
		c.Found.Files = append(c.Found.Files, h.abs)
	}
	if len(hits) > len(shown) {
		fmt.Fprintf(&text, "\n\n(Showing %d of %d matches. Narrow the pattern or path to see the rest.)", len(shown), len(hits))
		c.Truncated = true
	}
	c.Body = body.String()
	return tools.Result{Text: text.String(), Card: c}
}

// count is n with the noun for its number: "1 file", "3 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
