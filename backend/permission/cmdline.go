package permission

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command line as rules see it whole: parsed once, printed back the same
// for lines that differ only in spacing, and without its harmless
// assignments, so a rule naming a whole line (what "don't ask again"
// saves) matches the line however it is spaced.

// commandLine is a command parsed: ok when it parses, accounted when the
// parser can account for everything it runs; printed is the parsed line
// printed back, the same for lines that differ only in spacing, and
// unassigned it printed without its harmless assignments ("" when it
// makes none).
type commandLine struct {
	text, printed, unassigned string
	file                      *syntax.File
	ok, accounted             bool
}

func parseLine(text string) *commandLine {
	l := &commandLine{text: text}
	l.file, l.ok = parse(text)
	l.accounted = l.ok && accounted(l.file, text)
	if l.ok {
		l.printed = printed(l.file)
		l.unassigned = printedUnassigned(text)
	}
	return l
}

// printedUnassigned is text parsed and printed back without the harmless
// assignments (harmless.go) in front of its commands, as allowing looks
// past them; "" when it makes none. A command that only assigns keeps
// its assignments: they set the shell's variables for what follows.
// Allowing still holds each value to a literal (isLine).
func printedUnassigned(text string) string {
	f, ok := parse(text)
	if !ok {
		return ""
	}
	dropped := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			n := len(call.Assigns)
			call.Assigns = slices.DeleteFunc(call.Assigns, func(a *syntax.Assign) bool { return a.Name != nil && harmless(a.Name.Value+"=") })
			dropped = dropped || len(call.Assigns) < n
		}
		return true
	})
	if !dropped {
		return ""
	}
	return printed(f)
}

// printed is f printed back as shell text, "" when it cannot be.
func printed(f *syntax.File) string {
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return ""
	}
	return b.String()
}

// isLine reports whether l is the command line arg names, spacing aside:
// Claude Code matches a rule without wildcards (or one ending in ":*")
// against the whole line before it splits the line into commands, and its
// "don't ask again" wrote such rules for whole lines, pipes and && lists
// included. Each simple command of the line is still held to what every
// allowed command is: variables set to literals only, nothing dangerous,
// no file written by a redirection.
func isLine(l *commandLine, arg string) bool {
	if !l.accounted || !sameLine(l, arg) {
		return false
	}
	return matcher{unwrap: true, allows: func(_, w []string, allLiteral bool) bool { return !dangerous(w, allLiteral) }}.stmts(l.file.Stmts)
}

// sameLine reports whether l parses to the command line arg names, as
// written or without its harmless assignments (NODE_ENV=production npm
// run build 2>&1 | tail -30 is the line npm run build 2>&1 | tail -30).
func sameLine(l *commandLine, arg string) bool {
	if l.printed == "" || len(l.file.Stmts) == 0 {
		return false
	}
	line := once(lineKey{arg}, func() string { return ruleLine(arg) })
	return line != "" && (line == l.printed || line == l.unassigned)
}

// ruleLine is the command line a rule's argument names, printed as
// parseLine prints it; "" when the argument has a wildcard or does not
// parse.
func ruleLine(arg string) string {
	arg = strings.TrimSuffix(strings.TrimSpace(arg), ":*")
	if strings.Contains(arg, "*") {
		return ""
	}
	f, ok := parse(arg)
	if !ok || len(f.Stmts) == 0 {
		return ""
	}
	return printed(f)
}
