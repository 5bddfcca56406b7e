package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash runs code in places a parser reads as text: a $(…) inside single
// quotes within $(( )), $[ ] or an array subscript is expanded when the
// arithmetic is evaluated; a name given to test -v, printf -v, read or
// unset may carry a subscript whose $(…) runs; ${x@P} prompt-expands a
// value. No parser can follow bash into all of them, so a remembered
// answer never covers a command that holds any of them: accounted refuses
// them all, and the user is asked every time.

// accounted reports whether the parser can account for everything f (from
// src) runs: no arithmetic, no parameter expansion beyond a plain name (and
// none containing a substitution), no backquotes, no process substitution,
// no "$(" or backquote inside literal text, and no /dev/tcp or /dev/udp,
// through which a command talks to the network with no program to see.
func accounted(f *syntax.File, src string) bool {
	if strings.Contains(src, "/dev/tcp") || strings.Contains(src, "/dev/udp") {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.ProcSubst:
			ok = false
		case *syntax.CmdSubst:
			ok = !n.Backquotes
		case *syntax.ParamExp:
			ok = plainParam(n)
		case *syntax.Lit:
			ok = !hidesCode(n.Value)
		case *syntax.SglQuoted:
			ok = !hidesCode(n.Value)
		}
		return ok
	})
	return ok
}

// plainParam reports whether p is $name or ${name}, or a default such as
// ${name:-text} whose text holds no substitution.
func plainParam(p *syntax.ParamExp) bool {
	if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return false
	}
	if p.Exp == nil {
		return true
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
	default:
		return false // transformations (@P, @E …), case changes, removals
	}
	if p.Exp.Word == nil {
		return true // ${name+} and the like: an empty word
	}
	clean := true
	syntax.Walk(p.Exp.Word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			clean = false
		}
		return clean
	})
	return clean
}

// hidesCode reports whether literal text holds a command substitution that
// bash would run if the text became a subscript or an arithmetic
// expression.
func hidesCode(s string) bool {
	return strings.Contains(s, "$(") || strings.Contains(s, "`") || strings.Contains(s, "$[")
}
