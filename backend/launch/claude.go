package launch

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/outputstyle"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/trust"
)

// claudeFile is a Claude Code settings file the session read: the
// user's, one given with --settings, or one of the project's, whose hooks
// and allow rules wait for the user's approval.
type claudeFile struct {
	path string
	// label names the file in messages: "~/.claude/settings.json",
	// ".claude/settings.json", "--settings FILE".
	label string
	// source is the file's --setting-sources name: user, flag (for
	// --settings), project or local.
	source   string
	project  bool
	settings config.ClaudeSettings
}

// readClaudeFiles reads the user's Claude Code settings file (none
// without a home), those of --settings (files, or the JSON itself) and
// the project's under cwd, of the sources o reads, and says which could
// not be read.
func readClaudeFiles(o Options, cwd string) ([]claudeFile, []string) {
	var files []claudeFile
	var problems []string
	add := func(f claudeFile, err error) {
		if err != nil {
			problems = append(problems, err.Error()+"; its hooks and permission rules are skipped")
			return
		}
		files = append(files, f)
	}
	reads := func(source string) bool { return o.SettingSources == nil || slices.Contains(o.SettingSources, source) }
	if home := o.getenv("HOME"); home != "" && reads("user") {
		path := config.ClaudeUserSettings(home)
		s, err := config.LoadClaudeSettings(path)
		add(claudeFile{path: path, label: "~/.claude/settings.json", source: "user", settings: s}, err)
	}
	for _, v := range o.Settings {
		if strings.HasPrefix(strings.TrimSpace(v), "{") {
			s, err := config.ParseClaudeSettings("--settings", []byte(v))
			add(claudeFile{path: "--settings", label: "--settings", source: "flag", settings: s}, err)
			continue
		}
		if _, err := os.Stat(v); err != nil {
			add(claudeFile{}, fmt.Errorf("--settings %s: no such file, nor JSON: give a file in the shape of Claude Code's settings.json, or that JSON", v))
			continue
		}
		s, err := config.LoadClaudeSettings(v)
		add(claudeFile{path: v, label: "--settings " + v, source: "flag", settings: s}, err)
	}
	for i, path := range config.ClaudeProjectSettings(cwd) {
		source := []string{"project", "local"}[i]
		if !reads(source) {
			continue
		}
		s, err := config.LoadClaudeSettings(path)
		add(claudeFile{path: path, label: relativeTo(cwd, path), source: source, project: true, settings: s}, err)
	}
	return files, problems
}

// permissionRules are the session's permission rules: those of the Claude
// Code settings files, and a Read deny rule for each path of the config's
// [sandbox] deny_read, so tack's own tools keep away from what commands
// cannot read.
func permissionRules(files []claudeFile, denyRead []string, cwd, home string) permission.Rules {
	var r permission.Rules
	for _, f := range files {
		source, root := f.label, ""
		if f.project {
			root = cwd
		}
		rule := func(entry string) permission.Rule {
			return permission.Rule{Entry: entry, Source: source, Root: root, Project: f.project}
		}
		p := f.settings.Permissions
		for _, e := range p.Allow {
			r.Allow = append(r.Allow, rule(e))
		}
		for _, e := range p.Ask {
			r.Ask = append(r.Ask, rule(e))
		}
		for _, e := range p.Deny {
			r.Deny = append(r.Deny, rule(e))
		}
	}
	for _, p := range config.ExpandHome(denyRead, home) {
		entry := "Read(./" + filepath.ToSlash(p) + ")"
		if filepath.IsAbs(p) {
			entry = "Read(/" + filepath.ToSlash(p) + ")"
		}
		r.Deny = append(r.Deny, permission.Rule{Entry: entry, Source: "config.toml ([sandbox] deny_read)"})
	}
	return r
}

// settingsMode is the mode the settings files' permissions.defaultMode
// starts sessions in, by Claude Code's order (--settings over the
// project's local file over its shared one over the user's), with plan
// true for "plan"; "" when none chooses one. A project may not choose
// bypassPermissions, which turns the sandbox off; that and a mode tack
// does not have are problems, and the next file's choice applies.
func settingsMode(files []claudeFile) (mode permission.Mode, plan bool, problems []string) {
	for _, f := range byPrecedence(files) {
		name := f.settings.Permissions.DefaultMode
		if name == "" || mode != "" {
			continue
		}
		if name == permission.PlanLabel {
			mode, plan = permission.DefaultMode, true
			continue
		}
		m, err := permission.ParseMode(name)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: defaultMode: %v; it is left out", f.label, err))
		case m == permission.FullAccess && f.project:
			problems = append(problems, fmt.Sprintf("%s: defaultMode %s is not taken from a project, as it would turn the sandbox off; "+
				"pass --permission-mode %s to run so", f.label, name, name))
		default:
			mode = m
		}
	}
	return mode, plan, problems
}

// byPrecedence is files in Claude Code's order of precedence: --settings,
// the project's local file, its shared one, the user's.
func byPrecedence(files []claudeFile) []claudeFile {
	rank := map[string]int{"flag": 0, "local": 1, "project": 2, "user": 3}
	files = slices.Clone(files)
	slices.SortStableFunc(files, func(a, b claudeFile) int { return rank[a.source] - rank[b.source] })
	return files
}

// mcpjsonChoice is what the settings files say of the project's .mcp.json
// servers, as Claude Code reads them: the user's own files (their
// ~/.claude/settings.json, --settings) may approve them, all
// (enableAllProjectMcpServers) or by name (enabledMcpjsonServers), so
// they start unasked; a project's own files may not, or a cloned
// repository would approve the commands it brings, which run outside the
// sandbox. disabledMcpjsonServers in any file keeps a server from
// starting, and from being asked about.
type mcpjsonChoice struct {
	all      bool
	approved map[string]bool
	disabled map[string]bool
	// answered is what Claude Code's approval dialog kept for the project
	// in the user's ~/.claude.json: the user's answer about a server, or
	// about all of them (answeredAll). It stands in for asking them, of a
	// server that nothing above and no approval in tack decided.
	answered    map[string]bool
	answeredAll bool
}

func mcpjsonChoices(files []claudeFile) mcpjsonChoice {
	c := mcpjsonChoice{approved: map[string]bool{}, disabled: map[string]bool{}, answered: map[string]bool{}}
	for _, f := range files {
		for _, name := range f.settings.DisabledMcpjsonServers {
			c.disabled[name] = true
		}
		if f.project {
			continue
		}
		c.all = c.all || f.settings.EnableAllProjectMcpServers
		for _, name := range f.settings.EnabledMcpjsonServers {
			c.approved[name] = true
		}
	}
	return c
}

// withClaudeJSON adds the answers of Claude Code's approval dialog, a.
func (c mcpjsonChoice) withClaudeJSON(a mcp.ClaudeApprovals) mcpjsonChoice {
	c.answeredAll = a.All
	for _, name := range a.Enabled {
		c.answered[name] = true
	}
	for _, name := range a.Disabled {
		c.answered[name] = false
	}
	return c
}

// undecided reports whether srv, of a project's .mcp.json, would wait for
// the user's approval but for Claude Code's answers.
func (c mcpjsonChoice) undecided(srv mcp.Server) bool {
	return srv.Project && !c.disabled[srv.Name] && !c.all && !c.approved[srv.Name]
}

// apply drops the servers of a project's .mcp.json that are disabled or
// that Claude Code's dialog was answered no about, and marks those
// approved, or answered yes about, as the user's own.
func (c mcpjsonChoice) apply(servers []mcp.Server) []mcp.Server {
	var kept []mcp.Server
	for _, srv := range servers {
		yes, answered := c.answered[srv.Name]
		switch {
		case c.disabled[srv.Name]:
			continue
		case !c.undecided(srv):
			srv.Project = false
		case answered && !yes:
			continue
		case answered || c.answeredAll:
			srv.Project = false
		}
		kept = append(kept, srv)
	}
	return kept
}

// settingsAgent is the agent the settings files' "agent" runs the session
// as, by Claude Code's order, of defs; "" when none names one, and a
// problem when the one named is none of defs.
func settingsAgent(files []claudeFile, defs []subagent.Definition) (string, []string) {
	for _, f := range byPrecedence(files) {
		a := strings.TrimSpace(f.settings.Agent)
		if a == "" {
			continue
		}
		if _, ok := subagent.Find(defs, a); !ok {
			return "", []string{fmt.Sprintf("%s: agent %q is no agent definition of .claude/agents, ~/.claude/agents or a plugin; "+
				"the session runs as tack itself", f.label, a)}
		}
		return a, nil
	}
	return "", nil
}

// settingsOutputStyle is the output style the settings files'
// "outputStyle" names, by Claude Code's order: a file of the project's
// .claude/output-styles or the user's, else a built-in style. ok is false
// for none, or for one that is not there, which is a problem.
func settingsOutputStyle(files []claudeFile, cwd, home string) (style outputstyle.Style, ok bool, problems []string) {
	for _, f := range byPrecedence(files) {
		name := strings.TrimSpace(f.settings.OutputStyle)
		if name == "" {
			continue
		}
		dirs := []string{filepath.Join(cwd, ".claude", "output-styles")}
		if home != "" {
			dirs = append(dirs, filepath.Join(home, ".claude", "output-styles"))
		}
		style, ok, problem := outputstyle.Find(dirs, name)
		if problem != "" {
			problems = append(problems, f.label+": "+problem)
		}
		return style, ok, problems
	}
	return outputstyle.Style{}, false, nil
}

// settingsEnv are the variables of the user's own Claude Code settings
// files' env (a later file's over an earlier's), which Claude Code sets
// for every session, and the problems of the project's files, whose env
// is not applied: a repository's variables (BASH_ENV, GIT_SSH_COMMAND)
// would reach the user's hooks and MCP servers, and commands approved to
// run outside the sandbox.
func settingsEnv(files []claudeFile) (map[string]string, []string) {
	vars := map[string]string{}
	var problems []string
	for _, f := range files {
		if len(f.settings.Env) == 0 {
			continue
		}
		if f.project {
			problems = append(problems, fmt.Sprintf("%s: its env is not applied, as a project's variables would reach commands outside "+
				"the sandbox; set them in your shell, or pass --settings %s to take the file as your own", f.label, f.label))
			continue
		}
		for k, v := range f.settings.Env {
			vars[k] = string(v)
		}
	}
	return vars, problems
}

// withVars is environ with vars set, over the values environ had.
func withVars(environ []string, vars map[string]string) []string {
	if len(vars) == 0 {
		return environ
	}
	out := make([]string, 0, len(environ)+len(vars))
	for _, e := range environ {
		k, _, _ := strings.Cut(e, "=")
		if _, set := vars[k]; !set {
			out = append(out, e)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		out = append(out, k+"="+vars[k])
	}
	return out
}

// withVarsGetenv is getenv with vars set, over the values it had.
func withVarsGetenv(getenv func(string) string, vars map[string]string) func(string) string {
	if len(vars) == 0 {
		return getenv
	}
	return func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		return getenv(k)
	}
}

// workDirs are the directories the user's own settings files (not the
// project's, which may not widen what the session writes) add to work in,
// after those of --add-dir: a relative one ("../docs/", as Claude Code's
// settings reference writes it) is taken from cwd; a missing one is a
// problem and is left out.
func workDirs(files []claudeFile, flags []string, home, cwd string) ([]string, []string) {
	dirs := slices.Clone(flags)
	var problems []string
	for _, f := range files {
		if f.project {
			continue
		}
		for _, d := range config.ExpandHome(f.settings.Permissions.AdditionalDirectories, home) {
			if !filepath.IsAbs(d) {
				d = filepath.Join(cwd, d)
			}
			if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
				problems = append(problems, fmt.Sprintf("%s: additionalDirectories %q is not a directory; it is left out", f.label, d))
				continue
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs, problems
}

func relativeTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil {
		return rel
	}
	return path
}

// approveProjectRules is the question the project's allow rules wait for,
// asked the first time one of them would let a call run unasked; nil
// when the project has none.
func (s *Session) approveProjectRules(o Options, r permission.Rules) func(context.Context) (bool, error) {
	var entries, files []string
	var content []byte
	for _, rule := range r.Allow {
		if !rule.Project {
			continue
		}
		entries = append(entries, rule.Entry+"  ("+rule.Source+")")
		if !slices.Contains(files, rule.Source) {
			files = append(files, rule.Source)
		}
		content = append(append(append(content, rule.Source...), 0), rule.Entry+"\n"...)
	}
	if len(entries) == 0 {
		return nil
	}
	where := strings.Join(files, " and ")
	text := approvalText{
		header:   "Project permissions",
		question: fmt.Sprintf("This project's %s lets %d kind(s) of call run without asking. Allow that?", where, len(entries)),
		details:  entries,
		denied:   fmt.Sprintf("The allow rules in %s do not apply in this session; such calls ask as usual.", where),
	}
	store := trust.Open(o.Home)
	return func(ctx context.Context) (bool, error) {
		return s.approveProject(ctx, store, content, ".claude/settings.json permissions.allow", text)
	}
}
