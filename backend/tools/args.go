package tools

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tack-agent/tack/backend/session"
)

// DecodeArgs parses a tool's arguments strictly into v: unknown fields are
// refused, as the schemas say (additionalProperties false). Empty arguments
// count as {}.
func DecodeArgs(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// InvalidArgs is an argument validation error result: the model reads
// "Error: <message>" and the result carries session.CodeInvalidArgs.
func InvalidArgs(format string, args ...any) Result {
	r := Errorf(format, args...)
	r.Code = session.CodeInvalidArgs
	return r
}
