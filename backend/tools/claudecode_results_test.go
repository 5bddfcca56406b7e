//go:build unix

package tools_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/search"
	"github.com/tack-agent/tack/backend/workspace"
)

// resultsTranscript holds tool calls of real Claude Code runs with the
// results Claude Code returned; its first lines name the sources.
const resultsTranscript = "../../testdata/claudecode/ccexport.tool-results.jsonl"

// resultsRoots are the workspaces of those runs, one a source; each replay
// puts a temporary directory in their place.
var resultsRoots = []string{"/projects/ccexport", "/path/to/Demo"}

type transcriptPair struct {
	Tool    string          `json:"tool"`
	Input   json.RawMessage `json:"input"`
	Result  string          `json:"result"`
	IsError bool            `json:"is_error"`
	Session string          `json:"session"`
}

// TestClaudeCodeTranscriptResultsHaveTheShapesModelsRead replays tool
// calls of real Claude Code runs against a workspace rebuilt from what the
// results show, and compares tack's result with Claude Code's: the
// transcript is the oracle of the layout a Claude-Code-trained model reads.
// The few places tack differs on purpose are named where they are
// allowed, and nowhere else.
func TestClaudeCodeTranscriptResultsHaveTheShapesModelsRead(t *testing.T) {
	pairs := readJSONLines[transcriptPair](t, resultsTranscript)
	kinds := map[string]int{}
	for i, p := range pairs {
		kinds[p.Tool]++
		t.Run(fmt.Sprintf("%02d-%s", i+1, p.Tool), func(t *testing.T) {
			ws := t.TempDir()
			r := replay{t: t, ws: ws, want: inWorkspace(p.Result, ws), isError: p.IsError}
			args := json.RawMessage(inWorkspace(string(p.Input), ws))
			switch p.Tool {
			case "Read":
				r.read(args)
			case "Write":
				r.write(args)
			case "Edit":
				r.edit(args)
			case "Grep":
				r.grep(args)
			case "Glob":
				r.glob(args)
			case "Bash":
				r.bash(args)
			default:
				t.Fatalf("no replay for Claude Code's %s (session %s)", p.Tool, p.Session)
			}
		})
	}
	for _, tool := range []string{"Read", "Write", "Edit", "Grep", "Glob", "Bash"} {
		if kinds[tool] == 0 {
			t.Errorf("want the transcript to hold %s results, found none", tool)
		}
	}
}

// inWorkspace moves the paths of s from the runs' workspaces to ws.
func inWorkspace(s, ws string) string {
	for _, root := range resultsRoots {
		s = strings.ReplaceAll(s, root, ws)
	}
	return s
}

// replay is one pair: the workspace standing for the original one, and
// Claude Code's result with its paths moved there.
type replay struct {
	t       *testing.T
	ws      string
	want    string
	isError bool
}

// call runs tool in the workspace.
func (r replay) call(tool tools.Tool, args json.RawMessage) tools.Result {
	env := &tools.Env{SessionID: "replay", Cwd: r.ws, SpillDir: r.t.TempDir(), Record: noRecord}
	return tool.Run(context.Background(), tools.Call{ID: "call_1", Args: args, Env: env, Sandbox: tools.Sandbox{Off: true}})
}

// run is call for the pair's own call: an error where Claude Code's was
// one, a result where its was not.
func (r replay) run(tool tools.Tool, args json.RawMessage) tools.Result {
	r.t.Helper()
	res := r.call(tool, args)
	if res.IsError != r.isError && tool.Spec().Name != "bash" {
		r.t.Fatalf("want an error result %v as Claude Code's, got %v: %q", r.isError, res.IsError, res.Text)
	}
	return res
}

func (r replay) put(path, content string) {
	r.t.Helper()
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.ws, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// numberedRe is one line of Claude Code's Read: the number right-aligned in
// six columns, an arrow, the text.
var numberedRe = regexp.MustCompile(`^ *(\d+)→(.*)$`)

// read rebuilds the file from the lines Claude Code showed (it numbers the
// pieces of the text split at "\n", so they join back into the file) and
// expects tack to show the same lines. tack differs on purpose in two
// ways: it does not number the empty piece after a final newline, which
// begins no line, and it ends with a footer saying where the file ends.
func (r replay) read(args json.RawMessage) {
	var a struct {
		FilePath string `json:"file_path"`
		Offset   int    `json:"offset"`
	}
	unmarshal(r.t, args, &a)
	read := fsTool(0)
	if r.isError {
		r.readError(read, args, a.FilePath)
		return
	}
	content, want := readPieces(r.t, r.want), r.want
	window := a.Offset > 0 || strings.Contains(string(args), `"limit"`)
	if window {
		// Only the window is known: lines stand in before and after it.
		before := strings.Repeat("before\n", max(a.Offset-1, 0))
		content = before + content + "\nafter\nafter\n"
	} else if strings.HasSuffix(content, "\n") {
		want = want[:strings.LastIndex(want, "\n")]
	}
	r.put(a.FilePath, content)
	res := r.run(read, args)
	lines, footer, ok := strings.Cut(res.Text, "\n\n")
	if !ok || lines != want {
		r.t.Fatalf("want Claude Code's lines\n%s\ngot\n%s", want, res.Text)
	}
	if !strings.HasPrefix(footer, "(End of file") && !(window && strings.HasPrefix(footer, "(Showing lines")) {
		r.t.Errorf("want a footer saying where the file ends, got %q", footer)
	}
}

// readPieces is the text Claude Code's Read showed in result: the pieces
// it numbered joined back at "\n".
func readPieces(t *testing.T, result string) string {
	t.Helper()
	var pieces []string
	for _, l := range strings.Split(result, "\n") {
		m := numberedRe.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a numbered line of Claude Code's Read: %q", l)
		}
		pieces = append(pieces, m[2])
	}
	return strings.Join(pieces, "\n")
}

// readError: Claude Code answers a missing file with "File does not exist."
// and a directory with EISDIR; tack's error says the same in its words.
func (r replay) readError(read tools.Tool, args json.RawMessage, path string) {
	word := "not found"
	if strings.Contains(r.want, "EISDIR") {
		word = "directory"
		if err := os.MkdirAll(path, 0o755); err != nil {
			r.t.Fatal(err)
		}
	}
	if res := r.run(read, args); !strings.Contains(res.Text, word) {
		r.t.Errorf("want the error to say %q as Claude Code's %q does, got %q", word, r.want, res.Text)
	}
}

// write expects Claude Code's sentence for a new file, word for word.
func (r replay) write(args json.RawMessage) {
	if res := r.run(fsTool(1), args); res.Text != r.want {
		r.t.Errorf("want %q, got %q", r.want, res.Text)
	}
}

// edit puts old_string in a file (twice where Claude Code found it twice,
// or not at all where it found none), reads the file first unless Claude
// Code refused for want of a read, and expects Claude Code's answer: its
// sentences for a change word for word, except that tack leaves out the
// numbered snippet of the changed lines older versions add after "has
// been updated" (newer ones answer as tack does) and clips the strings
// replace_all's sentence quotes back, and its refusals in tack's words
// with the same reason.
func (r replay) edit(args json.RawMessage) {
	var a struct {
		FilePath   string `json:"file_path"`
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	}
	unmarshal(r.t, args, &a)
	read, edit := fsTool(0), fsTool(2)
	content, reason := "before\n"+a.OldString+"\nafter\n", ""
	switch {
	case strings.Contains(r.want, "Found 2 matches"):
		content, reason = content+a.OldString+"\n", "matches 2 places"
	case strings.Contains(r.want, "String to replace not found"):
		content, reason = "before\nafter\n", "was not found"
	case strings.Contains(r.want, "has not been read yet"):
		reason = "has not been read"
	case a.ReplaceAll:
		content += a.OldString + "\n"
	}
	r.put(a.FilePath, content)
	if reason != "has not been read" {
		if res := r.call(read, json.RawMessage(`{"file_path":`+strconv.Quote(a.FilePath)+`}`)); res.IsError {
			r.t.Fatalf("want the file read first, got %q", res.Text)
		}
	}
	res := r.run(edit, args)
	switch {
	case reason != "":
		if !strings.Contains(res.Text, reason) {
			r.t.Errorf("want the refusal to say %q, as Claude Code's %q does, got %q", reason, r.want, res.Text)
		}
	case a.ReplaceAll:
		sentence := func(quote func(string) string) string {
			return fmt.Sprintf("The file %s has been updated. All occurrences of '%s' were successfully replaced with '%s'.",
				a.FilePath, quote(a.OldString), quote(a.NewString))
		}
		if r.want != sentence(func(s string) string { return s }) {
			r.t.Fatalf("not Claude Code's replace_all sentence as the replay knows it: %q", r.want)
		}
		if want := sentence(clipQuoted); res.Text != want {
			r.t.Errorf("want %q, got %q", want, res.Text)
		}
	default:
		sentence, _, _ := strings.Cut(r.want, " Here's the result of running `cat -n` on a snippet of the edited file:")
		if want := strings.TrimSuffix(sentence, ".") + " successfully."; res.Text != want {
			r.t.Errorf("want %q, got %q", want, res.Text)
		}
	}
}

// clipQuoted is a string as tack quotes it back in replace_all's sentence:
// whole up to 80 characters, else their first 80 and "…", where Claude
// Code quotes it whole (the model wrote it; tack does not pay for it twice).
func clipQuoted(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

// paginationRe is what newer Claude Code versions add to a Grep result:
// the echo of its own pagination, which tack does not page.
var paginationRe = regexp.MustCompile(`( limit: \d+, offset: \d+)$|\n\n\[Showing results with pagination = limit: \d+, offset: \d+\]$`)

// grep rebuilds the files the result names with the lines it shows, and a
// file that does not match, and expects Claude Code's layout: the count
// and one file per line by default, "line:text" for one file searched,
// "path:line:text" for several, "No matches found".
func (r replay) grep(args json.RawMessage) {
	var a struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
		Glob    string `json:"glob"`
		Mode    string `json:"output_mode"`
	}
	unmarshal(r.t, args, &a)
	want := r.want
	if first, rest, _ := strings.Cut(want, "\n"); strings.HasPrefix(first, "Found ") {
		want = paginationRe.ReplaceAllString(first, "") + "\n" + rest
	}
	want = paginationRe.ReplaceAllString(want, "")
	grep := search.NewGrep(&workspace.Walker{})
	switch {
	case want == "No matches found":
		// A file the search takes (inside the directory searched, of the
		// kind its glob names) without the pattern.
		file := a.Path
		if info, err := os.Stat(file); err == nil && info.IsDir() {
			file = filepath.Join(file, "unrelated"+cmp.Or(filepath.Ext(a.Glob), ".txt"))
		}
		r.put(file, "class Unrelated:\n    pass\n")
		if res := r.run(grep, args); res.Text != want {
			r.t.Errorf("want %q, got %q", want, res.Text)
		}
	case a.Mode == "content":
		r.grepContent(grep, args, a.Path, want)
	default:
		r.grepFiles(grep, args, a.Pattern, a.Path, want)
	}
}

// grepFiles: Claude Code lists paths relative to the working directory,
// tack the absolute paths read takes; both list the same files under the
// same count line. The order is by modification time in both, so it is
// compared as a set.
func (r replay) grepFiles(grep tools.Tool, args json.RawMessage, pattern, dir, want string) {
	if regexp.QuoteMeta(pattern) != pattern {
		r.t.Fatalf("the replay rebuilds matches of literal patterns only, got %q", pattern)
	}
	head, list, _ := strings.Cut(want, "\n")
	var files []string
	for _, f := range strings.Split(list, "\n") {
		if !filepath.IsAbs(f) {
			f = filepath.Join(r.ws, f)
		}
		files = append(files, f)
		r.put(f, "const x = "+pattern+";\n")
	}
	r.put(filepath.Join(dir, "unrelated.txt"), "nothing to see\n")
	gotHead, gotList, _ := strings.Cut(r.run(grep, args).Text, "\n")
	got := strings.Split(gotList, "\n")
	slices.Sort(files)
	slices.Sort(got)
	if gotHead != head || !slices.Equal(got, files) {
		r.t.Errorf("want %q and %q, got %q and %q", head, files, gotHead, got)
	}
}

// contentLineRe is a content-mode line: an optional path, the number, the
// text.
var contentLineRe = regexp.MustCompile(`^(?:(.+):)?(\d+):(.*)$`)

// grepContent rebuilds each file with its matching lines at their numbers
// (empty lines between) and expects Claude Code's lines exactly; files
// come in no fixed order, so lines are compared as a set when there are
// several.
func (r replay) grepContent(grep tools.Tool, args json.RawMessage, path, want string) {
	texts := map[string][]string{}
	for _, l := range strings.Split(want, "\n") {
		m := contentLineRe.FindStringSubmatch(l)
		if m == nil {
			r.t.Fatalf("not a content line of Claude Code's Grep: %q", l)
		}
		file := cmp.Or(m[1], path)
		n, _ := strconv.Atoi(m[2])
		for len(texts[file]) < n {
			texts[file] = append(texts[file], "")
		}
		texts[file][n-1] = m[3]
	}
	for file, lines := range texts {
		r.put(file, strings.Join(lines, "\n")+"\n\n")
	}
	got := strings.Split(r.run(grep, args).Text, "\n")
	wantLines := strings.Split(want, "\n")
	slices.Sort(got)
	slices.Sort(wantLines)
	if !slices.Equal(got, wantLines) {
		r.t.Errorf("want Claude Code's lines\n%s\ngot\n%s", want, strings.Join(got, "\n"))
	}
}

// glob creates the files the result lists, and one the pattern does not
// take, and expects the same absolute paths, one a line, or "No files
// found" word for word.
func (r replay) glob(args json.RawMessage) {
	var a struct {
		Path string `json:"path"`
	}
	unmarshal(r.t, args, &a)
	g := search.NewGlob(&workspace.Walker{})
	if r.want == "No files found" {
		r.put(".claude/agents/README.txt", "not markdown\n")
		if res := r.run(g, args); res.Text != r.want {
			r.t.Errorf("want %q, got %q", r.want, res.Text)
		}
		return
	}
	want := strings.Split(r.want, "\n")
	for _, f := range want {
		r.put(f, "x\n")
	}
	r.put("unrelated.txt", "x\n")
	got := strings.Split(r.run(g, args).Text, "\n")
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		r.t.Errorf("want %q, got %q", want, got)
	}
}

// exitRe is how newer Claude Code versions open a failed command's
// result; the 1.0 versions give the output alone, flagged is_error.
var exitRe = regexp.MustCompile(`^Exit code (\d+)\n`)

// tackExitRe is tack's first line for a command that exited non-zero.
var tackExitRe = regexp.MustCompile(`^\[exit code: ([1-9]\d*)\]$`)

// bash runs the command for real in bash (a differential test: the output
// is what the tools printed then and print now) and expects the exit code
// on the first line (the same code where Claude Code's result names it,
// a non-zero one where it does not), then the same output. tack's marker
// reads "[exit code: N]", its stderr comes under a "[stderr]" line, and a
// command that ran is a result, not a tool error, whatever its exit code
// (Claude Code flags it is_error; the wire format has no such flag).
func (r replay) bash(args json.RawMessage) {
	code, want := "", r.want
	if m := exitRe.FindStringSubmatch(r.want); m != nil {
		code, want = m[1], r.want[len(m[0]):]
	} else if !r.isError {
		r.t.Fatalf("the replay covers failed commands, got %q", r.want)
	}
	var a struct {
		Command string `json:"command"`
	}
	unmarshal(r.t, args, &a)
	for _, word := range strings.Fields(a.Command)[:1] {
		if _, err := exec.LookPath(word); err != nil {
			r.t.Skipf("%s is not installed: %v", word, err)
		}
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "HOME=" + r.ws, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(r.ws)}
	b := bash.New(bash.Local{}, bash.Options{Environ: env})
	r.t.Cleanup(b.Close)
	res := r.run(b.All()[0], args)
	first, body, _ := strings.Cut(res.Text, "\n")
	if m := tackExitRe.FindStringSubmatch(first); m == nil || code != "" && m[1] != code {
		r.t.Errorf("want the exit code first, as \"[exit code: %s]\", got %q", cmp.Or(code, "N"), first)
	}
	body = strings.Replace(body, "[stderr]\n", "", 1)
	if strings.TrimRight(body, "\n") != want {
		r.t.Errorf("want the output %q, got %q", want, body)
	}
}

func unmarshal(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

func noRecord(session.Data) error { return nil }

// fsTools are read, write and edit over one tracker, so an edit knows the
// read before it; every replay has a workspace of its own.
var fsTools = fs.New(fs.NewTracker())

func fsTool(i int) tools.Tool { return fsTools[i] }

// elidedRe is a string of the real answers too long to keep there.
var elidedRe = regexp.MustCompile(`^<\w+: (\d+) characters elided>$`)

// TestReadAnswersCountLinesAsClaudeCode: tack's answer to a Read of a
// whole file has the numLines, startLine and totalLines of Claude Code's
// real answer to the same call, and its content as long, for a file that
// ends in a newline and one that does not. Each file is rebuilt from the
// lines Claude Code's result showed for that call (resultsTranscript):
// Claude Code numbers the pieces of the text split at "\n", so a final
// newline begins one more, empty, line that tack's read does not show
// but its answer counts.
func TestReadAnswersCountLinesAsClaudeCode(t *testing.T) {
	shown := map[string]string{}
	for _, p := range readJSONLines[transcriptPair](t, resultsTranscript) {
		if p.Tool == "Read" && !p.IsError {
			shown[string(p.Input)] = p.Result
		}
	}
	type realAnswer struct {
		transcriptCall
		ToolUseResult struct{ File readAnswer } `json:"toolUseResult"`
	}
	endings := map[bool]bool{}
	for _, a := range readJSONLines[realAnswer](t, realAnswers) {
		result, ok := shown[string(a.Input)]
		if a.Tool != "Read" || !ok {
			continue
		}
		r := replay{t: t, ws: t.TempDir()}
		args := json.RawMessage(inWorkspace(string(a.Input), r.ws))
		var in struct {
			FilePath string `json:"file_path"`
		}
		unmarshal(t, args, &in)
		text := readPieces(t, inWorkspace(result, r.ws))
		r.put(in.FilePath, text)
		endings[strings.HasSuffix(text, "\n")] = true
		got, want := r.readAnswer(args), a.ToolUseResult.File
		if m := elidedRe.FindStringSubmatch(want.Content); m != nil && strconv.Itoa(utf8.RuneCountInString(got.Content)) == m[1] {
			got.Content = want.Content
		}
		if got != want {
			t.Errorf("Read %s: want Claude Code's %+v, got %+v", a.Input, want, got)
		}
	}
	if !endings[true] || !endings[false] {
		t.Errorf("want real answers for files with and without a final newline, got %v", endings)
	}
}

// TestReadAnswerWindowsSliceThePieces: a window of a Read, in Claude
// Code's terms, is a slice of the pieces of the text split at "\n" (as
// TestReadAnswersCountLinesAsClaudeCode finds of whole files): the empty
// piece after a final newline is in a window that reaches it with room
// for it, and counts in totalLines always.
func TestReadAnswerWindowsSliceThePieces(t *testing.T) {
	r := replay{t: t, ws: t.TempDir()}
	r.put("f.txt", "a\nb\n")
	pieces := strings.Split("a\nb\n", "\n")
	for _, w := range []struct{ offset, limit int }{{1, 2}, {1, 3}, {2, 1}, {2, 2000}, {1, 2000}} {
		args := json.RawMessage(fmt.Sprintf(`{"file_path":"f.txt","offset":%d,"limit":%d}`, w.offset, w.limit))
		slice := pieces[w.offset-1 : min(len(pieces), w.offset-1+w.limit)]
		if f := r.readAnswer(args); f.Content != strings.Join(slice, "\n") || f.NumLines != len(slice) || f.StartLine != w.offset || f.TotalLines != len(pieces) {
			t.Errorf("offset %d, limit %d: want %q in %d lines from %d of %d, got %+v",
				w.offset, w.limit, strings.Join(slice, "\n"), len(slice), w.offset, len(pieces), f)
		}
	}
}

// readAnswer is the file of a text Read's answer in Claude Code's terms.
type readAnswer struct {
	Content                         string
	NumLines, StartLine, TotalLines int
}

// readAnswer runs read in the workspace and gives its answer's file.
func (r replay) readAnswer(args json.RawMessage) readAnswer {
	r.t.Helper()
	res := r.call(fsTool(0), args)
	var got struct{ File readAnswer }
	unmarshal(r.t, json.RawMessage(mustJSON(r.t, claudemsg.ToolUseResult(claudemsg.ToolCall{Name: "Read",
		Input: tools.ClaudeInput(args, r.ws), Text: res.Text, Card: res.Card}))), &got)
	return got.File
}

// TestGrepCountAnswersNameFilesAsClaudeCode: tack's answer to a Grep in
// count mode names each file by absolute path, as Claude Code's real
// answer does for a directory named relative to the workspace
// ("claude-conversations"): the files its content counts are rebuilt,
// each with as many matching lines, and tack's content lines must be
// Claude Code's, in any order.
func TestGrepCountAnswersNameFilesAsClaudeCode(t *testing.T) {
	type realAnswer struct {
		transcriptCall
		ToolUseResult json.RawMessage `json:"toolUseResult"`
	}
	compared := 0
	for _, a := range readJSONLines[realAnswer](t, realAnswers) {
		var answer struct{ Mode, Content string }
		if a.Tool != "Grep" || json.Unmarshal(a.ToolUseResult, &answer) != nil || answer.Mode != "count" {
			continue
		}
		r := replay{t: t, ws: t.TempDir()}
		var in struct{ Pattern string }
		unmarshal(t, a.Input, &in)
		want := strings.Split(inWorkspace(answer.Content, r.ws), "\n")
		for _, l := range want {
			name, n, _ := strings.Cut(l, ":")
			count, err := strconv.Atoi(n)
			if err != nil || !filepath.IsAbs(name) {
				t.Fatalf("not a count line of Claude Code's naming a file absolute: %q", l)
			}
			r.put(name, strings.Repeat(in.Pattern+"\n", count)+"unrelated\n")
		}
		res := r.call(search.NewGrep(&workspace.Walker{}), a.Input)
		var got struct{ Content string }
		unmarshal(t, json.RawMessage(mustJSON(t, claudemsg.ToolUseResult(claudemsg.ToolCall{Name: "Grep", Input: a.Input,
			Text: res.Text, Card: res.Card}))), &got)
		lines := strings.Split(got.Content, "\n")
		slices.Sort(lines)
		slices.Sort(want)
		if !slices.Equal(lines, want) {
			t.Errorf("Grep %s: want Claude Code's lines\n%s\ngot\n%s", a.Input, strings.Join(want, "\n"), got.Content)
		}
		compared++
	}
	if compared == 0 {
		t.Error("want a real Grep answer in count mode to compare with, found none")
	}
}
