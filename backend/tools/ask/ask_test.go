package ask

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
)

const twoQuestions = `{"questions":[` +
	`{"id":"db","header":"Database","question":"Which database?","options":[` +
	`{"label":"Postgres","description":"relational","recommended":true},{"label":"SQLite"}]},` +
	`{"id":"name","question":"What should the service be called?","allow_custom":true}]}`

func run(ctx context.Context, b *interact.Broker, args string) tools.Result {
	return New().Run(ctx, tools.Call{ID: "c", Args: []byte(args), Env: &tools.Env{Interact: b}})
}

func TestAskReturnsAnswersAsCompactJSON(t *testing.T) {
	b := interact.NewBroker()
	seen := interacttest.AnswerFirst(t, b, func(r *interact.Request) {
		r.Answer([]interact.Answer{{ID: "db", Selected: []string{"Postgres"}}, {ID: "name", Custom: "ledger"}})
	})
	r := run(context.Background(), b, twoQuestions)
	if r.IsError {
		t.Fatalf("want answers, got %q", r.Text)
	}
	matchGolden(t, r.Text)
	qs := <-seen
	if len(qs) != 2 || !qs[0].AllowCustom || !qs[1].AllowCustom || !qs[0].Options[0].Recommended {
		t.Errorf("want two questions allowing custom answers by default, got %+v", qs)
	}
	wantBody := "Which database?\n  1. Postgres — relational (recommended)\n  2. SQLite\n\n" +
		"What should the service be called?\n\ndb: Postgres\nname: ledger"
	if r.Card == nil || r.Card.Title != "Database" || r.Card.Body != wantBody {
		t.Errorf("want question card titled Database with body %q, got %+v", wantBody, r.Card)
	}
}

func TestAskFailures(t *testing.T) {
	closed := interact.NewBroker()
	closed.Mount()
	closed.FailAll(interact.ErrStdinClosed)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	mounted := interact.NewBroker()
	mounted.Mount()
	cases := []struct {
		name   string
		ctx    context.Context
		broker *interact.Broker
		want   string
	}{
		{"stdin closed", context.Background(), closed, "Error: ask_user_question cannot be answered because stdin is closed"},
		{"cancelled", cancelled, mounted, "Error: ask_user_question was interrupted before the user answered"},
		{"no broker", context.Background(), nil, "Error: no user-questions provider is registered"},
		{"no answerer", context.Background(), interact.NewBroker(), "Error: no user-questions provider is registered"},
	}
	for _, c := range cases {
		if r := run(c.ctx, c.broker, twoQuestions); !r.IsError || r.Text != c.want {
			t.Errorf("%s: want %q, got %q", c.name, c.want, r.Text)
		}
	}
}

func TestAskInterruptedWhileWaiting(t *testing.T) {
	b := interact.NewBroker()
	interacttest.AnswerFirst(t, b, func(r *interact.Request) { r.Fail(interact.ErrInterrupted) })
	want := "Error: ask_user_question was interrupted before the user answered"
	if r := run(context.Background(), b, twoQuestions); r.Text != want {
		t.Errorf("want %q, got %q", want, r.Text)
	}
}

func TestAskRefusesInvalidQuestions(t *testing.T) {
	cases := []struct{ args, want string }{
		{`{"questions":[]}`, "Error: invalid questions: expected at least one question"},
		{`{"questions":[{"id":"a","question":"x"},{"id":"a","question":"y"}]}`, `Error: invalid questions: duplicate id "a"; give each question its own id`},
		{`{"questions":[{"question":"x"},{"question":"x"}]}`, `Error: invalid questions: duplicate id "x"; give each question its own id`},
		{`{"questions":[{"id":"a","question":"x"},{"id":"b","question":" "}]}`, "Error: invalid question 2: `question` must be a non-empty string"},
		{`{"questions":[{"id":"a","question":"x","options":[{"label":""}]}]}`,
			"Error: invalid question \"a\": every option needs a non-empty `label`"},
		{`{"questions":[{"id":"a","question":"x","allow_custom":false}]}`,
			`Error: invalid question "a": give options or allow a custom answer`},
	}
	for _, c := range cases {
		r := run(context.Background(), nil, c.args)
		if r.Text != c.want || r.Code != session.CodeInvalidArgs {
			t.Errorf("%s: want %q (%s), got %q (%s)", c.args, c.want, session.CodeInvalidArgs, r.Text, r.Code)
		}
	}
}

// Claude Code's AskUserQuestion sends no ids, spells multi_select
// multiSelect and may give an option a preview.
func TestAskTakesClaudeCodesQuestions(t *testing.T) {
	b := interact.NewBroker()
	seen := interacttest.AnswerFirst(t, b, func(r *interact.Request) {
		r.Answer([]interact.Answer{{ID: "Which files?", Selected: []string{"a.go", "b.go"}}})
	})
	r := run(context.Background(), b, `{"questions":[{"question":"Which files?","header":"Files","multiSelect":true,`+
		`"options":[{"label":"a.go","description":"the first","preview":"package a"},{"label":"b.go","description":"the second"}]}]}`)
	if r.IsError {
		t.Fatalf("want answers, got %q", r.Text)
	}
	qs := <-seen
	if len(qs) != 1 || qs[0].ID != "Which files?" || !qs[0].MultiSelect || qs[0].Options[0].Preview != "package a" {
		t.Errorf("want the question as its id, several choices and the preview, got %+v", qs)
	}
	if want := `{"answers":[{"id":"Which files?","selected":["a.go","b.go"]}]}`; r.Text != want {
		t.Errorf("want %s, got %s", want, r.Text)
	}
}

func TestAskPresentShowsQuestionsOnly(t *testing.T) {
	c := New().Present([]byte(`{"questions":[{"id":"a","question":"Go on?","options":[{"label":"yes"}]}]}`))
	if c.Title != "Question" || c.Body != "Go on?\n  1. yes" {
		t.Errorf("want card Question / %q, got %q / %q", "Go on?\n  1. yes", c.Title, c.Body)
	}
}

func matchGolden(t *testing.T, got string) {
	t.Helper()
	golden.Assert(t, filepath.Join("testdata", t.Name()+".golden"), []byte(got))
}

func TestPutNamesTheToolInOtherFailures(t *testing.T) {
	b := interact.NewBroker()
	interacttest.AnswerFirst(t, b, func(r *interact.Request) { r.Fail(errors.New("broker gone")) })
	_, r, ok := Put(context.Background(), &tools.Env{Interact: b}, "exit_plan_mode", []interact.Question{{ID: "q", Question: "Go?"}})
	if want := "Error: exit_plan_mode failed: broker gone"; ok || r.Text != want {
		t.Errorf("want %q and no answers, got %q (ok %v)", want, r.Text, ok)
	}
}
