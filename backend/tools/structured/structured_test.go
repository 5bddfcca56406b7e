package structured

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/tools"
)

const schema = `{"type":"object","properties":{"verdict":{"type":"string","enum":["pass","fail"]},` +
	`"failures":{"type":"integer","minimum":0}},"required":["verdict"],"additionalProperties":false}`

func TestAnswersAreHeldToTheSchema(t *testing.T) {
	tool, err := New(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args, want string
		ok         bool
	}{
		{`{"verdict":"pass"}`, "Recorded.", true},
		{`{"verdict":"fail","failures":3}`, "Recorded.", true},
		{`{"verdict":"maybe"}`, "does not match the schema", false},
		{`{"failures":1}`, "does not match the schema", false},
		{`{"verdict":"pass","extra":1}`, "does not match the schema", false},
		{`{"verdict":"pass","failures":-1}`, "does not match the schema", false},
		{`not json`, "not JSON", false},
	}
	for _, c := range cases {
		r := tool.Run(context.Background(), tools.Call{Args: json.RawMessage(c.args)})
		if r.IsError == c.ok || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s: want ok=%v and %q, got %+v", c.args, c.ok, c.want, r)
		}
	}
}

func TestSchemaMustDescribeAnObject(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"string"}`: `must describe an object`,
		`[1,2]`:             "not a JSON Schema",
		`{"type":"object","properties":{"a":{"$ref":"#/nowhere"}}}`: "cannot be used",
	} {
		if _, err := New(json.RawMessage(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error containing %q, got %v", in, want, err)
		}
	}
}
