package tools

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/card"
)

type named string

func (n named) Spec() Spec                        { return Spec{Name: string(n)} }
func (n named) Present(json.RawMessage) card.Card { return card.Card{} }
func (n named) Run(context.Context, Call) Result  { return Result{} }

// source is a Source whose tools the test sets.
type source struct {
	tools   []Tool
	settled int
}

func (s *source) Tools() []Tool          { return s.tools }
func (s *source) Settle(context.Context) { s.settled++ }

func specNames(r *Registry) []string {
	var out []string
	for _, s := range r.Specs() {
		out = append(out, s.Name)
	}
	return out
}

func TestSourceToolsJoinOnlyAtRefresh(t *testing.T) {
	r := NewRegistry(named("read"), named("bash"))
	src := &source{}
	r.AddSource(src)
	src.tools = []Tool{named("mcp__a__x")}
	if got := specNames(r); !slices.Equal(got, []string{"read", "bash"}) {
		t.Fatalf("before Refresh: %v", got)
	}
	r.Refresh(context.Background())
	if got := specNames(r); !slices.Equal(got, []string{"read", "bash", "mcp__a__x"}) || src.settled != 1 {
		t.Fatalf("after Refresh: %v (settled %d)", got, src.settled)
	}
	src.tools = []Tool{named("mcp__a__x"), named("read")} // a clash: the registry's own wins
	r.Refresh(context.Background())
	if got := specNames(r); !slices.Equal(got, []string{"read", "bash", "mcp__a__x"}) {
		t.Fatalf("a source tool took a registered name: %v", got)
	}
	if _, ok := r.Get("mcp__a__x"); !ok {
		t.Error("Get misses a source tool")
	}
	src.tools = nil
	if _, ok := r.Get("mcp__a__x"); !ok {
		t.Error("a source's change took effect before Refresh")
	}
	r.Refresh(context.Background())
	if _, ok := r.Get("mcp__a__x"); ok {
		t.Error("a removed source tool is still there after Refresh")
	}
}
