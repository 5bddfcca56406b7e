package search

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/tools"
)

// Output modes of grep, as Claude Code's Grep names them.
const (
	modeFiles   = "files_with_matches"
	modeContent = "content"
	modeCount   = "count"
)

// Bounds of grep's options.
const (
	maxContext   = 50   // lines of -A, -B, -C
	maxHeadLimit = 1000 // entries head_limit may ask for
)

// grepArgs are grep's arguments in the shape models trained on Claude
// Code's Grep send them: glob beside tack's include, type, output_mode, the
// ripgrep flags -n, -i, -o, -A, -B, -C (context is the same), head_limit,
// offset and multiline.
type grepArgs struct {
	Pattern     string       `json:"pattern"`
	Path        string       `json:"path"`
	Include     string       `json:"include"`
	Glob        string       `json:"glob"`
	Type        string       `json:"type"`
	OutputMode  string       `json:"output_mode"`
	LineNumbers *bool        `json:"-n"`
	IgnoreCase  bool         `json:"-i"`
	OnlyMatches bool         `json:"-o"`
	After       *wholeNumber `json:"-A"`
	Before      *wholeNumber `json:"-B"`
	Context     *wholeNumber `json:"-C"`
	ContextLong *wholeNumber `json:"context"`
	HeadLimit   *wholeNumber `json:"head_limit"`
	Offset      *wholeNumber `json:"offset"`
	Multiline   bool         `json:"multiline"`
}

// wholeNumber is a non-negative whole number, also when sent as a string
// ("3"), as some models do.
type wholeNumber int

func (c *wholeNumber) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("-A, -B, -C, head_limit and offset take a non-negative whole number, got %s", b)
	}
	*c = wholeNumber(n)
	return nil
}

// grepSchema is the JSON schema of grep's arguments, from grep.schema.json.
var grepSchema = tools.SchemaFile(specFiles, "grep.schema.json")

// grepOptions are the validated arguments.
type grepOptions struct {
	mode          string
	lineNumbers   bool
	before, after int
	limit         int
	// skip is how many entries (files, counts or lines) to pass over
	// before the limit's.
	skip      int
	multiline bool
	// only, with -o, is the pattern whose matches content mode shows, one
	// a line, instead of the matching lines.
	only *regexp.Regexp
	// oneFile says the path named a file, not a directory: content lines
	// then leave the path out, as ripgrep given one file does.
	oneFile bool
}

// decodeGrep validates the arguments into a query and the options.
func decodeGrep(raw json.RawMessage) (grepArgs, *query, grepOptions, *tools.Result) {
	fail := func(format string, args ...any) (grepArgs, *query, grepOptions, *tools.Result) {
		r := tools.InvalidArgs(format, args...)
		return grepArgs{}, nil, grepOptions{}, &r
	}
	var a grepArgs
	if err := tools.DecodeArgs(raw, &a); err != nil {
		return fail("%v", err)
	}
	o := grepOptions{mode: a.OutputMode, lineNumbers: a.LineNumbers == nil || *a.LineNumbers, limit: grepLimit, multiline: a.Multiline}
	switch o.mode {
	case "":
		o.mode = modeFiles
	case modeFiles, modeContent, modeCount:
	default:
		return fail("invalid output_mode %q: use files_with_matches, content or count", a.OutputMode)
	}
	if c := cmp.Or(a.Context, a.ContextLong); c != nil {
		o.before, o.after = int(*c), int(*c)
	}
	if a.Before != nil {
		o.before = int(*a.Before)
	}
	if a.After != nil {
		o.after = int(*a.After)
	}
	if o.before > maxContext || o.after > maxContext {
		return fail("invalid context: -A, -B and -C take at most %d lines", maxContext)
	}
	if a.HeadLimit != nil {
		if *a.HeadLimit == 0 || *a.HeadLimit > maxHeadLimit {
			return fail("invalid head_limit: expected 1 to %d", maxHeadLimit)
		}
		o.limit = int(*a.HeadLimit)
	}
	if a.Offset != nil {
		o.skip = int(*a.Offset)
	}
	if a.Include != "" && a.Glob != "" && a.Include != a.Glob {
		return fail("invalid arguments: give glob or include, not both (they are the same filter)")
	}
	q, res := newQuery(a)
	if res != nil {
		return grepArgs{}, nil, grepOptions{}, res
	}
	if a.OnlyMatches {
		o.only = q.line
	}
	return a, q, o, nil
}

func newQuery(a grepArgs) (*query, *tools.Result) {
	fail := func(format string, args ...any) (*query, *tools.Result) {
		r := tools.InvalidArgs(format, args...)
		return nil, &r
	}
	if a.Pattern == "" {
		return fail("invalid pattern: expected a non-empty string")
	}
	flags := ""
	if a.IgnoreCase {
		flags += "i"
	}
	if a.Multiline {
		flags += "sm" // ripgrep -U --multiline-dotall: . spans lines, ^ and $ stay per line
	}
	src := a.Pattern
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	line, err := regexp.Compile(src)
	if err != nil {
		return fail("invalid pattern: %v (patterns use Go RE2 syntax: no lookaround or backreferences; escape ( [ { . * + ? for literal text)",
			strings.Replace(err.Error(), src, a.Pattern, 1))
	}
	q := &query{line: line}
	if a.Multiline {
		q.whole, q.multiline = line, true
	} else if !strings.Contains(a.Pattern, "$") && !strings.Contains(a.Pattern, `\A`) && !strings.Contains(a.Pattern, `\z`) {
		q.whole, _ = regexp.Compile("(?m" + flags + ":" + a.Pattern + ")")
	}
	if glob := cmpOr(a.Glob, a.Include); glob != "" {
		if q.include, err = newGlobList(glob); err != nil {
			return fail("invalid glob: %v", err)
		}
	}
	if a.Type != "" {
		globs, ok := typeGlobs(a.Type)
		if !ok {
			return fail("invalid type %q: use one of %s, or a glob", a.Type, strings.Join(typeNames(), ", "))
		}
		if q.types, err = newPathMatcher("{" + strings.Join(globs, ",") + "}"); err != nil {
			return fail("invalid type: %v", err)
		}
	}
	return q, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
