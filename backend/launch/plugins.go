package launch

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tack-agent/tack/backend/customcmd"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/plugin"
	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/subagent"
)

// loadPlugins reads the session's Claude Code plugins: those of
// --plugin-dir, then those Claude Code installed that the settings files
// turn on, by Claude Code's order of the files. A name is taken once,
// first wins; what cannot be read is a problem. A plugin a project's file
// turns on is marked with it (EnabledBy).
func loadPlugins(o Options, claude []claudeFile, cwd string) ([]plugin.Plugin, []string) {
	var out []plugin.Plugin
	var problems []string
	add := func(p plugin.Plugin) {
		if slices.ContainsFunc(out, func(q plugin.Plugin) bool { return q.Name == p.Name }) {
			problems = append(problems, fmt.Sprintf("plugin %s (%s): a plugin of that name is loaded already; this one is skipped", p.Name, p.Dir))
			return
		}
		out = append(out, p)
	}
	for _, d := range o.PluginDirs {
		p, err := plugin.Load(d.Path)
		if err != nil {
			problems = append(problems, "--plugin-dir: "+err.Error()+"; the plugin is skipped")
			continue
		}
		if d.NoMCP {
			p.MCP = ""
		}
		add(p)
	}
	for _, group := range enabledPlugins(claude) {
		installed, probs := plugin.Installed(o.getenv("HOME"), cwd, group.keys)
		problems = append(problems, probs...)
		for _, p := range installed {
			p.EnabledBy = group.by
			add(p)
		}
	}
	return out, problems
}

// pluginGroup is the plugins ("name@marketplace") one settings file
// turns on: by is its path when it is a project's, "" when the user's.
type pluginGroup struct {
	by   string
	keys []string
}

// enabledPlugins are the plugins the settings files turn on, each by the
// file that decides it (--settings over the project's local file over
// its shared one over the user's); the user's come first.
func enabledPlugins(files []claudeFile) []pluginGroup {
	decided := map[string]bool{}
	groups := map[string][]string{}
	for _, f := range byPrecedence(files) {
		on := f.settings.PluginsOn()
		for _, key := range slices.Sorted(maps.Keys(on)) {
			if decided[key] {
				continue
			}
			decided[key] = true
			if on[key] {
				by := ""
				if f.project {
					by = f.path
				}
				groups[by] = append(groups[by], key)
			}
		}
	}
	var out []pluginGroup
	for _, by := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, pluginGroup{by: by, keys: groups[by]})
	}
	return out
}

// pluginCommandDirs are the plugins' command folders, each naming its
// commands /PLUGIN:NAME.
func pluginCommandDirs(ps []plugin.Plugin) []customcmd.Dir {
	var out []customcmd.Dir
	for _, p := range ps {
		for _, d := range p.Commands {
			out = append(out, customcmd.Dir{Path: d, Source: "plugin " + p.Name, Prefix: p.Name + ":"})
		}
	}
	return out
}

// pluginSkillDirs are the plugins' skill folders, each naming its skills
// PLUGIN:NAME.
func pluginSkillDirs(ps []plugin.Plugin) []skills.Dir {
	var out []skills.Dir
	for _, p := range ps {
		for _, d := range p.Skills {
			out = append(out, skills.Dir{Path: d, Source: "plugin " + p.Name, Prefix: p.Name + ":"})
		}
	}
	return out
}

// pluginAgents are the plugins' agent definitions, named PLUGIN:NAME.
func pluginAgents(ps []plugin.Plugin) ([]subagent.Definition, []error) {
	var out []subagent.Definition
	var problems []error
	for _, p := range ps {
		defs, probs := subagent.LoadPlugin(p.Agents)
		problems = append(problems, probs...)
		for _, d := range defs {
			if d.Path != "" { // not the built-in agent Load adds
				d.Name = p.Name + ":" + d.Name
				out = append(out, d)
			}
		}
	}
	return out, problems
}

// pluginHooks are the plugins' hooks, each with the plugin's folder in
// CLAUDE_PLUGIN_ROOT: the user's own, but for those of a plugin a
// project turned on, which are the project's.
func pluginHooks(ps []plugin.Plugin) ([]hooks.Hook, []string) {
	var out []hooks.Hook
	var problems []string
	for _, p := range ps {
		hs, probs := hooks.FromConfig(p.Hooks, p.HooksFile, p.EnabledBy != "")
		problems = append(problems, probs...)
		for i := range hs {
			hs[i].Env = []string{plugin.RootVar + "=" + p.Dir}
		}
		out = append(out, hs...)
	}
	return out, problems
}
