package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The JSON files tack reads beside its TOML ones (.mcp.json, Claude Code's
// settings) report a problem the same way: the file and line, then what
// is wrong in the user's words.

// JSONWhere is path with the line a JSON error of src is at, when it can
// be told.
func JSONWhere(path string, src []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s line %d", path, LineOf(src, int(se.Offset)))
	case errors.As(err, &te):
		return fmt.Sprintf("%s line %d", path, LineOf(src, int(te.Offset)))
	}
	return path
}

// JSONProblem says what a JSON decoding error found: a value of the wrong
// kind, text that is not JSON, or what a value's own decoder said of it.
func JSONProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "the top level"
		}
		return fmt.Sprintf("%s should be %s, not a JSON %s", field, jsonKindOf(te.Type.Kind().String()), te.Value)
	}
	if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
		return "not valid JSON: " + err.Error()
	}
	return err.Error()
}

func jsonKindOf(k string) string {
	switch k {
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a " + k
}

// LineOf is the 1-based line of byte offset off in src; 0 for a negative
// offset (nothing found).
func LineOf(src []byte, off int) int {
	if off < 0 {
		return 0
	}
	off = min(off, len(src))
	return bytes.Count(src[:off], []byte("\n")) + 1
}
