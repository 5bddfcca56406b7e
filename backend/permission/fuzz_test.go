package permission

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// maxFuzzCommand bounds the commands the fuzzer parses, so that one run
// stays fast.
const maxFuzzCommand = 4 << 10

// attacks are appended to a command the remembered prefixes allow; each
// makes the shell run something else or write a file.
var attacks = []string{"; rm -rf x", " && curl x | sh", "$(rm x)", " $(rm x)", " > file", "\nrm -rf x", " | sh"}

// FuzzCoveredAllowsOnlyThePrefix remembers the prefixes PrefixesFor gives
// for one command and asks whether another is covered by them. Neither call
// panics, and a covered command runs nothing but simple commands starting
// with a prefix and writes no file (checked against the shell syntax
// tree, independently of the matcher). Appending a second command, a
// command substitution or a redirection to a covered command is then
// refused whenever the shell would run or write something the prefixes do
// not cover.
func FuzzCoveredAllowsOnlyThePrefix(f *testing.F) {
	for _, s := range [][2]string{
		{"git status", "git status --short"},
		{"git status", "git status | grep x && (git status)"},
		{"ls -la", "ls -la > /dev/null 2>&1"},
		{"go test ./...", "go test ./... $(go test x) <(go test y)"},
		{"grep x", "grep x <<EOF\n$(grep y)\nEOF"},
		{"grep x", "grep x <<'EOF'\n$(rm y)\nEOF"},
		{"echo hi", "echo hi # && rm x"},
		{"rm foo", "rm -rf x; rm y"},
		{"git status", "{ git status; git status; } &"},
		{"cat a", "cat a >& out"},
		{"'git' status", "\"git\" 'status'"},
		{"LANG=C git status", "TZ='UTC' git status && NODE_ENV= git status"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, first, command string) {
		if len(first) > maxFuzzCommand || len(command) > maxFuzzCommand {
			return
		}
		prefixes, ok := PrefixesFor(first)
		if !ok {
			return
		}
		for _, p := range prefixes {
			if p == "" || runsOtherPrograms(strings.Fields(p)[0]) {
				t.Fatalf("PrefixesFor(%q): want prefixes of programs that run nothing else, got %q", first, prefixes)
			}
		}
		if !covered(first, prefixes) {
			t.Fatalf("PrefixesFor(%q) = %q: want the command itself covered by its prefixes", first, prefixes)
		}
		checkCovered(t, command, prefixes)
		if covered(command, prefixes) {
			for _, a := range attacks {
				checkCovered(t, command+a, prefixes)
			}
		}
	})
}

// checkCovered fails when covered allows command although its syntax tree
// shows a simple command that does not start with one of prefixes, or a
// write to a file.
func checkCovered(t *testing.T, command string, prefixes []string) {
	t.Helper()
	if !covered(command, prefixes) {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		t.Fatalf("covered(%q, %q): want unparsable commands refused, got allowed (%v)", command, prefixes, err)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if !setsHarmlessText(n.Assigns) || !slices.ContainsFunc(prefixes, func(p string) bool { return startsWith(n.Args, strings.Fields(p)) }) {
				t.Fatalf("covered(%q, %q): want refused, it runs %q", command, prefixes, source(command, n))
			}
		case *syntax.Redirect:
			if writesFile(n) {
				t.Fatalf("covered(%q, %q): want refused, it writes through %q", command, prefixes, source(command, n))
			}
		case *syntax.FuncDecl, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause,
			*syntax.DeclClause, *syntax.CoprocClause, *syntax.TimeClause, *syntax.LetClause, *syntax.TestClause,
			*syntax.ArithmCmd, *syntax.TestDecl:
			t.Fatalf("covered(%q, %q): want refused, it uses %T", command, prefixes, n)
		}
		return true
	})
}

// startsWith reports whether the first words of args are plain words equal
// to prefix. A prefix never holds a backslash or a glob, so a word the
// shell would rewrite cannot equal one.
func startsWith(args []*syntax.Word, prefix []string) bool {
	if len(args) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if text, ok := plainText(args[i]); !ok || text != p {
			return false
		}
	}
	return true
}

// setsHarmlessText reports whether each assignment sets a variable the
// allow list holds (harmless.go) to plain text: a value that expands
// nothing runs nothing, whatever the matcher made of it.
func setsHarmlessText(as []*syntax.Assign) bool {
	for _, a := range as {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Name == nil || !harmless(a.Name.Value+"=") {
			return false
		}
		if a.Value == nil {
			continue
		}
		if _, ok := plainText(a.Value); !ok {
			return false
		}
	}
	return true
}

// plainText is a word made of unquoted text, single quotes and double
// quotes without expansions, read as written.
func plainText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			b.WriteString(part.Value)
		case *syntax.SglQuoted:
			if part.Dollar {
				return "", false
			}
			b.WriteString(part.Value)
		case *syntax.DblQuoted:
			for _, inner := range part.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// writesFile reports whether a redirection writes to something other than
// /dev/null or another file descriptor.
func writesFile(r *syntax.Redirect) bool {
	target := ""
	if r.Word != nil && len(r.Word.Parts) == 1 {
		if lit, ok := r.Word.Parts[0].(*syntax.Lit); ok {
			target = lit.Value
		}
	}
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return false
	case syntax.DplIn, syntax.DplOut:
		return target != "-" && target != "/dev/null" && strings.Trim(target, "0123456789") != ""
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return target != "/dev/null"
	}
	return true
}

// source is the text of node n in command, for messages.
func source(command string, n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start > end || int(end) > len(command) {
		return command
	}
	return command[start:end]
}
