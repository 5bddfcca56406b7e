package ask

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
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
		{`{"questions":[{"id":"a","question":"x","options":[{"label":"yes"}]}]}`,
			`Error: invalid question "a": offer 2 to 4 options (or none, for a free-text answer), got 1`},
		{`{"questions":[{"id":"a","question":"x","options":[{"label":"1"},{"label":"2"},{"label":"3"},{"label":"4"},{"label":"5"}]}]}`,
			`Error: invalid question "a": offer 2 to 4 options (or none, for a free-text answer), got 5`},
		{`{"questions":[{"id":"1","question":"x"},{"id":"2","question":"x"},{"id":"3","question":"x"},{"id":"4","question":"x"},{"id":"5","question":"x"}]}`,
			"Error: invalid questions: ask at most 4 questions at a time, got 5; ask the 4 that matter most now and the rest once they are answered"},
	}
	for _, c := range cases {
		r := run(context.Background(), nil, c.args)
		if r.Text != c.want || r.Code != session.CodeInvalidArgs {
			t.Errorf("%s: want %q (%s), got %q (%s)", c.args, c.want, session.CodeInvalidArgs, r.Text, r.Code)
		}
		if v, ok := New().Validate(tools.Call{ID: "c", Args: []byte(c.args)}); ok || v.Text != r.Text {
			t.Errorf("%s: want it refused before it runs, as %q; got ok %v, %q", c.args, r.Text, ok, v.Text)
		}
	}
}

// Claude Code's AskUserQuestion refuses what the Agent SDK's
// AskUserQuestionInput declares out of bounds (questions @minItems 1
// @maxItems 4, a question's options @minItems 2 @maxItems 4), and so does
// tack, saying which bound and what it got, before the call runs; inside
// the bounds it takes the call.
func TestAskRefusesClaudeCodesQuestionsOutOfTheSDKsBounds(t *testing.T) {
	// question is the n-th question of a call, with that many options.
	question := func(n, options int) string {
		var opts []string
		for i := range options {
			opts = append(opts, fmt.Sprintf(`{"label":"Choice %d","description":"The choice %d"}`, i+1, i+1))
		}
		return fmt.Sprintf(`{"question":"Question %d?","header":"Pick","options":[%s],"multiSelect":false}`, n, strings.Join(opts, ","))
	}
	input := func(options ...int) string {
		var qs []string
		for i, n := range options {
			qs = append(qs, question(i+1, n))
		}
		return `{"questions":[` + strings.Join(qs, ",") + `]}`
	}
	for args, want := range map[string]string{
		input(2):             "",
		input(4, 3, 2, 4):    "",
		input():              "expected at least one question",
		input(2, 2, 2, 2, 2): "at most 4 questions at a time, got 5",
		input(0):             `"Question 1?": offer 2 to 4 options, got 0`,
		input(1):             `"Question 1?": offer 2 to 4 options, got 1`,
		input(2, 5):          `"Question 2?": offer 2 to 4 options, got 5`,
	} {
		failure, ok := New().Validate(tools.Call{ID: "c", Args: []byte(args)})
		switch {
		case want == "" && !ok:
			t.Errorf("%s: want it taken, as the SDK declares it in bounds; got %q", args, failure.Text)
		case want != "" && (ok || !strings.Contains(failure.Text, want) || failure.Code != session.CodeInvalidArgs):
			t.Errorf("%s: want it refused as invalid, saying %q; got ok %v, %q", args, want, ok, failure.Text)
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
