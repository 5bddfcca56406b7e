package permission

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/tools"
)

// Permission rules come from Claude Code's settings files
// (permissions.deny, .ask and .allow), in the language of entries
// (entry.go), and hold for the whole session: a deny rule refuses a
// matching call in every mode, reads included; an ask rule asks before a
// matching call though the mode, a remembered answer or an allow rule
// would run it; an allow rule runs a matching call without asking where
// the mode would ask (for a command, out of the sandbox as far as it asks
// to go). Deny wins over ask, ask over allow. The rules of a project's
// files take effect at once when they take away (deny, ask); its allow
// rules come with the repository, not from the user, and apply once the
// user approves them. Refusing is a convenience, not a boundary: the
// sandbox is that, and it hides the files of Read deny rules from
// commands too (launch).

// Rule is one permission rule.
type Rule struct {
	// Entry is the rule as written: "Bash(npm test *)", "Read(./.env)".
	Entry string
	// Source is the file it came from, as messages name it.
	Source string
	// Root is the directory its "/path" patterns start from: the project
	// whose settings file holds it (the working directory when empty).
	Root string
	// Project says the rule came with the repository.
	Project bool
}

// Rules are a session's permission rules.
type Rules struct {
	Allow, Ask, Deny []Rule
}

// Policy names recorded in approval/decided for what entries decided: a
// custom command's allowed-tools (and claude -p's --allowed-tools), the
// allow rules, and the refusals no approval could lift: print mode's
// --disallowed-tools and the deny rules.
const (
	byAllowedTools           = "allowed-tools"
	byAllowRule              = "allow-rule"
	RefusedByDisallowedTools = "disallowed-tools"
	RefusedByDenyRule        = "deny-rule"
)

// projectRules is the state of the approval a project's allow rules wait
// for.
type projectRules struct {
	// mu is held while the user is asked, so one question serves every
	// call waiting for the answer.
	mu       sync.Mutex
	approve  func(context.Context) (bool, error)
	answered bool
	approved bool
}

// SetRules gives the session its permission rules. approve asks the user,
// once, whether the project's allow rules may apply (nil: they never do).
func (p *Policy) SetRules(r Rules, approve func(context.Context) (bool, error)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = r
	p.project = &projectRules{approve: approve}
}

// Rules are the session's permission rules.
func (p *Policy) Rules() Rules {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rules
}

// pathArgs are the path arguments of the rules among rules of a tool of
// tools, each with its anchors.
func pathArgs(rules []Rule, tools []string, cwd, home string) (args []string, as []anchors) {
	for _, r := range rules {
		e := parseEntry(r.Entry)
		if !slices.Contains(tools, e.tool) || !e.hasArg || !isPath(e.arg) {
			continue
		}
		root := r.Root
		if root == "" {
			root = cwd
		}
		args, as = append(args, e.arg), append(as, anchors{cwd: cwd, home: home, root: root})
	}
	return args, as
}

// Hidden are the existing files and directories that the Read deny rules
// among deny name, for the sandbox to hide from commands.
func Hidden(deny []Rule, cwd, home string) []string {
	return named(deny, []string{"read"}, cwd, home)
}

// Unwritable are the existing files and directories that the Edit and
// Write deny rules among deny name, for the sandbox to keep commands from
// changing.
func Unwritable(deny []Rule, cwd, home string) []string {
	return named(deny, pathFamilies["edit"], cwd, home)
}

// named are the existing files and directories that the deny rules of
// tools name: a path without wildcards, the directory of a trailing
// "/**", the matches of wildcards in a path's last part. A pattern that
// matches a name at any depth ("*.pem", "**/.env") binds tack's own tools
// only.
func named(deny []Rule, tools []string, cwd, home string) []string {
	var out []string
	args, as := pathArgs(deny, tools, cwd, home)
	for i, arg := range args {
		base, rest, anchored := anchor(arg, as[i])
		rest = strings.TrimSuffix(rest, "/**")
		if !anchored || base == "" || rest == "" || strings.ContainsAny(path.Dir(rest), "*?[") {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(rest)))
		out = append(out, matches...)
	}
	return out
}

// ReadDenied is what the Read deny rules among deny keep from the walks
// of the workspace (grep, glob, @ completion): a file or directory their
// patterns match. Nil when there are none.
func ReadDenied(deny []Rule, cwd, home string) func(abs string) bool {
	args, as := pathArgs(deny, []string{"read"}, cwd, home)
	if len(args) == 0 {
		return nil
	}
	patterns := make([]pathPattern, len(args))
	for i, arg := range args {
		patterns[i] = compilePath(arg, as[i])
	}
	return func(abs string) bool {
		for _, p := range patterns {
			if p.match(abs) {
				return true
			}
		}
		return false
	}
}

// subjectOf is what rules match call of t by.
func subjectOf(t tools.Tool, call tools.Call, command string) subject {
	s := subject{tool: t.Spec().Name, command: command}
	if command != "" {
		s.line = parseLine(command)
	}
	if sc, ok := t.(tools.Scoped); ok {
		s.scope = sc.Scope(call.Args)
	}
	var paths []string
	if tt, ok := t.(tools.Targeter); ok {
		paths = tt.Targets(call)
	}
	if rt, ok := t.(tools.ReadTargeter); ok {
		paths = append(paths, rt.ReadTargets(call)...)
	}
	for _, path := range paths {
		if path == "" {
			continue
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(cwdOf(call), path)
		}
		s.paths = append(s.paths, filepath.Clean(path))
	}
	return s
}

func cwdOf(call tools.Call) string {
	if call.Env == nil {
		return ""
	}
	return call.Env.Cwd
}

// anchorsOf are the anchors of r's path patterns for call.
func (p *Policy) anchorsOf(r Rule, call tools.Call) anchors {
	a := anchors{cwd: cwdOf(call), home: p.homeDir(), root: r.Root}
	if a.root == "" {
		a.root = a.cwd
	}
	return a
}

// refusal is why s may not run, and the policy that says so: the turn's
// disallowed tools, then the deny rules; "" when nothing refuses it.
func (p *Policy) refusal(call tools.Call, s subject) (msg, by string) {
	a := anchors{cwd: cwdOf(call), home: p.homeDir(), root: cwdOf(call)}
	for _, text := range disallowedFor(call) {
		if parseEntry(text).refuses(s, a) {
			return s.tool + " is refused in this run (--disallowed-tools " + text + "). " +
				"Do not retry it; finish what you can without it, or tell the user what you would run.", RefusedByDisallowedTools
		}
	}
	p.mu.Lock()
	deny := p.rules.Deny
	p.mu.Unlock()
	for _, r := range deny {
		if parseEntry(r.Entry).refuses(s, p.anchorsOf(r, call)) {
			return s.tool + " is refused by the deny rule " + r.Entry + " in " + r.Source + ". " +
				"Do not retry it or work around it; finish what you can without it, or tell the user what you would do.", RefusedByDenyRule
		}
	}
	return "", ""
}

// askRule names the ask rule that makes s ask, as the approval shows it;
// "" when none does.
func (p *Policy) askRule(call tools.Call, s subject) string {
	p.mu.Lock()
	ask := p.rules.Ask
	p.mu.Unlock()
	for _, r := range ask {
		if parseEntry(r.Entry).refuses(s, p.anchorsOf(r, call)) {
			return "Asks because of the rule " + r.Entry + " in " + r.Source + "."
		}
	}
	return ""
}

// allowed reports whether s runs without asking, and the policy that lets
// it: the turn's allowed tools, the user's allow rules, then the project's
// once approved.
func (p *Policy) allowed(ctx context.Context, call tools.Call, s subject) (by string, ok bool) {
	a := anchors{cwd: cwdOf(call), home: p.homeDir(), root: cwdOf(call)}
	var given []entry
	for _, text := range allowedFor(call) {
		e := parseEntry(text)
		if e.allows(s, a) {
			return byAllowedTools, true
		}
		given = append(given, e)
	}
	if together(given, s) {
		return byAllowedTools, true
	}
	p.mu.Lock()
	allow, project := p.rules.Allow, p.project
	p.mu.Unlock()
	fromProject := false
	var users, all []entry
	for _, r := range allow {
		e := parseEntry(r.Entry)
		if !r.Project {
			users = append(users, e)
		}
		all = append(all, e)
		if !e.allows(s, p.anchorsOf(r, call)) {
			continue
		}
		if !r.Project {
			return byAllowRule, true
		}
		fromProject = true
	}
	if together(users, s) {
		return byAllowRule, true
	}
	if (fromProject || together(all, s)) && project.approvedBy(ctx) {
		return byAllowRule, true
	}
	return "", false
}

// together reports whether the command entries among es cover every
// simple command of s's line between them, each command by one entry:
// Claude Code matches each command of a line against the rules on its
// own, so Bash(git status) and Bash(npm test) allow git status && npm
// test, and its "don't ask again" saves a rule per command of a line.
func together(es []entry, s subject) bool {
	if s.command == "" {
		return false
	}
	var cs []commandPattern
	for _, e := range es {
		if e.names(s) && e.hasArg && e.arg != "" && e.arg != "*" {
			cs = append(cs, compileCommand(e.arg, false))
		}
	}
	return len(cs) > 1 && everyCommand(s.parsed(), cs...)
}

// approvedBy asks for the approval of the project's allow rules once, and
// reports the answer.
func (pr *projectRules) approvedBy(ctx context.Context) bool {
	if pr == nil || pr.approve == nil {
		return false
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if !pr.answered {
		ok, err := pr.approve(ctx)
		pr.approved = ok && err == nil
		pr.answered = err == nil || ctx.Err() == nil
	}
	return pr.approved
}

// homeDir is the user's home directory.
func (p *Policy) homeDir() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.userHome
}

// allowedFor is the call's allowed-tools, from its environment.
func allowedFor(call tools.Call) []string {
	if call.Env == nil {
		return nil
	}
	return call.Env.Allowed
}

// disallowedFor is the call's disallowed tools, from its environment.
func disallowedFor(call tools.Call) []string {
	if call.Env == nil {
		return nil
	}
	return call.Env.Disallowed
}
