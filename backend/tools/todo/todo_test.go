package todo

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

func run(t *testing.T, args string, record func(session.Data) error) tools.Result {
	t.Helper()
	return New().Run(context.Background(), tools.Call{ID: "c", Turn: 4, Args: []byte(args), Env: &tools.Env{Record: record}})
}

func TestTodoWriteRecordsTheWholeListAndCounts(t *testing.T) {
	var got []session.Data
	r := run(t, `{"todos":[{"content":"read the code","status":"completed"},`+
		`{"content":"fix the bug","status":"in_progress"},{"content":"run tests","status":"pending"},`+
		`{"content":"commit","status":"pending"}]}`, func(d session.Data) error { got = append(got, d); return nil })
	if r.IsError {
		t.Fatalf("want success, got %q", r.Text)
	}
	matchGolden(t, r.Text)
	todos := []card.TodoItem{{Content: "read the code", Status: card.TodoCompleted},
		{Content: "fix the bug", Status: card.TodoInProgress}, {Content: "run tests", Status: card.TodoPending},
		{Content: "commit", Status: card.TodoPending}}
	want := []session.Data{session.TodoWrite{Turn: 4, Todos: todos}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("want recorded %+v, got %+v", want, got)
	}
	wantCard := &card.Card{Kind: card.Todo, Title: "Plan (1/4 done)", Label: "Update plan",
		Summary: "Plan 1/4 · fix the bug", Todos: todos, Replaced: &card.Plan{Todos: []card.TodoItem{}}}
	if !reflect.DeepEqual(r.Card, wantCard) {
		t.Errorf("want card %+v, got %+v", wantCard, r.Card)
	}
}

// TestTodoWriteSaysWhichPlanItReplaced: a write's card keeps the plan it
// replaced, as Claude Code's TodoWrite answers its oldTodos: the list an
// earlier write of the same turn made, and none at a turn's first write,
// which the plan strip starts empty.
func TestTodoWriteSaysWhichPlanItReplaced(t *testing.T) {
	w := New()
	env := &tools.Env{Record: func(session.Data) error { return nil }}
	write := func(turn int, content string) *card.Card {
		t.Helper()
		r := w.Run(context.Background(), tools.Call{ID: "c", Turn: turn, Env: env,
			Args: []byte(`{"todos":[{"content":"` + content + `","status":"pending"}]}`)})
		if r.IsError || r.Card == nil || r.Card.Replaced == nil {
			t.Fatalf("want a plan card saying what it replaced, got %q %+v", r.Text, r.Card)
		}
		return r.Card
	}
	first := write(1, "read")
	if len(first.Replaced.Todos) != 0 {
		t.Errorf("turn 1's first write: want no plan replaced, got %+v", first.Replaced.Todos)
	}
	second := write(1, "fix")
	if !reflect.DeepEqual(second.Replaced.Todos, first.Todos) {
		t.Errorf("turn 1's second write: want %+v replaced, got %+v", first.Todos, second.Replaced.Todos)
	}
	if next := write(2, "test"); len(next.Replaced.Todos) != 0 {
		t.Errorf("turn 2's first write: want no plan replaced, got %+v", next.Replaced.Todos)
	}
}

func TestTodoWriteRefusesInvalidLists(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`,
			"Error: invalid todos: at most one task may be in_progress (got 2)"},
		{`{"todos":[{"content":" ","status":"pending"}]}`, "Error: invalid todo: `content` must be a non-empty string"},
		{`{"todos":[{"content":"a","status":"pending"},{"content":"a","status":"completed"}]}`,
			`Error: invalid todos: duplicate content "a"`},
		{`{"todos":[{"content":"a","status":"done"}]}`,
			`Error: invalid todo: ` + "`status`" + ` must be pending, in_progress or completed, got "done"`},
		{`{}`, "Error: invalid todos: expected an array of {content, status}"},
		{`{"todos":[{"content":"a","status":"pending","priority":"high"}]}`,
			`Error: invalid todo: unknown field "priority"; an item takes content, status, activeForm`},
		{`{"todos":[],"merge":true}`, `Error: invalid arguments: unknown argument "merge"; the accepted arguments are todos`},
	}
	for _, c := range cases {
		r := run(t, c.args, func(session.Data) error { t.Errorf("%s: want nothing recorded", c.args); return nil })
		if !r.IsError || r.Text != c.want || r.Code != session.CodeInvalidArgs {
			t.Errorf("%s: want %q (%s), got %q (%s)", c.args, c.want, session.CodeInvalidArgs, r.Text, r.Code)
		}
	}
}

// TestTodoWriteTakesClaudeCodesActiveForm: every TodoWrite a model trained
// on Claude Code sends carries activeForm beside content and status; it is
// kept on the item, for the plan strip to show while the item is in
// progress.
func TestTodoWriteTakesClaudeCodesActiveForm(t *testing.T) {
	var got []session.Data
	r := run(t, `{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"},`+
		`{"content":"Fix the bug","status":"pending","activeForm":"Fixing the bug"}]}`, func(d session.Data) error { got = append(got, d); return nil })
	if r.IsError {
		t.Fatalf("want success, got %q", r.Text)
	}
	want := []card.TodoItem{{Content: "Run the tests", Status: card.TodoInProgress, ActiveForm: "Running the tests"},
		{Content: "Fix the bug", Status: card.TodoPending, ActiveForm: "Fixing the bug"}}
	if len(got) != 1 || !reflect.DeepEqual(got[0].(session.TodoWrite).Todos, want) {
		t.Errorf("want %+v recorded, got %+v", want, got)
	}
}

func TestTodoWriteEmptyListClearsThePlan(t *testing.T) {
	r := run(t, `{"todos":[]}`, func(session.Data) error { return nil })
	if want := "Updated todo list: 0 pending, 0 in progress, 0 completed."; r.Text != want {
		t.Errorf("want %q, got %q", want, r.Text)
	}
}

func TestTodoWriteWithoutSessionOrFailingRecord(t *testing.T) {
	args := `{"todos":[{"content":"a","status":"pending"}]}`
	if r := run(t, args, nil); r.Text != "Error: todo_write requires an owning agent session" {
		t.Errorf("want no-session error, got %q", r.Text)
	}
	r := run(t, args, func(session.Data) error { return errors.New("disk full") })
	if r.Text != "Error: cannot record the todo list: disk full" {
		t.Errorf("want record error, got %q", r.Text)
	}
}

func matchGolden(t *testing.T, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", t.Name()+".golden"), []byte(got))
}
