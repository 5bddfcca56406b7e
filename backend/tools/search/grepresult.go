package search

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// The layouts of grep's result follow Claude Code's Grep, which runs
// ripgrep: models trained on it (DeepSeek's among them, whose API serves
// Claude Code) expect a file list by default, newest first, and ripgrep's
// path:line:text lines in content mode, which also cost fewer tokens than
// a heading per file. Content and count lines name files by absolute path,
// as Claude Code's do (it runs ripgrep on the absolute path of the one
// searched, "claude-conversations" included), and a search of one file
// names none ("166:text", as Claude Code shows it); the file list gives
// the absolute paths that read takes. The card names them relative to the
// working directory, as the user sees the files.

// grepResult formats what the search found in the mode asked for.
func grepResult(cwd, pattern string, files []workspace.Entry, results []fileMatches, o grepOptions) tools.Result {
	c := &card.Card{Kind: card.Search, Title: "Grep " + pattern, Label: "Grep", Subject: pattern}
	total, matched := 0, 0
	for _, r := range results {
		total += r.count
		if r.count > 0 {
			matched++
		}
	}
	if total == 0 {
		c.Body, c.Summary, c.Found = "No matches found", "No matches found", &card.Found{}
		return tools.Result{Text: "No matches found", Card: c}
	}
	c.Summary = "Found " + count(total, "match", "matches") + " in " + count(matched, "file", "files")
	var text, body string
	c.Found = &card.Found{Total: matched, Matches: total}
	switch o.mode {
	case modeContent:
		text, c.Found.Lines, c.Truncated = contentText(files, results, o, total)
		body = text
		if !o.oneFile {
			body = relativeNames(cwd, text)
		}
	case modeCount:
		text, c.Found.Lines, c.Truncated = countText(files, results, o, total, matched)
		body = relativeNames(cwd, text)
	default:
		text, body, c.Found.Files, c.Truncated = filesText(cwd, files, results, o, matched)
	}
	c.Body = body
	return tools.Result{Text: text, Card: c}
}

// filesText lists the matching files, newest first, then by path; shown
// are those it lists, by absolute path.
func filesText(cwd string, files []workspace.Entry, results []fileMatches, o grepOptions, matched int) (text, body string, shown []string, truncated bool) {
	type hit struct {
		abs   string
		mtime int64
	}
	var hits []hit
	for i, r := range results {
		if r.count > 0 {
			h := hit{abs: files[i].Abs}
			if info, err := os.Stat(h.abs); err == nil {
				h.mtime = info.ModTime().UnixNano()
			}
			hits = append(hits, h)
		}
	}
	slices.SortFunc(hits, func(x, y hit) int { return cmp.Or(cmp.Compare(y.mtime, x.mtime), cmp.Compare(x.abs, y.abs)) })
	from, to := page(len(hits), o)
	var t, b strings.Builder
	fmt.Fprintf(&t, "Found %d %s", matched, plural(matched, "file", "files"))
	for i, h := range hits[from:to] {
		shown = append(shown, h.abs)
		t.WriteString("\n" + h.abs)
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(display(cwd, h.abs))
	}
	if note := pageNote("files", from, to, len(hits)); note != "" {
		t.WriteString("\n\n" + note)
	}
	return t.String(), b.String(), shown, len(shown) < len(hits)
}

// relativeNames is text with the files its lines begin with named from
// cwd where they are under it, as display names them.
func relativeNames(cwd, text string) string {
	if cwd == "" {
		return text
	}
	prefix := strings.TrimSuffix(cwd, string(filepath.Separator)) + string(filepath.Separator)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}

// page is the part of n entries shown: from o.skip, at most o.limit.
func page(n int, o grepOptions) (from, to int) {
	from = min(o.skip, n)
	return from, min(from+o.limit, n)
}

// pageNote is the footer of a page of n entries that does not show them
// all, saying how to see the rest; "" for one that does.
func pageNote(what string, from, to, n int) string {
	switch {
	case from == 0 && to == n:
		return ""
	case from == 0:
		return fmt.Sprintf("(Showing %d of %d %s. Narrow the pattern, path, glob or type, or raise head_limit, to see the rest.)", to, n, what)
	case from == n:
		return fmt.Sprintf("(offset %d passes over all %d %s.)", from, n, what)
	case to < n:
		return fmt.Sprintf("(Showing %s %d-%d of %d. Use offset=%d to see more.)", what, from+1, to, n, to)
	}
	return fmt.Sprintf("(Showing %s %d-%d of %d.)", what, from+1, to, n)
}

// countText is one path:matches line per file, in path order; shown is
// how many such lines it has, before the sum.
func countText(files []workspace.Entry, results []fileMatches, o grepOptions, total, matched int) (text string, shown int, truncated bool) {
	var t strings.Builder
	from, to := page(matched, o)
	k := 0 // the matching file's place in path order
	for i, r := range results {
		if r.count == 0 {
			continue
		}
		if from <= k && k < to {
			fmt.Fprintf(&t, "%s:%d\n", files[i].Abs, r.count)
		}
		k++
	}
	fmt.Fprintf(&t, "\nFound %d %s in %d %s.", total, plural(total, "match", "matches"), matched, plural(matched, "file", "files"))
	switch {
	case from > 0:
		t.WriteString(" " + pageNote("files", from, to, matched))
	case to < matched:
		fmt.Fprintf(&t, " (Showing %d of %d files; raise head_limit to see the rest.)", to, matched)
	}
	return t.String(), to - from, to-from < matched
}

// contentText is ripgrep's layout: path:line:text for a match,
// path-line-text for a context line, "--" between groups that do not
// touch. At most o.limit lines are shown; shown is how many, before any
// note on what is not.
func contentText(files []workspace.Entry, results []fileMatches, o grepOptions, total int) (text string, shown int, truncated bool) {
	var lines []string
	var matchAt []bool // whether lines[i] begins a matching line's output
	full, context := false, o.before > 0 || o.after > 0
	for i, r := range results {
		if len(r.lines) == 0 || full {
			continue
		}
		name := files[i].Abs
		if o.oneFile {
			name = ""
		}
		var out []outLine
		if context {
			out = withContext(files[i].Abs, r.lines, o.before, o.after)
		}
		if out == nil {
			for _, m := range r.lines {
				out = append(out, outLine{n: m.line, text: m.text, match: true})
			}
		}
		out = onlyMatches(out, o.only)
		for j, l := range out {
			if len(lines) == o.skip+o.limit {
				full = true
				break
			}
			if context && (j > 0 && l.n > out[j-1].n+1 || j == 0 && len(lines) > 0) {
				lines, matchAt = append(lines, "--"), append(matchAt, false)
			}
			lines = append(lines, l.format(name, o.lineNumbers))
			matchAt = append(matchAt, l.match && !l.part)
		}
	}
	from := min(o.skip, len(lines))
	listed, shownMatches := 0, 0
	for i, m := range matchAt {
		if m {
			listed++
			if i >= from {
				shownMatches++
			}
		}
	}
	text = strings.Join(lines[from:], "\n")
	shown = len(lines) - from
	switch {
	case from > 0 && from == len(lines):
		text = fmt.Sprintf("(offset %d passes over all %d output lines.)", o.skip, len(lines))
	case from > 0 && (full || listed < total):
		text += fmt.Sprintf("\n\n(Showing output lines %d-%d. Use offset=%d to see more.)", from+1, len(lines), len(lines))
	case from > 0:
		text += fmt.Sprintf("\n\n(Showing output lines %d-%d, the last.)", from+1, len(lines))
	case shownMatches < total:
		text += fmt.Sprintf("\n\n(Showing %d of %d matching lines. Narrow the pattern, path, glob or type, or raise head_limit, to see the rest.)", shownMatches, total)
	}
	return text, shown, from > 0 || shownMatches < total
}

// onlyMatches is out with each matching line in its matched parts, one a
// line, when only is set (-o), as ripgrep --only-matching shows them; a
// matching line in which only finds no part (a multi-line match) is kept
// whole.
func onlyMatches(out []outLine, only *regexp.Regexp) []outLine {
	if only == nil {
		return out
	}
	var parts []outLine
	for _, l := range out {
		found := 0
		if l.match {
			for _, p := range only.FindAllString(l.text, -1) {
				if p != "" {
					parts = append(parts, outLine{n: l.n, text: p, match: true, part: found > 0})
					found++
				}
			}
		}
		if found == 0 {
			parts = append(parts, l)
		}
	}
	return parts
}

// outLine is one line of content output.
type outLine struct {
	n     int
	text  string
	match bool
	// part says a line is a later part of the same matching line (-o).
	part bool
}

func (l outLine) format(name string, numbers bool) string {
	sep := "-"
	if l.match {
		sep = ":"
	}
	if name == "" {
		if !numbers {
			return l.text
		}
		return strconv.Itoa(l.n) + sep + l.text
	}
	if !numbers {
		return name + sep + l.text
	}
	return name + sep + strconv.Itoa(l.n) + sep + l.text
}

// withContext reads a file again for the lines around its matches. A file
// that cannot be read again gives its matches alone.
func withContext(path string, matches []match, before, after int) []outLine {
	f, err := openFile(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	isMatch := make(map[int]bool, len(matches))
	for _, m := range matches {
		isMatch[m.line] = true
	}
	var out []outLine
	r := bufio.NewReaderSize(f, 64<<10)
	k := 0 // the first match whose window does not end before line n
	for n := 1; k < len(matches); n++ {
		text, err := readLine(r)
		if err != nil {
			break
		}
		for k < len(matches) && matches[k].line+after < n {
			k++
		}
		if k < len(matches) && matches[k].line-before <= n {
			out = append(out, outLine{n: n, text: text, match: isMatch[n]})
		}
	}
	return out
}

// readLine reads one line without its ending, as preview shows it; of a
// line longer than the reader's buffer only the start is kept.
func readLine(r *bufio.Reader) (string, error) {
	line, isPrefix, err := r.ReadLine()
	if err != nil {
		return "", err
	}
	text := preview(line)
	for isPrefix && err == nil {
		_, isPrefix, err = r.ReadLine()
	}
	return text, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
