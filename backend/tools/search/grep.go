package search

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// Limits of grep.
const (
	grepLimit      = 250  // matches shown
	grepMaxPreview = 2000 // bytes of one matching line shown
)

// Grep is the grep tool: lines matching a regular expression, grouped by
// file. Files are listed in path order so that the same tree always gives
// the same answer.
type Grep struct{ files *workspace.Walker }

// NewGrep makes the grep tool over the files files lists.
func NewGrep(files *workspace.Walker) *Grep { return &Grep{files: files} }

type grepArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
	Include string `json:"include"`
}

var grepSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"pattern":{"type":"string","description":"Regular expression (Go RE2 syntax) to search for in each line."},` +
	`"path":{"type":"string","description":"File or directory to search, absolute or relative to the working directory. Default: the working directory."},` +
	`"include":{"type":"string","description":"One glob limiting the files searched, e.g. \"*.go\" or \"src/**/*.{ts,tsx}\"."}},` +
	`"required":["pattern"],"additionalProperties":false}`)

// Spec describes grep to the model.
func (*Grep) Spec() tools.Spec {
	return tools.Spec{
		Name: "grep",
		Description: "Search file contents with a regular expression (Go RE2 syntax, matched line by line). " +
			"Results are grouped by file, in path order, as `Line N: text`; at most 250 matches are shown and " +
			"lines are cut at 2000 bytes. include takes one glob on the file name (or on the path if it has \"/\"). " +
			"Honours .gitignore, .ignore, .git/info/exclude and the global git excludes file; skips .git, .hg, " +
			".svn, .jj and binary files.",
		Schema: grepSchema,
		Guidance: "Use grep to find where something is defined or used before reading files. Escape regular " +
			"expression metacharacters for literal text (`\\(`, `\\.`), narrow with include or path when there " +
			"are too many matches, then read the files around the lines found.",
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

// Present is the search card before results.
func (*Grep) Present(raw json.RawMessage) card.Card {
	var a grepArgs
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Search, Title: "Grep " + a.Pattern}
}

// Run searches the files and formats the matches.
func (g *Grep) Run(ctx context.Context, call tools.Call) tools.Result {
	var a grepArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	q, res := newQuery(a)
	if res != nil {
		return *res
	}
	root, info, res := target(call.Env.Cwd, a.Path)
	if res != nil {
		return *res
	}
	var files []workspace.Entry
	if info.IsDir() {
		var err error
		if files, err = grepCandidates(ctx, g.files, root, q.include); err != nil {
			return tools.Errorf("grep was interrupted: %v", err)
		}
	} else if info.Mode().IsRegular() {
		files = []workspace.Entry{{Abs: root}}
	} else {
		// Opening a FIFO or a device would block or never end.
		return tools.Errorf("cannot search %q: not a regular file or directory", root)
	}
	results, err := q.search(ctx, files)
	if err != nil {
		return tools.Errorf("grep was interrupted: %v", err)
	}
	return grepResult(call.Env.Cwd, a.Pattern, files, results)
}

// query is a compiled grep.
type query struct {
	line *regexp.Regexp // matched against each line
	// whole is line in multi-line mode, matched against a whole chunk of
	// a file first so that files without a match are never split into
	// lines. It is nil when that could miss a match: \A and \z, and $,
	// which per line also matches before the "\r" of a CRLF line.
	whole   *regexp.Regexp
	include *pathMatcher
}

func newQuery(a grepArgs) (*query, *tools.Result) {
	fail := func(format string, args ...any) (*query, *tools.Result) {
		r := tools.InvalidArgs(format, args...)
		return nil, &r
	}
	if a.Pattern == "" {
		return fail("invalid pattern: expected a non-empty string")
	}
	line, err := regexp.Compile(a.Pattern)
	if err != nil {
		return fail("invalid pattern: %v (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)", err)
	}
	q := &query{line: line}
	if !strings.Contains(a.Pattern, "$") && !strings.Contains(a.Pattern, `\A`) && !strings.Contains(a.Pattern, `\z`) {
		q.whole, _ = regexp.Compile("(?m:" + a.Pattern + ")")
	}
	if a.Include != "" {
		if q.include, err = newPathMatcher(a.Include); err != nil {
			return fail("invalid include: %v", err)
		}
	}
	return q, nil
}

// grepCandidates lists the files to search, sorted by path.
func grepCandidates(ctx context.Context, w *workspace.Walker, root string, include *pathMatcher) ([]workspace.Entry, error) {
	files, err := collect(ctx, w, root, func(e workspace.Entry) (workspace.Entry, bool) {
		return e, include == nil || include.match(e)
	})
	slices.SortFunc(files, func(x, y workspace.Entry) int { return strings.Compare(x.Path, y.Path) })
	return files, err
}

// fileMatches is what one file contributed.
type fileMatches struct {
	count int
	lines []match // the first matches, if they may be shown
}

type match struct {
	line int
	text string
}

// search greps files with a bounded pool of workers, each taking the next
// file in order.
func (q *query) search(ctx context.Context, files []workspace.Entry) ([]fileMatches, error) {
	results := make([]fileMatches, len(files))
	t := newTally(len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers(), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newScanner(q)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				fm := s.file(files[i].Abs)
				if !t.finish(i, fm.count) {
					fm.lines = nil
				}
				results[i] = fm
			}
		}()
	}
	wg.Wait()
	return results, ctx.Err()
}

// tally decides which files keep their matching lines: those that the
// matches of earlier files, as far as they are known, do not push past
// the limit. Workers take files in order, so the unknown part is only
// the few files still in flight and the lines kept stay bounded.
type tally struct {
	mu       sync.Mutex
	counts   []int // -1 while the file is not done
	frontier int   // files before it are all done
	prefix   int   // matches in files before frontier
}

func newTally(n int) *tally {
	counts := make([]int, n)
	for i := range counts {
		counts[i] = -1
	}
	return &tally{counts: counts}
}

func (t *tally) finish(i, count int) (keep bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	keep = count > 0 && t.prefix < grepLimit
	t.counts[i] = count
	for t.frontier < len(t.counts) && t.counts[t.frontier] >= 0 {
		t.prefix += t.counts[t.frontier]
		t.frontier++
	}
	return keep
}

func grepResult(cwd, pattern string, files []workspace.Entry, results []fileMatches) tools.Result {
	c := &card.Card{Kind: card.Search, Title: "Grep " + pattern}
	total := 0
	for _, r := range results {
		total += r.count
	}
	if total == 0 {
		c.Body = "No matches found"
		return tools.Result{Text: "No matches found", Card: c}
	}
	var text, body strings.Builder
	noun := "matches"
	if total == 1 {
		noun = "match"
	}
	fmt.Fprintf(&text, "Found %d %s", total, noun)
	shown := 0
	for i, r := range results {
		if r.count == 0 || shown >= grepLimit {
			continue
		}
		fmt.Fprintf(&text, "\n\n%s:", files[i].Abs)
		if body.Len() > 0 {
			body.WriteString("\n")
		}
		fmt.Fprintf(&body, "%s:", display(cwd, files[i].Abs))
		for _, m := range r.lines[:min(len(r.lines), grepLimit-shown)] {
			fmt.Fprintf(&text, "\n  Line %d: %s", m.line, m.text)
			fmt.Fprintf(&body, "\n  Line %d: %s", m.line, m.text)
			shown++
		}
	}
	if shown < total {
		fmt.Fprintf(&text, "\n\n(Showing %d of %d matches; %d omitted. Narrow the pattern, path or include to see the rest.)",
			shown, total, total-shown)
		c.Truncated = true
	}
	c.Body = body.String()
	return tools.Result{Text: text.String(), Card: c}
}
