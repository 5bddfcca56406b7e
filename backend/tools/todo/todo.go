// Package todo is the todo_write tool: the model's plan for the current
// task, replaced whole on every call and logged as a todo/write event that
// the front doors fold into their plan strip.
package todo

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the tool: its prose
// (tools.ProseFile) and the schema of its arguments (tools.SchemaFile).
//
//go:embed todo.md todo.schema.json
var specFiles embed.FS

// Write is the todo_write tool. It remembers the list the last call of a
// turn wrote, the plan a later call of that turn replaces.
type Write struct {
	mu   sync.Mutex
	turn int
	plan []card.TodoItem
}

// New makes the todo_write tool.
func New() *Write { return &Write{} }

type args struct {
	Todos *[]item `json:"todos"`
}

// item is one entry as models send it; activeForm is Claude Code's
// TodoWrite's name for the entry as work under way.
type item struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

// schema is the JSON schema of todo_write's arguments, from todo.schema.json.
var schema = tools.SchemaFile(specFiles, "todo.schema.json")

// todoProse is what the model is told about the tool, from todo.md.
var todoProse = tools.ProseFile(specFiles, "todo.md")

// Spec describes todo_write to the model.
func (*Write) Spec() tools.Spec {
	return tools.Spec{
		Name:        "todo_write",
		Description: todoProse().Description,
		Schema:      schema(),
		Guidance:    todoProse().Guidance,
		Access:      tools.AccessInteract,
	}
}

// Present is the plan card of the list as sent.
func (*Write) Present(raw json.RawMessage) card.Card {
	var a args
	_ = json.Unmarshal(raw, &a)
	var items []item
	if a.Todos != nil {
		items = *a.Todos
	}
	return planCard(cardItems(items))
}

// Run validates the list and records it as a todo/write event.
func (w *Write) Run(_ context.Context, call tools.Call) tools.Result {
	items, res, ok := decode(call.Args)
	if !ok {
		return res
	}
	if call.Env == nil || call.Env.Record == nil {
		return tools.Errorf("todo_write requires an owning agent session")
	}
	todos := cardItems(items)
	if err := call.Env.Record(session.TodoWrite{Turn: call.Turn, Todos: todos}); err != nil {
		return tools.Errorf("cannot record the todo list: %v", err)
	}
	counts := map[card.TodoStatus]int{}
	for _, t := range todos {
		counts[t.Status]++
	}
	text := fmt.Sprintf("Updated todo list: %d pending, %d in progress, %d completed.",
		counts[card.TodoPending], counts[card.TodoInProgress], counts[card.TodoCompleted])
	c := planCard(todos)
	c.Replaced = &card.Plan{Todos: w.replace(call.Turn, todos)}
	return tools.Result{Text: text, Card: &c}
}

// replace makes todos turn's plan and returns the one it replaces, empty
// (not nil: none, where nil would say nothing is known) at the turn's
// first.
func (w *Write) replace(turn int, todos []card.TodoItem) []card.TodoItem {
	w.mu.Lock()
	defer w.mu.Unlock()
	old := w.plan
	if w.turn != turn || old == nil {
		old = []card.TodoItem{}
	}
	w.turn, w.plan = turn, todos
	return old
}

// decode parses and validates the arguments.
func decode(raw json.RawMessage) ([]item, tools.Result, bool) {
	var a args
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return nil, tools.InvalidArgs("%v", unknownField(raw, strings.Trim(name, `"`))), false
		}
		return nil, tools.InvalidArgs("invalid arguments: %v", err), false
	}
	if a.Todos == nil {
		return nil, tools.InvalidArgs("invalid todos: expected an array of {content, status}"), false
	}
	seen := map[string]bool{}
	inProgress := 0
	for _, it := range *a.Todos {
		switch card.TodoStatus(it.Status) {
		case card.TodoPending, card.TodoCompleted:
		case card.TodoInProgress:
			inProgress++
		default:
			return nil, tools.InvalidArgs("invalid todo: `status` must be pending, in_progress or completed, got %q", it.Status), false
		}
		if strings.TrimSpace(it.Content) == "" {
			return nil, tools.InvalidArgs("invalid todo: `content` must be a non-empty string"), false
		}
		if seen[it.Content] {
			return nil, tools.InvalidArgs("invalid todos: duplicate content %q", it.Content), false
		}
		seen[it.Content] = true
	}
	if inProgress > 1 {
		return nil, tools.InvalidArgs("invalid todos: at most one task may be in_progress (got %d)", inProgress), false
	}
	return *a.Todos, tools.Result{}, true
}

// unknownField names what an unknown field is refused for, the arguments
// or an item of the list, with the names each takes.
func unknownField(raw json.RawMessage, name string) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) == nil {
		if _, ok := top[name]; ok {
			return tools.UnknownArg(name, tools.ArgNames(&args{})...)
		}
	}
	return fmt.Errorf("invalid todo: unknown field %q; an item takes %s", name, strings.Join(tools.ArgNames(&item{}), ", "))
}

func cardItems(items []item) []card.TodoItem {
	out := make([]card.TodoItem, len(items))
	for i, it := range items {
		out[i] = card.TodoItem{Content: it.Content, Status: card.TodoStatus(it.Status), ActiveForm: it.ActiveForm}
	}
	return out
}

// planCard titles the plan with its progress, e.g. "Plan (2/5 done)", and
// sums it up in one line, as the plan strip does: the list itself shows
// once, in the strip, unless cards are expanded.
func planCard(todos []card.TodoItem) card.Card {
	done := card.Done(todos)
	return card.Card{Kind: card.Todo, Title: fmt.Sprintf("Plan (%d/%d done)", done, len(todos)),
		Label: "Update plan", Summary: card.PlanLine(todos), Todos: todos}
}
