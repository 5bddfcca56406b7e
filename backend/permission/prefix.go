package permission

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A remembered bash prefix is a list of literal words: the program and,
// when it has one, its subcommand ("git status", "go test", "ls"). It is
// remembered together with how far it may leave the sandbox (nothing
// beyond a question's "for this session" in ask mode, network, or outside
// the sandbox altogether), and a later command is covered only if the shell
// parser can see every program it would run, and each of those simple
// commands begins with a remembered prefix, word for word.
//
// The matcher is deliberately narrow. It asks whenever:
//   - the command does not parse, or holds something the parser cannot
//     follow bash into (accounted.go: arithmetic, parameter expansions
//     beyond a name, backquotes, process substitution, "$(" in literal
//     text, /dev/tcp);
//   - a simple command assigns variables (FOO=1 git status), or its
//     program or prefix words are not plain literals (variables, command
//     substitutions, globs, backslashes); an allow rule that names the
//     assignments (Bash(PYTHONPATH=. python *)) covers them; those of
//     harmless variables (harmless.go: NODE_ENV=test npm test) are looked
//     past, by remembered prefixes and by rules that name none;
//   - a simple command uses a dangerous form of its program (dangerous.go:
//     git -c, find -exec, sed -i, go test -exec …);
//   - it uses a construct other than simple commands joined by lists,
//     pipelines, &&, ||, subshells and { } groups: if, for, while, case,
//     [[ ]], (( )), declarations, function definitions, coprocesses;
//   - it runs a program that runs other programs from its arguments (eval,
//     exec, source, sudo, xargs, env, a shell, ...), which no prefix covers
//     (an allow rule looks through timeout, nice and the like: wrappers.go);
//   - it redirects output to a file (>, >>, >|, &>, &>>, <>, >& file):
//     that is a write. Redirections to /dev/null and between descriptors
//     (2>&1) are allowed, and so is reading a file with <.
//
// Command substitutions $(…) and here-documents are looked into: the
// commands inside must match too.

// runsOtherPrograms reports whether program's arguments are themselves
// commands.
func runsOtherPrograms(program string) bool {
	switch program {
	case "eval", "exec", "source", ".", "command", "builtin",
		"sudo", "doas", "su", "env", "xargs", "nohup",
		"time", "timeout", "nice", "ionice", "setsid", "stdbuf",
		"watch", "parallel", "trap",
		"bash", "sh", "zsh", "dash", "ksh", "fish", "csh", "tcsh":
		return true
	}
	return false
}

// destroys reports whether program deletes or overwrites data or stops
// processes whatever its arguments: remembering it would allow "rm -rf ~"
// because "rm x" was allowed once, so it is never offered.
func destroys(program string) bool {
	switch program {
	case "rm", "rmdir", "shred", "dd", "mkfs", "truncate", "kill", "killall", "pkill",
		"reboot", "shutdown", "halt", "poweroff":
		return true
	}
	return false
}

// takesSubcommand reports whether program's second word may name what it
// does (git status, go test, npm run) rather than what it works on: the
// common file and text utilities take only arguments, so "cd sub" is
// remembered as "cd".
func takesSubcommand(program string) bool {
	switch program {
	case "cd", "ls", "cat", "head", "tail", "less", "more", "echo", "printf", "pwd", "which", "type",
		"mkdir", "touch", "cp", "mv", "ln", "chmod", "chown", "stat", "file", "du", "df",
		"grep", "rg", "egrep", "fgrep", "find", "fd", "wc", "sort", "uniq", "cut", "tr", "diff", "cmp",
		"sed", "awk", "jq", "tree", "basename", "dirname", "realpath", "readlink", "true", "false", "test":
		return false
	}
	return true
}

// requiresSubcommand reports whether program does such different things by
// subcommand that remembering it alone would allow all of them.
func requiresSubcommand(program string) bool {
	switch program {
	case "git", "go", "npm", "yarn", "pnpm", "bun", "deno", "cargo", "rustup", "pip", "pip3", "uv", "poetry",
		"gh", "brew", "apt", "apt-get", "dnf", "mvn", "gradle", "./gradlew", "dotnet", "terraform", "helm",
		"aws", "gcloud", "az", "kubectl", "docker", "podman", "systemctl":
		return true
	}
	return false
}

// The patterns are compiled on first use, not at start-up.
var (
	programWord    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_./+-]+$`) })
	subcommandWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_:-]*$`) })
)

func parse(command string) (*syntax.File, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, false
	}
	return f, true
}

// PrefixesFor are the prefixes that "allow for this session" remembers for
// command, one per distinct simple command in it, in order: the program
// name, plus the second word when that is a subcommand (a plain word, not
// a flag or a path). "go build && go test ./..." gives "go build" and
// "go test"; NODE_ENV=test npm test gives "npm test". It reports false
// when some part of the command is one the matcher could not later
// recognise, sets a variable that is not harmless, runs a program that runs
// other programs or destroys data, or hides a command in a substitution
// that the visible ones do not cover.
func PrefixesFor(command string) ([]string, bool) {
	f, ok := parse(command)
	if !ok || len(f.Stmts) == 0 {
		return nil, false
	}
	var prefixes []string
	if !accounted(f, command) {
		return nil, false
	}
	collect := matcher{surface: true, allows: func(assigns, words []string, allLiteral bool) bool {
		if len(withoutHarmless(assigns)) > 0 || !programWord().MatchString(words[0]) || destroys(words[0]) || dangerous(words, allLiteral) {
			return false
		}
		prefix := words[0]
		hasSub := len(words) > 1 && takesSubcommand(words[0]) && subcommandWord().MatchString(words[1])
		switch {
		case hasSub:
			prefix += " " + words[1]
		case requiresSubcommand(words[0]):
			// "git" alone would cover git push --force: such a program
			// is remembered with its subcommand or not at all.
			return false
		}
		if !slices.Contains(prefixes, prefix) {
			prefixes = append(prefixes, prefix)
		}
		return true
	}}
	// Commands hidden in substitutions must be covered by the prefixes of
	// those the user can see; a write to a file would ask again under the
	// remembered prefixes, so offering them would mislead.
	if !collect.stmts(f.Stmts) || !covered(command, prefixes) {
		return nil, false
	}
	return prefixes, true
}

// covered reports whether every simple command of command begins with one
// of prefixes (each a space-separated list of words), setting no variable
// but harmless ones.
func covered(command string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return false
	}
	f, ok := parse(command)
	if !ok || len(f.Stmts) == 0 || !accounted(f, command) {
		return false
	}
	var words [][]string
	for _, p := range prefixes {
		words = append(words, strings.Fields(p))
	}
	starts := startsWithPrefix(words)
	return matcher{allows: func(assigns, w []string, allLiteral bool) bool {
		return len(withoutHarmless(assigns)) == 0 && starts(w, allLiteral) && !dangerous(w, allLiteral)
	}}.stmts(f.Stmts)
}

// matcher walks a parsed command line and accepts it only when every
// simple command in it, including those in substitutions, is one allows
// accepts, and nothing writes a file through a redirection.
type matcher struct {
	// allows judges a simple command by its variable assignments
	// (NAME=value) and its leading literal words (the program first);
	// allLiteral says no word after them was left out.
	allows func(assigns, words []string, allLiteral bool) bool
	// surface skips the commands hidden in substitutions and
	// here-documents, judging only those the command line shows.
	surface bool
	// unwrap judges a command by the one its wrappers run
	// (wrappers.go): timeout 30 npm test as npm test.
	unwrap bool
}

func (m matcher) stmts(stmts []*syntax.Stmt) bool {
	for _, s := range stmts {
		if !m.stmt(s) {
			return false
		}
	}
	return true
}

func (m matcher) stmt(s *syntax.Stmt) bool {
	if s.Coprocess || s.Cmd == nil {
		return false
	}
	for _, r := range s.Redirs {
		if !m.redirect(r) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return m.call(c)
	case *syntax.BinaryCmd:
		return m.stmt(c.X) && m.stmt(c.Y)
	case *syntax.Subshell:
		return m.stmts(c.Stmts)
	case *syntax.Block:
		return m.stmts(c.Stmts)
	case *syntax.TimeClause:
		return m.unwrap && c.Stmt != nil && m.stmt(c.Stmt)
	default:
		return false
	}
}

// call checks one simple command: literal variable assignments if any, a
// literal program that does not run other programs, accepted by allows
// with its leading literal words, and substitutions in its words accepted
// too.
func (m matcher) call(c *syntax.CallExpr) bool {
	assigns, ok := assignments(c.Assigns)
	if !ok || len(c.Args) == 0 {
		return false
	}
	words := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		lit, ok := literal(w)
		if !ok {
			break
		}
		words = append(words, lit)
	}
	allLiteral := len(words) == len(c.Args)
	if m.unwrap {
		words = unwrapped(words)
	}
	if len(words) == 0 || runsOtherPrograms(words[0]) {
		return false
	}
	if !m.allows(assigns, words, allLiteral) {
		return false
	}
	for _, w := range c.Args {
		if !m.word(w) {
			return false
		}
	}
	return true
}

// assignments are the words of a simple command's variable assignments
// (NAME=value), when each is a plain one with a literal value.
func assignments(as []*syntax.Assign) ([]string, bool) {
	words := make([]string, 0, len(as))
	for _, a := range as {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Name == nil {
			return nil, false
		}
		value := ""
		if a.Value != nil {
			v, ok := literal(a.Value)
			if !ok {
				return nil, false
			}
			value = v
		}
		words = append(words, a.Name.Value+"="+value)
	}
	return words, true
}

// startsWithPrefix accepts a command whose leading literal words start
// with one of prefixes.
func startsWithPrefix(prefixes [][]string) func([]string, bool) bool {
	return func(words []string, _ bool) bool {
		for _, p := range prefixes {
			if len(p) > 0 && len(p) <= len(words) && equal(p, words[:len(p)]) {
				return true
			}
		}
		return false
	}
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (m matcher) redirect(r *syntax.Redirect) bool {
	if r.Hdoc != nil && !m.word(r.Hdoc) {
		return false
	}
	if r.Word != nil && !m.word(r.Word) {
		return false
	}
	target, _ := literal(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.DplIn, syntax.DplOut:
		return target == "-" || isDigits(target) || target == "/dev/null"
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return target == "/dev/null"
	default:
		return false
	}
}

// word checks the commands hidden in a word: command and process
// substitutions must match too.
func (m matcher) word(w *syntax.Word) bool {
	if m.surface {
		return true
	}
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			ok = m.stmts(n.Stmts)
			return false
		case *syntax.ProcSubst:
			ok = m.stmts(n.Stmts)
			return false
		}
		return true
	})
	return ok
}

// literal is the value of a word that the shell would not expand: plain
// text and quotes only, no variables, substitutions, globs or escapes.
func literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\*?[]{}~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				lit, ok := inner.(*syntax.Lit)
				if !ok || strings.Contains(lit.Value, "\\") {
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

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
