package subagent

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// FromJSON reads subagents defined as claude's --agents flag defines them:
// an object of agents by name, each with a description and a prompt, and
// optionally tools and disallowedTools (Claude Code's names or tack's)
// and a model.
func FromJSON(src []byte) ([]Definition, error) {
	var byName map[string]struct {
		Description string   `json:"description"`
		Prompt      string   `json:"prompt"`
		Tools       []string `json:"tools"`
		Disallowed  []string `json:"disallowedTools"`
		Model       string   `json:"model"`
	}
	if err := json.Unmarshal(src, &byName); err != nil {
		return nil, fmt.Errorf("--agents is not an object of agents by name: %v", err)
	}
	var defs []Definition
	for name, a := range byName {
		if strings.TrimSpace(a.Description) == "" || strings.TrimSpace(a.Prompt) == "" {
			return nil, fmt.Errorf(`--agents: agent %q needs a "description" and a "prompt"`, name)
		}
		d := Definition{Name: name, Description: strings.TrimSpace(a.Description), Prompt: strings.TrimSpace(a.Prompt),
			Path: "--agents", Tools: toolNames(a.Tools), Disallowed: toolNames(a.Disallowed), Spawns: spawns(a.Tools)}
		d.Model, d.ClaudeModel = models(a.Model)
		defs = append(defs, d)
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs, nil
}

// With is defs with more added, each replacing a definition of its name.
func With(defs, more []Definition) []Definition {
	out := slices.Clone(defs)
	for _, d := range more {
		if i := slices.IndexFunc(out, func(x Definition) bool { return x.Name == d.Name }); i >= 0 {
			out[i] = d
		} else {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
