// Package structured is the tool of print mode's --json-schema: the model
// gives its final answer as JSON that the schema validates, as claude -p's
// StructuredOutput tool takes it, and the result object carries it as
// structured_output.
package structured

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the tool, as
// tools.ProseFile reads it.
//
//go:embed structured.md
var specFiles embed.FS

// Name is the tool's name.
const Name = "structured_output"

// Tool is structured_output for one schema.
type Tool struct {
	schema   json.RawMessage
	resolved *jsonschema.Resolved
}

// New makes the tool for schema, which must be a JSON Schema of an object:
// the answer's fields are the call's arguments.
func New(schema json.RawMessage) (*Tool, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("--json-schema is not a JSON Schema: %v", err)
	}
	if s.Type != "object" {
		return nil, errors.New(`--json-schema must describe an object ("type": "object"): the answer's fields are its properties`)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("--json-schema cannot be used: %v", err)
	}
	return &Tool{schema: schema, resolved: r}, nil
}

// structuredProse is what the model is told about the tool, from structured.md.
var structuredProse = tools.ProseFile(specFiles, "structured.md")

// Spec describes structured_output to the model.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{
		Name:        Name,
		Description: structuredProse().Description,
		Schema:      t.schema,
		Guidance:    structuredProse().Guidance,
		Access:      tools.AccessInteract,
	}
}

// Present is the answer, indented.
func (*Tool) Present(raw json.RawMessage) card.Card {
	body := string(raw)
	var v any
	if json.Unmarshal(raw, &v) == nil {
		if b, err := json.MarshalIndent(v, "", "  "); err == nil {
			body = string(b)
		}
	}
	return card.Card{Kind: card.Generic, Title: "Structured output", Label: "Answer", Body: body}
}

// Run checks the answer against the schema.
func (t *Tool) Run(_ context.Context, call tools.Call) tools.Result {
	var v any
	if err := json.Unmarshal(call.Args, &v); err != nil {
		return tools.InvalidArgs("the answer is not JSON: %v", err)
	}
	if err := t.resolved.Validate(v); err != nil {
		return tools.Errorf("the answer does not match the schema: %v. Fix it and call structured_output again", err)
	}
	return tools.Result{Text: "Recorded. The task is done: end your turn without more tool calls."}
}
