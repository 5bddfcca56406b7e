package permission

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/workspace"
)

// Entries are Claude Code's language for naming calls, which claude -p's
// --allowed-tools and --disallowed-tools and the permission rules of its
// settings files share: a tool ("Read", "bash", "mcp__docs__search"), an
// MCP server ("mcp__github", "mcp__github__*"), or a tool and what it is
// applied to:
//
//   - Bash(npm run test), Bash(git diff *), Bash(npm run test:*): a command
//     exactly, or as a glob where * stands for any text and a trailing
//     " *" (or the older ":*") also matches the command without arguments;
//   - Read(./.env), Edit(src/**): files, in gitignore's patterns, anchored
//     as Claude Code anchors them (pathpattern.go); Read's cover grep and
//     glob as well, Edit's write as well;
//   - WebFetch(domain:docs.rs): the domain a fetch reaches (*.docs.rs
//     covers its subdomains).
//
// A command line is allowed by an entry when every simple command the
// parser finds in it is, or when it is the entry's command line exactly
// (Bash(npm run build 2>&1 | tail -30)); a list of entries allows it when
// each of its simple commands is allowed by one of them (rules.go). It is
// refused when any one of its simple commands is.

// pathFamilies are the tools a path entry of a tool covers: Claude Code's
// Read rules bind every tool that reads files, its Edit rules every tool
// that changes them.
var pathFamilies = map[string][]string{
	"read": {"read", "grep", "glob"}, "edit": {"edit", "write", "notebook_edit"}, "write": {"edit", "write", "notebook_edit"},
}

// subject is what entries are matched against: the call's tool, its
// command, the files it reads or writes (absolute) and its scope (the
// domain a fetch reaches). line is the command parsed, once for every
// entry it meets; nil parses it on demand.
type subject struct {
	tool, command, scope string
	paths                []string
	line                 *commandLine
}

// parsed is s's command line parsed.
func (s subject) parsed() *commandLine {
	if s.line != nil {
		return s.line
	}
	return parseLine(s.command)
}

// anchors are the directories path entries are relative to: "~/p" to
// home, "/p" to root (the project whose settings file holds the entry),
// "p" and "./p" to cwd.
type anchors struct{ cwd, home, root string }

// entry is one parsed entry.
type entry struct {
	text string
	// tool is tack's name of the entry's tool, or an MCP server's prefix.
	tool   string
	arg    string
	hasArg bool
}

func parseEntry(text string) entry {
	tool, arg, hasArg := strings.Cut(strings.TrimSpace(text), "(")
	tool = strings.TrimSpace(tool)
	tool = tools.FromClaude(tool)
	arg = unescapeArg(strings.TrimSpace(strings.TrimSuffix(arg, ")")))
	return entry{text: text, tool: strings.TrimSuffix(tool, "__*"), arg: arg, hasArg: hasArg}
}

// unescapeArg reads an entry's argument as Claude Code writes it into
// settings files: a parenthesis in it escaped (print\(1\)), and so a
// backslash doubled.
func unescapeArg(arg string) string {
	if !strings.Contains(arg, `\`) {
		return arg
	}
	return strings.NewReplacer(`\(`, "(", `\)`, ")", `\\`, `\`).Replace(arg)
}

// names reports whether the entry's tool is s's: the same name, an MCP
// server naming its tools, or a path entry's family.
func (e entry) names(s subject) bool {
	switch {
	case e.tool == s.tool:
		return true
	case strings.HasPrefix(e.tool, "mcp__") && strings.Count(e.tool, "__") == 1:
		return strings.HasPrefix(s.tool, e.tool+"__")
	case e.hasArg && isPath(e.arg):
		for _, t := range pathFamilies[e.tool] {
			if t == s.tool {
				return true
			}
		}
	}
	return false
}

// isPath reports whether an entry's argument is a path pattern rather than
// a command or a domain; only the path families take one.
func isPath(arg string) bool { return !strings.HasPrefix(arg, "domain:") }

// allows reports whether the entry lets s run: its tool without an
// argument, every command of the line, a path of every file, the domain.
// An argument it cannot read allows nothing.
func (e entry) allows(s subject, a anchors) bool {
	if !e.names(s) {
		return false
	}
	switch {
	case !e.hasArg:
		return true
	case e.arg == "" || e.arg == "*":
		return true
	case s.command != "":
		l := s.parsed()
		return everyCommand(l, compileCommand(e.arg, false)) || isLine(l, e.arg)
	case pathFamilies[e.tool] != nil:
		return len(s.paths) > 0 && allMatch(s.paths, compilePath(e.arg, a))
	case s.scope != "":
		return domainMatches(e.arg, s.scope)
	}
	return false
}

// refuses reports whether the entry refuses s (for a deny rule) or makes
// it ask (for an ask rule): its tool, any command of the line (or one the
// parser cannot see), any file, the domain. An argument it cannot read
// covers the whole tool, since it may have been meant to.
func (e entry) refuses(s subject, a anchors) bool {
	if !e.names(s) {
		return false
	}
	switch {
	case !e.hasArg || e.arg == "" || e.arg == "*":
		return true
	case s.command != "":
		l := s.parsed()
		return anyCommand(l, compileCommand(e.arg, true)) || sameLine(l, e.arg)
	case pathFamilies[e.tool] != nil:
		return anyMatch(s.paths, compilePath(e.arg, a))
	case s.scope != "":
		return domainMatches(e.arg, s.scope)
	case strings.HasPrefix(e.arg, "domain:"):
		return false
	}
	return true
}

// domainMatches reports whether a fetch of host is covered by arg,
// "domain:docs.rs" or "domain:*.docs.rs".
func domainMatches(arg, host string) bool {
	d, ok := strings.CutPrefix(arg, "domain:")
	if !ok {
		return false
	}
	d = strings.ToLower(strings.TrimSpace(d))
	if rest, ok := strings.CutPrefix(d, "*."); ok {
		return strings.HasSuffix(host, "."+rest)
	}
	return host == d
}

// commandPattern is a compiled command argument.
type commandPattern struct {
	re *regexp.Regexp
	// lit is the pattern up to its first wildcard.
	lit string
	// named finds the pattern's program, its first word when that is
	// whole, in a command line.
	named *regexp.Regexp
	// head are the literal words before a trailing " *", when that is the
	// only wildcard: a command whose later words the parser cannot read
	// still matches when it starts with them.
	head []string
	// assigns says the pattern begins with variable assignments
	// (PYTHONPATH=. python *): it covers the commands that make them, and
	// a pattern without covers none that make any. Allowing tries a
	// command's assignments without the harmless ones too (harmless.go).
	assigns bool
}

// assignment is a word that assigns a variable, NAME=value.
var assignment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`) })

// compiled holds the patterns compiled so far, by their argument (and
// anchors): a session's rules are few and each is met by every call.
var compiled sync.Map

type commandKey struct {
	arg      string
	refusing bool
}

// lineKey is a command argument read as a whole command line.
type lineKey struct{ arg string }

type pathKey struct {
	arg string
	a   anchors
}

// compileCommand compiles a command argument, once, for allowing or for
// refusing: refusing takes a command without wildcards as a prefix too
// ("Bash(git push)" refuses "git push origin main"), and names its
// program by the program's base name.
func compileCommand(arg string, refusing bool) commandPattern {
	return once(commandKey{arg, refusing}, func() commandPattern { return newCommandPattern(arg, refusing) })
}

// once is what compiled holds for key, made by build the first time.
func once[K comparable, V any](key K, build func() V) V {
	if v, ok := compiled.Load(key); ok {
		return v.(V)
	}
	v := build()
	compiled.Store(key, v)
	return v
}

func newCommandPattern(arg string, refusing bool) commandPattern {
	arg = unquote(strings.TrimSpace(arg))
	if rest, ok := strings.CutSuffix(arg, ":*"); ok {
		arg = rest + " *"
	}
	if refusing && !strings.Contains(arg, "*") {
		arg += " *"
	}
	var c commandPattern
	body, anyArgs := strings.CutSuffix(arg, " *")
	fields := strings.Fields(body)
	program := 0
	for program < len(fields) && assignment().MatchString(fields[program]) {
		program, c.assigns = program+1, true
	}
	if inner := unwrapped(fields[program:]); !refusing && len(inner) > 0 && !strings.Contains(strings.Join(fields[program:len(fields)-len(inner)], " "), "*") {
		fields = append(fields[:program], inner...)
	}
	hasProgram := program < len(fields) && !strings.Contains(fields[program], "*")
	if refusing && hasProgram {
		// Refusing names a program by its base name, as it finds the
		// programs of a line: Bash(/bin/rm *) refuses rm, and Bash(rm *)
		// /bin/rm.
		fields[program] = path.Base(fields[program])
	}
	body = strings.Join(fields, " ")
	if anyArgs && !strings.Contains(body, "*") {
		c.head = slices.Clone(fields)
	}
	c.lit, _, _ = strings.Cut(body, "*")
	if hasProgram {
		c.named = regexp.MustCompile(`(^|[^\w.-])` + regexp.QuoteMeta(fields[program]) + `($|[^\w.-])`)
	}
	parts := strings.Split(body, "*")
	for i := range parts {
		parts[i] = strings.ReplaceAll(regexp.QuoteMeta(parts[i]), literalStar, `\*`)
	}
	expr := "^" + strings.Join(parts, ".*")
	if anyArgs {
		expr += "( .*)?"
	}
	c.re = regexp.MustCompile(expr + "$")
	c.lit = strings.ReplaceAll(c.lit, literalStar, "*")
	for i := range c.head {
		c.head[i] = strings.ReplaceAll(c.head[i], literalStar, "*")
	}
	return c
}

// literalStar stands for a quoted * while a pattern is compiled.
const literalStar = "\x00"

// unquote takes the shell's quoting out of a command pattern, as the
// parser takes it out of the command's words: Claude Code saves the
// commands the user answered "don't ask again" to as they were typed,
// Bash(npx prettier --write "src/**/*.ts") or
// Bash("/mnt/c/Program Files/app.exe" /ErrorStdOut "x.ahk"). A * in
// quotes stays a star (literalStar), not a wildcard. A pattern whose
// quotes do not close is left as it is.
func unquote(arg string) string {
	if !strings.ContainsAny(arg, `"'\`) {
		return arg
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(arg); i++ {
		ch := arg[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else {
				b.WriteString(starOf(ch))
			}
		case ch == '\\' && i+1 < len(arg) && (quote == 0 || strings.IndexByte("$`\"\\", arg[i+1]) >= 0):
			i++
			b.WriteString(starOf(arg[i]))
		case quote == '"':
			if ch == '"' {
				quote = 0
			} else {
				b.WriteString(starOf(ch))
			}
		case ch == '"' || ch == '\'':
			quote = ch
		default:
			b.WriteByte(ch)
		}
	}
	if quote != 0 {
		return arg
	}
	return b.String()
}

// starOf is a quoted or escaped byte of a pattern: a * is literalStar.
func starOf(ch byte) string {
	if ch == '*' {
		return literalStar
	}
	return string(ch)
}

// matches reports whether a simple command, its assignments and its
// leading literal words (allLiteral when they are all of it), is covered.
func (c commandPattern) matches(assigns, words []string, allLiteral bool) bool {
	if len(words) == 0 || c.assigns != (len(assigns) > 0) {
		return false
	}
	words = append(slices.Clip(assigns), words...)
	if allLiteral {
		return c.re.MatchString(strings.Join(words, " "))
	}
	return c.head != nil && len(words) >= len(c.head) && equal(c.head, words[:len(c.head)])
}

// couldMatch reports whether a simple command some of whose words the
// parser cannot read might be covered: what it can read agrees with the
// pattern's literal beginning.
func (c commandPattern) couldMatch(words []string) bool {
	known := strings.Join(words, " ")
	return strings.HasPrefix(known, c.lit) || strings.HasPrefix(c.lit, known)
}

// everyCommand reports whether every simple command of line is covered
// by one of cs, as written or without its harmless assignments
// (NODE_ENV=test), none of them in a dangerous form (git -c, find -exec),
// and nothing writes a file through a redirection.
func everyCommand(l *commandLine, cs ...commandPattern) bool {
	if !l.accounted || len(l.file.Stmts) == 0 {
		return false
	}
	return matcher{unwrap: true, allows: func(assigns, w []string, allLiteral bool) bool {
		named := withoutHarmless(assigns)
		return !dangerous(w, allLiteral) && slices.ContainsFunc(cs, func(c commandPattern) bool {
			return c.matches(assigns, w, allLiteral) || c.matches(named, w, allLiteral)
		})
	}}.stmts(l.file.Stmts)
}

// anyCommand reports whether some simple command of line, those in
// substitutions included, may be covered: it is, or its program is not a
// literal word, or the line does not parse. Where the line names the
// pattern's program, a form the parser cannot follow (arithmetic,
// expansions that run code) or a program that runs others (sh -c, xargs,
// git -c, find -exec) counts as running it too.
func anyCommand(l *commandLine, c commandPattern) bool {
	if !l.ok {
		return true
	}
	mentions := c.named != nil && c.named.MatchString(l.text)
	if mentions && !l.accounted {
		return true
	}
	found := false
	syntax.Walk(l.file, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || found || len(call.Args) == 0 {
			return !found
		}
		var words []string
		for _, w := range call.Args {
			lit, ok := literal(w)
			if !ok {
				break
			}
			words = append(words, lit)
		}
		if len(words) == 0 {
			found = true // the program is computed: it could be the refused one
			return false
		}
		words[0] = path.Base(words[0]) // /bin/rm is rm
		allLiteral := len(words) == len(call.Args)
		assigns, _ := assignments(call.Assigns)
		// Refusing looks past every assignment, and refuses all that
		// allowing would cover: with or without the harmless ones.
		found = mentions && (runsOtherPrograms(words[0]) || dangerous(words, allLiteral)) ||
			slices.ContainsFunc([][]string{nil, assigns, withoutHarmless(assigns)}, func(a []string) bool {
				if allLiteral {
					return c.matches(a, words, true)
				}
				return c.couldMatch(append(slices.Clip(a), words...))
			})
		return !found
	})
	return found
}

// pathPattern is a compiled path argument: gitignore's pattern below
// base. A pattern without a slash matches a name at any depth; one with a
// slash is anchored at base. What a pattern matches covers everything
// below it.
type pathPattern struct {
	base     string
	anchored bool
	glob     *workspace.Glob
}

// compilePath compiles a path argument, once for its anchors.
func compilePath(arg string, a anchors) pathPattern {
	return once(pathKey{arg, a}, func() pathPattern { return newPathPattern(arg, a) })
}

func newPathPattern(arg string, a anchors) pathPattern {
	base, rest, anchored := anchor(arg, a)
	p := pathPattern{base: base, anchored: anchored}
	if g, err := workspace.CompileGlob(rest, false); err == nil && base != "" && rest != "" {
		p.glob = g
	}
	return p
}

// anchor splits a path argument into the directory it starts from and
// the pattern below it: "//p" is absolute, "~/p" below home, "/p" below
// the project root, "./p" and "p" below cwd. anchored says the pattern is
// matched against the path below base, not against a name at any depth.
func anchor(arg string, a anchors) (base, rest string, anchored bool) {
	base = a.cwd
	switch {
	case strings.HasPrefix(arg, "//"):
		base, arg, anchored = "/", arg[2:], true
	case strings.HasPrefix(arg, "~/"):
		base, arg, anchored = a.home, arg[2:], true
	case strings.HasPrefix(arg, "/"):
		base, arg, anchored = a.root, arg[1:], true
	case strings.HasPrefix(arg, "./"):
		arg, anchored = arg[2:], true
	}
	arg = strings.TrimSuffix(arg, "/")
	return base, arg, anchored || strings.Contains(arg, "/")
}

// match reports whether the file at abs, or a directory above it below
// the base, matches.
func (p pathPattern) match(abs string) bool {
	if p.glob == nil {
		return false
	}
	rel, err := filepath.Rel(p.base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i := range parts {
		subject := parts[i]
		if p.anchored {
			subject = strings.Join(parts[:i+1], "/")
		}
		if p.glob.Match(subject) {
			return true
		}
	}
	return false
}

func allMatch(paths []string, p pathPattern) bool {
	for _, abs := range paths {
		if !p.match(abs) && !p.match(realPath(abs)) {
			return false
		}
	}
	return true
}

func anyMatch(paths []string, p pathPattern) bool {
	for _, abs := range paths {
		if p.match(abs) || p.match(realPath(abs)) {
			return true
		}
	}
	return false
}
