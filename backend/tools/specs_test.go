package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/skills"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/ask"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/plan"
	"github.com/tack-agent/tack/backend/tools/search"
	"github.com/tack-agent/tack/backend/tools/structured"
	"github.com/tack-agent/tack/backend/tools/task"
	"github.com/tack-agent/tack/backend/tools/todo"
	"github.com/tack-agent/tack/backend/tools/web"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

// noSearch is a search backend that finds nothing: it makes web.New offer
// web_search, whose spec the golden holds.
type noSearch struct{}

func (noSearch) Search(context.Context, web.Query) ([]web.Result, error) { return nil, nil }

// builtinTools is every built-in tool in its default configuration: the
// bash timeouts of bash.DefaultTimeout and bash.MaxTimeout, web_search
// configured, the task tool offering only the general agent, and
// structured_output over a one-field schema (its schema is the user's).
func builtinTools(t testing.TB) []tools.Tool {
	t.Helper()
	out := fs.New(fs.NewTracker())
	out = append(out, search.NewGlob(nil), search.NewGrep(nil))
	out = append(out, bash.New(bash.Local{}, bash.Options{}).All()...)
	out = append(out, todo.New(), ask.New(), plan.New(nil))
	out = append(out, web.New(web.Config{Search: noSearch{}})...)
	answer, err := structured.New(json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, answer, task.New(nil, []subagent.Definition{subagent.General()}), skills.NewTool(nil))
	return out
}

// TestBuiltinSpecsGolden pins what the model is told about every built-in
// tool: its name, description, guidance and schema, byte for byte. A
// schema is shown indented, after its length as sent, so a change of
// its spacing shows too.
func TestBuiltinSpecsGolden(t *testing.T) {
	var b strings.Builder
	for _, tool := range builtinTools(t) {
		s := tool.Spec()
		var schema bytes.Buffer
		if err := json.Indent(&schema, s.Schema, "", "  "); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", s.Name, err)
		}
		fmt.Fprintf(&b, "=== %s\n-- description --\n%s\n-- guidance --\n%s\n-- schema (%d bytes) --\n%s\n\n",
			s.Name, s.Description, s.Guidance, len(s.Schema), schema.String())
	}
	golden.File(t, "specs", b.String())
}

// BenchmarkBuiltinTools composes the built-in tools and describes each, as
// a session (or a subagent's) does as it starts.
func BenchmarkBuiltinTools(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, tool := range builtinTools(b) {
			_ = tool.Spec()
		}
	}
}

// BenchmarkBuiltinSpecs describes every built-in tool, as every step of
// the agent does for its request and system prompt.
func BenchmarkBuiltinSpecs(b *testing.B) {
	set := builtinTools(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, tool := range set {
			_ = tool.Spec()
		}
	}
}
