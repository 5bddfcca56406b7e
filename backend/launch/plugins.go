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
// --plugin-dir, then those the user's own settings files turn on (a later
// file over an earlier) that Claude Code installed. A name is taken once,
// first wins; what cannot be read is a problem.
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
	on := map[string]bool{}
	for _, f := range claude {
		if !f.project {
			maps.Copy(on, f.settings.PluginsOn())
		}
	}
	var enabled []string
	for _, key := range slices.Sorted(maps.Keys(on)) {
		if on[key] {
			enabled = append(enabled, key)
		}
	}
	installed, probs := plugin.Installed(o.getenv("HOME"), cwd, enabled)
	for _, p := range installed {
		add(p)
	}
	return out, append(problems, probs...)
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
		defs, probs := subagent.Load(p.Agents)
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

// pluginHooks are the plugins' hooks, the user's own, each with the
// plugin's folder in CLAUDE_PLUGIN_ROOT.
func pluginHooks(ps []plugin.Plugin) ([]hooks.Hook, []string) {
	var out []hooks.Hook
	var problems []string
	for _, p := range ps {
		hs, probs := hooks.FromConfig(p.Hooks, p.HooksFile, false)
		problems = append(problems, probs...)
		for i := range hs {
			hs[i].Env = []string{plugin.RootVar + "=" + p.Dir}
		}
		out = append(out, hs...)
	}
	return out, problems
}
