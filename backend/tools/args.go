package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tack-agent/tack/backend/session"
)

// DecodeArgs parses a tool's arguments strictly into v, a pointer to a
// struct: unknown fields are refused, as the schemas say
// (additionalProperties false), with the names the tool accepts. Empty
// arguments count as {}.
func DecodeArgs(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return UnknownArg(strings.Trim(name, `"`), ArgNames(v)...)
		}
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// UnknownArg is the refusal of an argument the tool does not take.
func UnknownArg(name string, accepted ...string) error {
	return fmt.Errorf("invalid arguments: unknown argument %q; the accepted arguments are %s", name, strings.Join(accepted, ", "))
}

// ArgNames lists the JSON names of the fields of the struct v points to, in
// declaration order.
func ArgNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// InvalidArgs is an argument validation error result: the model reads
// "Error: <message>" and the result carries session.CodeInvalidArgs.
func InvalidArgs(format string, args ...any) Result {
	r := Errorf(format, args...)
	r.Code = session.CodeInvalidArgs
	return r
}
