package search

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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

// grepProse is what the model is told about the tool, from grep.md.
var grepProse = tools.ProseFile(specFiles, "grep.md",
	"{{limit}}", strconv.Itoa(grepLimit),
	"{{max_line_bytes}}", strconv.Itoa(grepMaxPreview))

// Spec describes grep to the model.
func (*Grep) Spec() tools.Spec {
	return tools.Spec{
		Name:         "grep",
		Description:  grepProse().Description,
		Schema:       grepSchema(),
		Guidance:     grepProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

// Present is the search card before results.
func (*Grep) Present(raw json.RawMessage) card.Card {
	var a struct {
		Pattern string `json:"pattern"`
	}
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Search, Title: "Grep " + a.Pattern, Label: "Grep", Subject: a.Pattern}
}

// Run searches the files and formats the matches.
func (g *Grep) Run(ctx context.Context, call tools.Call) tools.Result {
	a, q, o, res := decodeGrep(call.Args)
	if res != nil {
		return *res
	}
	if o.mode == modeContent {
		q.keep = o.skip + o.limit
	}
	root, info, res := target(call.Env.Cwd, a.Path)
	if res != nil {
		return *res
	}
	var files []workspace.Entry
	if info.IsDir() {
		var err error
		if files, err = grepCandidates(ctx, g.files, root, q); err != nil {
			return tools.Errorf("grep was interrupted: %v", err)
		}
	} else if info.Mode().IsRegular() {
		files, o.oneFile = []workspace.Entry{{Abs: root}}, true
	} else {
		// Opening a FIFO or a device would block or never end.
		return tools.Errorf("cannot search %q: not a regular file or directory", root)
	}
	results, err := q.search(ctx, files)
	if err != nil {
		return tools.Errorf("grep was interrupted: %v", err)
	}
	return grepResult(call.Env.Cwd, a.Pattern, files, results, o)
}

// query is a compiled grep.
type query struct {
	line *regexp.Regexp // matched against each line
	// whole is line in multi-line mode, matched against a whole chunk of
	// a file first so that files without a match are never split into
	// lines. It is nil when that could miss a match: \A and \z, and $,
	// which per line also matches before the "\r" of a CRLF line.
	whole   *regexp.Regexp
	include *globList
	types   *pathMatcher // the extensions of a file type
	// multiline matches whole files, so a match may span lines.
	multiline bool
	// keep is how many matching lines of a file to keep; 0 keeps none,
	// when only counts are shown.
	keep int
}

// grepCandidates lists the files to search, sorted by path.
func grepCandidates(ctx context.Context, w *workspace.Walker, root string, q *query) ([]workspace.Entry, error) {
	files, err := collect(ctx, w, root, func(e workspace.Entry) (workspace.Entry, bool) {
		return e, (q.include == nil || q.include.match(e)) && (q.types == nil || q.types.match(e))
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

// search greps files on workspace.Parallel's pool, each worker taking the
// next file in order.
func (q *query) search(ctx context.Context, files []workspace.Entry) ([]fileMatches, error) {
	results := make([]fileMatches, len(files))
	t := newTally(len(files))
	err := workspace.Parallel(ctx, len(files), func() func(int) {
		s := newScanner(q)
		return func(i int) {
			fm := s.file(files[i].Abs)
			if !t.finish(i, fm.count, q.keep) {
				fm.lines = nil
			}
			results[i] = fm
		}
	})
	return results, err
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

func (t *tally) finish(i, count, limit int) (keep bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	keep = count > 0 && t.prefix < limit
	t.counts[i] = count
	for t.frontier < len(t.counts) && t.counts[t.frontier] >= 0 {
		t.prefix += t.counts[t.frontier]
		t.frontier++
	}
	return keep
}
