package elicit

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
)

// form is part of the form the everything server asks for
// (trigger-elicitation-request), as it sends it.
const form = `{"type":"object","properties":{
"name":{"title":"String","type":"string","description":"Your full, legal name"},
"check":{"title":"Boolean","type":"boolean"},
"email":{"type":"string","format":"email"},
"integer":{"title":"Integer","type":"integer","minimum":1,"maximum":100,"default":42},
"number":{"type":"number","minimum":0,"maximum":1000},
"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Green Lantern"}]},
"fish":{"type":"array","minItems":1,"maxItems":2,"items":{"anyOf":[{"const":"fish-1","title":"Tuna"},{"const":"fish-2","title":"Salmon"},{"const":"fish-3","title":"Trout"}]}},
"pet":{"type":"string","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"]}},
"required":["name","check"]}`

func schema(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(form), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// scripted answers each question with the next reply, and keeps the
// questions.
type scripted struct {
	replies []reply
	asked   []interact.Question
}

type reply struct {
	selected []string
	custom   string
	err      error
}

func (s *scripted) Ask(_ context.Context, qs []interact.Question) ([]interact.Answer, error) {
	s.asked = append(s.asked, qs...)
	if len(s.replies) == 0 {
		return nil, interact.ErrInterrupted
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return []interact.Answer{{ID: qs[0].ID, Selected: r.selected, Custom: r.custom}}, r.err
}

func pick(labels ...string) reply { return reply{selected: labels} }
func typed(text string) reply     { return reply{custom: text} }

func TestParseOrdersRequiredFirstAndLabelsEveryKindOfEnum(t *testing.T) {
	fields, err := Parse(schema(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fields {
		names = append(names, f.Name+":"+string(f.Kind))
	}
	want := []string{"name:string", "check:boolean", "email:string", "fish:choices", "hero:choice", "integer:integer", "number:number", "pet:choice"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("fields %v, want %v", names, want)
	}
	for _, c := range []struct {
		field string
		want  []Option
	}{
		{"fish", []Option{{"fish-1", "Tuna"}, {"fish-2", "Salmon"}, {"fish-3", "Trout"}}},
		{"hero", []Option{{"hero-1", "Superman"}, {"hero-2", "Green Lantern"}}},
		{"pet", []Option{{"pet-1", "Cats"}, {"pet-2", "Dogs"}}},
	} {
		for _, f := range fields {
			if f.Name == c.field && !reflect.DeepEqual(f.Options, c.want) {
				t.Errorf("%s offers %v, want %v", c.field, f.Options, c.want)
			}
		}
	}
}

func TestAskReturnsValuesOfTheSchemasTypes(t *testing.T) {
	a := &scripted{replies: []reply{
		typed("Ada Lovelace"), pick("No"), typed("ada@example.com"), pick("Tuna", "Trout"),
		pick("Green Lantern"), typed("7"), typed("2.5"), pick(SkipLabel),
	}}
	got := Ask(context.Background(), a, Request{Server: "everything", Message: "Please fill in", Schema: schema(t)})
	want := Result{Action: Accept, Content: map[string]any{
		"name": "Ada Lovelace", "check": false, "email": "ada@example.com", "fish": []any{"fish-1", "fish-3"},
		"hero": "hero-2", "integer": int64(7), "number": 2.5,
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Ask = %#v, want %#v", got, want)
	}
	q := a.asked[0]
	if q.Header != "everything · 1/8" || q.Server != "everything" || q.Question != "String (required)" || !strings.Contains(q.Detail, "MCP server everything asks: Please fill in") ||
		!strings.Contains(q.Detail, "Your full, legal name") || !q.AllowCustom || len(q.Options) != 0 {
		t.Errorf("the first question is %+v, want the server's name, message and the field's description, free text", q)
	}
	if opts := a.asked[1].Options; len(opts) != 3 || opts[0].Label != "Yes" || opts[2].Label != DeclineLabel {
		t.Errorf("a required boolean offers %+v, want Yes, No and Decline (no Skip)", opts)
	}
	if !a.asked[3].MultiSelect {
		t.Errorf("the array of enums is asked as %+v, want a multi-select", a.asked[3])
	}
	if opts := a.asked[5].Options; opts != nil || !strings.Contains(a.asked[5].Detail, "A whole number from 1 to 100") ||
		!strings.Contains(a.asked[5].Detail, SkipWord) {
		t.Errorf("the optional integer is asked as %+v, want free text naming its range and how to skip", a.asked[5])
	}
}

func TestAskAsksAgainWithWhatWasWrong(t *testing.T) {
	for _, c := range []struct {
		name    string
		field   string
		replies []reply
		problem string
		want    any
	}{
		{"integer out of range", `{"type":"integer","minimum":1,"maximum":100}`, []reply{typed("101"), typed("100")}, "101 is out of range", int64(100)},
		{"not a whole number", `{"type":"integer"}`, []reply{typed("1.5"), typed("2")}, `"1.5" is not a whole number`, int64(2)},
		{"not a number", `{"type":"number"}`, []reply{typed("many"), typed("-3.25")}, `"many" is not a number`, -3.25},
		{"email", `{"type":"string","format":"email"}`, []reply{typed("ada at home"), typed("a@b.org")}, "is not an email address", "a@b.org"},
		{"uri", `{"type":"string","format":"uri"}`, []reply{typed("example.com"), typed("https://example.com")}, "is not an address (URI)", "https://example.com"},
		{"date", `{"type":"string","format":"date"}`, []reply{typed("1815-13-10"), typed("1815-12-10")}, "is not a date (YYYY-MM-DD)", "1815-12-10"},
		{"date-time", `{"type":"string","format":"date-time"}`, []reply{typed("1815-12-10"), typed("1815-12-10T08:00:00Z")}, "is not a date and time", "1815-12-10T08:00:00Z"},
		{"too short", `{"type":"string","minLength":3,"maxLength":5}`, []reply{typed("ab"), typed("abc")}, "give 3 to 5 characters (this is 2)", "abc"},
		{"too long", `{"type":"string","maxLength":2}`, []reply{typed("abc"), typed("ab")}, "give at most 2 characters (this is 3)", "ab"},
		{"required skipped", `{"type":"string"}`, []reply{typed(SkipWord), typed("x")}, "f is required", "x"},
		{"too many items", `{"type":"array","maxItems":1,"items":{"type":"string","enum":["a","b"]}}`, []reply{pick("a", "b"), pick("b")}, "choose at most 1 of them (you chose 2)", []any{"b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s map[string]any
			json.Unmarshal([]byte(`{"type":"object","required":["f"],"properties":{"f":`+c.field+`}}`), &s)
			a := &scripted{replies: c.replies}
			got := Ask(context.Background(), a, Request{Server: "s", Schema: s})
			if len(a.asked) != 2 || !strings.Contains(a.asked[1].Detail, c.problem) || strings.Contains(a.asked[0].Detail, "✗") {
				t.Fatalf("asked %+v, want the question again with %q", a.asked, c.problem)
			}
			if got.Action != Accept || !reflect.DeepEqual(got.Content["f"], c.want) {
				t.Errorf("Ask = %#v, want f = %#v", got, c.want)
			}
		})
	}
}

func TestAskEndsWithoutContent(t *testing.T) {
	s := map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "boolean"}}}
	for _, c := range []struct {
		name    string
		replies []reply
		want    string
	}{
		{"declined by choice", []reply{typed("1"), pick(DeclineLabel)}, Decline},
		{"declined by word", []reply{typed(DeclineWord)}, Decline},
		{"wrong too often", []reply{typed("x"), typed("y"), typed("z"), typed("1"), pick("Yes")}, Decline},
		{"interrupted", []reply{typed("1"), {err: interact.ErrInterrupted}}, Cancel},
		{"stdin closed", []reply{{err: interact.ErrStdinClosed}}, Cancel},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Ask(context.Background(), &scripted{replies: c.replies}, Request{Server: "s", Schema: s})
			if got.Action != c.want || got.Content != nil {
				t.Errorf("Ask = %#v, want %s without content", got, c.want)
			}
		})
	}
	got := Ask(context.Background(), &scripted{replies: []reply{pick(SkipLabel), typed(SkipWord)}}, Request{Server: "s", Schema: s})
	if got.Action != Accept || len(got.Content) != 0 {
		t.Errorf("skipping every optional field: %#v, want accept with no values", got)
	}
}
