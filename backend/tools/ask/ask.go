// Package ask is the ask_user_question tool: the model puts one or more
// questions to the user through the interact broker and waits for the
// answers. It never hangs without an answerer and never invents answers.
package ask

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the tool: its prose
// (tools.ProseFile) and the schema of its arguments (tools.SchemaFile).
//
//go:embed ask.md ask.schema.json
var specFiles embed.FS

// Question is the ask_user_question tool.
type Question struct{}

// New makes the ask_user_question tool.
func New() *Question { return &Question{} }

type args struct {
	Questions []question `json:"questions"`
}

type question struct {
	ID          string   `json:"id"`
	Header      string   `json:"header"`
	Question    string   `json:"question"`
	Options     []option `json:"options"`
	MultiSelect bool     `json:"multi_select"`
	// ClaudeMultiSelect is multi_select as Claude Code's AskUserQuestion
	// spells it, and requires: a question that has it is Claude Code's.
	ClaudeMultiSelect *bool `json:"multiSelect"`
	// AllowCustom defaults to true: a free-text answer is the user's way
	// out of options that all miss the point.
	AllowCustom *bool `json:"allow_custom"`
}

type option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Recommended bool   `json:"recommended"`
	Preview     string `json:"preview"`
}

// The bounds of Claude Code's AskUserQuestion (the Agent SDK's
// AskUserQuestionInput): 1 to 4 questions, each with 2 to 4 options. tack
// also asks a question without options, for a free-text answer.
const (
	maxQuestions = 4
	minOptions   = 2
	maxOptions   = 4
)

// schema is the JSON schema of ask_user_question's arguments, from ask.schema.json.
var schema = tools.SchemaFile(specFiles, "ask.schema.json")

// askProse is what the model is told about the tool, from ask.md.
var askProse = tools.ProseFile(specFiles, "ask.md",
	"{{max_questions}}", strconv.Itoa(maxQuestions),
	"{{min_options}}", strconv.Itoa(minOptions),
	"{{max_options}}", strconv.Itoa(maxOptions))

// Spec describes ask_user_question to the model.
func (*Question) Spec() tools.Spec {
	return tools.Spec{
		Name:        "ask_user_question",
		Description: askProse().Description,
		Schema:      schema(),
		Guidance:    askProse().Guidance,
		Access:      tools.AccessInteract,
	}
}

// Present is the question card before the answers.
func (*Question) Present(raw json.RawMessage) card.Card {
	var a args
	_ = json.Unmarshal(raw, &a)
	return questionCard(toInteract(a.Questions), nil)
}

// Validate refuses questions Run would refuse, before hooks see them.
func (*Question) Validate(call tools.Call) (tools.Result, bool) {
	_, res, ok := decode(call.Args)
	return res, ok
}

// Run asks the questions and returns the answers as compact JSON.
func (*Question) Run(ctx context.Context, call tools.Call) tools.Result {
	qs, res, ok := decode(call.Args)
	if !ok {
		return res
	}
	answers, res, ok := Put(ctx, call.Env, "ask_user_question", qs)
	if !ok {
		return res
	}
	for i := range answers {
		if answers[i].Selected == nil {
			answers[i].Selected = []string{}
		}
	}
	text, err := json.Marshal(struct {
		Answers []interact.Answer `json:"answers"`
	}{answers})
	if err != nil {
		return tools.Errorf("cannot encode the answers: %v", err)
	}
	c := questionCard(qs, answers)
	return tools.Result{Text: string(text), Card: &c}
}

// Put puts questions to the user through env's broker for the tool named
// tool and waits for the answers. When there are none it returns the
// model-facing error and false: no answerer, stdin closed or interrupted in
// the broker's own words, any other failure as "<tool> failed: <err>".
func Put(ctx context.Context, env *tools.Env, tool string, qs []interact.Question) ([]interact.Answer, tools.Result, bool) {
	if env == nil || env.Interact == nil {
		return nil, tools.Errorf("%v", interact.ErrNoAnswerer), false
	}
	answers, err := env.Interact.Ask(ctx, qs)
	switch {
	case err == nil:
		return answers, tools.Result{}, true
	case errors.Is(err, interact.ErrStdinClosed), errors.Is(err, interact.ErrNoAnswerer):
		return nil, tools.Errorf("%v", err), false
	case errors.Is(err, interact.ErrInterrupted), ctx.Err() != nil:
		return nil, tools.Errorf("%v", interact.ErrInterrupted), false
	}
	return nil, tools.Errorf("%s failed: %v", tool, err), false
}

// decode parses and validates the arguments into broker questions.
func decode(raw json.RawMessage) ([]interact.Question, tools.Result, bool) {
	var a args
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, tools.InvalidArgs("invalid arguments: %v", err), false
	}
	switch n := len(a.Questions); {
	case n == 0:
		return nil, tools.InvalidArgs("invalid questions: expected at least one question"), false
	case n > maxQuestions:
		return nil, tools.InvalidArgs("invalid questions: ask at most %d questions at a time, got %d; "+
			"ask the %d that matter most now and the rest once they are answered", maxQuestions, n, maxQuestions), false
	}
	seen := map[string]bool{}
	for i := range a.Questions {
		q := &a.Questions[i]
		if strings.TrimSpace(q.Question) == "" {
			return nil, tools.InvalidArgs("invalid question %d: `question` must be a non-empty string", i+1), false
		}
		if strings.TrimSpace(q.ID) == "" {
			// Claude Code's questions have no id; their answers are
			// known by the question.
			q.ID = q.Question
		}
		if seen[q.ID] {
			return nil, tools.InvalidArgs("invalid questions: duplicate id %q; give each question its own id", q.ID), false
		}
		seen[q.ID] = true
		if res, ok := checkOptions(q); !ok {
			return nil, res, false
		}
	}
	return toInteract(a.Questions), tools.Result{}, true
}

// checkOptions refuses a question's options outside Claude Code's
// bounds, but for none on a question of tack's own (one without Claude
// Code's multiSelect), which asks for a free-text answer.
func checkOptions(q *question) (tools.Result, bool) {
	for _, o := range q.Options {
		if strings.TrimSpace(o.Label) == "" {
			return tools.InvalidArgs("invalid question %q: every option needs a non-empty `label`", q.ID), false
		}
	}
	n, native := len(q.Options), q.ClaudeMultiSelect == nil
	switch {
	case n == 0 && native && q.AllowCustom != nil && !*q.AllowCustom:
		return tools.InvalidArgs("invalid question %q: give options or allow a custom answer", q.ID), false
	case n == 0 && native:
	case n < minOptions || n > maxOptions:
		why := ""
		if native {
			why = " (or none, for a free-text answer)"
		}
		return tools.InvalidArgs("invalid question %q: offer %d to %d options%s, got %d", q.ID, minOptions, maxOptions, why, n), false
	}
	return tools.Result{}, true
}

func toInteract(qs []question) []interact.Question {
	out := make([]interact.Question, len(qs))
	for i, q := range qs {
		opts := make([]interact.Option, len(q.Options))
		for j, o := range q.Options {
			opts[j] = interact.Option{Label: o.Label, Description: o.Description, Recommended: o.Recommended, Preview: o.Preview}
		}
		out[i] = interact.Question{ID: q.ID, Header: q.Header, Question: q.Question, Options: opts,
			MultiSelect: q.MultiSelect || q.ClaudeMultiSelect != nil && *q.ClaudeMultiSelect, AllowCustom: q.AllowCustom == nil || *q.AllowCustom}
	}
	return out
}

// questionCard shows the questions with their options, then the answers
// when there are any.
func questionCard(qs []interact.Question, answers []interact.Answer) card.Card {
	title := "Question"
	if len(qs) > 0 && qs[0].Header != "" {
		title = qs[0].Header
	}
	var b strings.Builder
	for i, q := range qs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(q.Question + "\n")
		for j, o := range q.Options {
			fmt.Fprintf(&b, "  %d. %s", j+1, o.Label)
			if o.Description != "" {
				b.WriteString(" — " + o.Description)
			}
			if o.Recommended {
				b.WriteString(" (recommended)")
			}
			b.WriteString("\n")
		}
	}
	if len(answers) > 0 {
		b.WriteString("\n")
	}
	var replies []string
	for _, a := range answers {
		parts := append([]string(nil), a.Selected...)
		if a.Custom != "" {
			parts = append(parts, a.Custom)
		}
		replies = append(replies, strings.Join(parts, ", "))
		fmt.Fprintf(&b, "%s: %s\n", a.ID, strings.Join(parts, ", "))
	}
	c := card.Card{Kind: card.Question, Title: title, Label: "Question", Body: strings.TrimSuffix(b.String(), "\n")}
	if len(qs) > 0 && qs[0].Header != "" {
		c.Subject = qs[0].Header
	}
	switch {
	case len(qs) == 1 && len(replies) == 1:
		c.Summary = qs[0].Question + " → " + replies[0]
	case len(replies) > 0:
		c.Summary = "Answered: " + strings.Join(replies, "; ")
	}
	return c
}
