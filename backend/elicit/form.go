// Package elicit puts an MCP server's form (elicitation/create, form mode)
// to the user through the interact broker, one question a field, and turns
// the answers into the content the server asked for: values of the JSON
// types its schema names, checked against its limits.
package elicit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Actions of an answer, as the protocol names them.
const (
	Accept  = "accept"
	Decline = "decline"
	Cancel  = "cancel"
)

// Request is what a server asks: Server is its name in tack; a form's
// Schema is its requestedSchema, a web page's URL the address the user is
// asked to open (URL mode) and ElicitationID what the server names it by
// when it tells that the user finished there.
type Request struct {
	Server        string
	Message       string
	Schema        map[string]any
	URL           string
	ElicitationID string
}

// Modes of a request, as the protocol names them.
const (
	ModeForm = "form"
	ModeURL  = "url"
)

// Mode is ModeURL for a web page to open, else ModeForm.
func (r Request) Mode() string {
	if r.URL != "" {
		return ModeURL
	}
	return ModeForm
}

// Result is the answer: Content only with Accept.
type Result struct {
	Action  string
	Content map[string]any
}

// Kind is what a field holds.
type Kind string

const (
	Text    Kind = "string"
	Number  Kind = "number"
	Integer Kind = "integer"
	Boolean Kind = "boolean"
	// Choice is one of Choices, Choices several of them (an array).
	Choice  Kind = "choice"
	Choices Kind = "choices"
)

// Option is one value of a choice and the label the user sees.
type Option struct {
	Value string
	Label string
}

// Field is one property of the form.
type Field struct {
	Name, Title, Description string
	Kind                     Kind
	Required                 bool
	// Format is a string's: email, uri, date or date-time.
	Format               string
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
	MinItems, MaxItems   *int
	Options              []Option
	Default              any
}

// property is a property of the schema as the protocol writes it.
type property struct {
	Type        string    `json:"type"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Format      string    `json:"format"`
	MinLength   *int      `json:"minLength"`
	MaxLength   *int      `json:"maxLength"`
	Minimum     *float64  `json:"minimum"`
	Maximum     *float64  `json:"maximum"`
	MinItems    *int      `json:"minItems"`
	MaxItems    *int      `json:"maxItems"`
	Enum        []string  `json:"enum"`
	EnumNames   []string  `json:"enumNames"`
	OneOf       []titled  `json:"oneOf"`
	AnyOf       []titled  `json:"anyOf"`
	Items       *property `json:"items"`
	Default     any       `json:"default"`
}

type titled struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// options are the values of an enum property with their labels: enumNames,
// or oneOf/anyOf's titles, else the values themselves.
func (p property) options() []Option {
	var out []Option
	for i, v := range p.Enum {
		label := v
		if i < len(p.EnumNames) && p.EnumNames[i] != "" {
			label = p.EnumNames[i]
		}
		out = append(out, Option{Value: v, Label: label})
	}
	for _, t := range append(p.OneOf, p.AnyOf...) {
		out = append(out, Option{Value: t.Const, Label: cmp.Or(t.Title, t.Const)})
	}
	return out
}

// Parse reads a requestedSchema: a flat object of primitive properties.
// The fields come in the order of required, then by name (the schema's
// own order does not survive its decoding).
func Parse(schema map[string]any) ([]Field, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var s struct {
		Properties map[string]property `json:"properties"`
		Required   []string            `json:"required"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the requested schema is not a flat object of primitive properties: %v", err)
	}
	var fields []Field
	for name, p := range s.Properties {
		f := Field{Name: name, Title: p.Title, Description: p.Description, Required: slices.Contains(s.Required, name),
			Format: p.Format, MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum,
			MinItems: p.MinItems, MaxItems: p.MaxItems, Default: p.Default}
		switch {
		case p.Type == "array" && p.Items != nil && len(p.Items.options()) > 0:
			f.Kind, f.Options = Choices, p.Items.options()
		case len(p.options()) > 0:
			f.Kind, f.Options = Choice, p.options()
		case p.Type == "string" || p.Type == "number" || p.Type == "integer" || p.Type == "boolean":
			f.Kind = Kind(p.Type)
		default:
			return nil, fmt.Errorf("field %q has type %q, which a form cannot ask for", name, p.Type)
		}
		fields = append(fields, f)
	}
	slices.SortFunc(fields, func(a, b Field) int {
		ia, ib := slices.Index(s.Required, a.Name), slices.Index(s.Required, b.Name)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return fields, nil
}
