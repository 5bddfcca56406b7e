package tools

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/tack-agent/tack/backend/llm"
)

// Source supplies tools that come and go while a session runs: the tools
// of MCP servers, which start in the background and may change their list.
type Source interface {
	// Tools is the source's current tools, in an order that only changes
	// when the tools do, so requests stay byte-stable.
	Tools() []Tool
	// Settle waits, until ctx ends, for changes already under way (servers
	// still starting) so the next step sees their tools.
	Settle(ctx context.Context)
}

// Registry holds the tools of one agent: its own, in registration order,
// then those of its sources. What a step sees is fixed by Refresh at the
// step's start, so a source's change takes effect at the next step and the
// tool list of a request never changes under it. It is safe for concurrent
// use.
type Registry struct {
	mu      sync.RWMutex
	order   []string
	byName  map[string]Tool
	sources []Source
	// view is the tool list as of the last Refresh (or Add).
	view   []Tool
	viewBy map[string]Tool
}

// NewRegistry makes a registry of the given tools. Duplicate names panic:
// they are a programming error in the composition.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{byName: map[string]Tool{}, viewBy: map[string]Tool{}}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add registers a tool.
func (r *Registry) Add(t Tool) {
	name := t.Spec().Name
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[name]; dup {
		panic(fmt.Sprintf("tools: %q registered twice", name))
	}
	r.order = append(r.order, name)
	r.byName[name] = t
	r.rebuildLocked()
}

// AddSource adds a source of changing tools. Its tools join at the next
// Refresh, after the registry's own; a tool whose name is taken is left
// out.
func (r *Registry) AddSource(s Source) {
	r.mu.Lock()
	r.sources = append(r.sources, s)
	r.mu.Unlock()
}

// Refresh lets the sources settle (bounded by ctx) and takes their current
// tools into the view that Get, Names, Tools and Specs report. The agent
// calls it before each step.
func (r *Registry) Refresh(ctx context.Context) {
	r.mu.RLock()
	sources := append([]Source(nil), r.sources...)
	r.mu.RUnlock()
	if len(sources) == 0 {
		return
	}
	for _, s := range sources {
		s.Settle(ctx)
	}
	r.mu.Lock()
	r.rebuildLocked()
	r.mu.Unlock()
}

func (r *Registry) rebuildLocked() {
	view := make([]Tool, 0, len(r.order))
	by := make(map[string]Tool, len(r.order))
	for _, n := range r.order {
		view = append(view, r.byName[n])
		by[n] = r.byName[n]
	}
	for _, s := range r.sources {
		for _, t := range s.Tools() {
			n := t.Spec().Name
			if _, taken := by[n]; taken {
				continue
			}
			view = append(view, t)
			by[n] = t
		}
	}
	r.view, r.viewBy = view, by
}

// Get finds a tool by name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.viewBy[name]
	return t, ok
}

// Names lists tool names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, len(r.view))
	for i, t := range r.view {
		out[i] = t.Spec().Name
	}
	sort.Strings(out)
	return out
}

// Tools lists the tools in registration order, then the sources' tools.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Tool(nil), r.view...)
}

// Specs is the model-facing description of every tool, in the order of
// Tools, so that requests are byte-stable.
func (r *Registry) Specs() []llm.ToolSpec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]llm.ToolSpec, 0, len(r.view))
	for _, t := range r.view {
		s := t.Spec()
		out = append(out, llm.ToolSpec{Name: s.Name, Description: s.Description, Parameters: s.Schema})
	}
	return out
}
