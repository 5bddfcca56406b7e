package tools

import (
	"fmt"
	"sort"

	"github.com/tack-agent/tack/backend/llm"
)

// Registry holds the tools of one agent, in registration order.
type Registry struct {
	order  []string
	byName map[string]Tool
}

// NewRegistry makes a registry of the given tools. Duplicate names panic:
// they are a programming error in the composition.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers a tool.
func (r *Registry) Add(t Tool) {
	name := t.Spec().Name
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("tools: %q registered twice", name))
	}
	r.order = append(r.order, name)
	r.byName[name] = t
}

// Get finds a tool by name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Names lists tool names, sorted.
func (r *Registry) Names() []string {
	out := append([]string(nil), r.order...)
	sort.Strings(out)
	return out
}

// Tools lists the tools in registration order.
func (r *Registry) Tools() []Tool {
	out := make([]Tool, len(r.order))
	for i, n := range r.order {
		out[i] = r.byName[n]
	}
	return out
}

// Specs is the model-facing description of every tool, in registration
// order so that requests are byte-stable.
func (r *Registry) Specs() []llm.ToolSpec {
	out := make([]llm.ToolSpec, 0, len(r.order))
	for _, n := range r.order {
		s := r.byName[n].Spec()
		out = append(out, llm.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Schema})
	}
	return out
}
