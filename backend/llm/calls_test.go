package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

func fragment(index int, id, name, args string) wireToolCall {
	tc := wireToolCall{Index: &index, ID: id, Function: wireFunction{Name: name, Arguments: wireArgs(args)}}
	return tc
}

// TestCallAssemblerSeparatesCalls pins each rule of the assembler on the
// smallest stream that needs it.
func TestCallAssemblerSeparatesCalls(t *testing.T) {
	tests := []struct {
		name string
		in   []wireToolCall
		want []ToolCallDelta
	}{
		{"new id at a used index with the same name", []wireToolCall{
			fragment(0, "a", "bash", `{"command":"ls"}`), fragment(0, "b", "bash", `{"command":"pwd"}`),
		}, []ToolCallDelta{{Index: 0, ID: "a", Name: "bash", Arguments: `{"command":"ls"}`}, {Index: 1, ID: "b", Name: "bash", Arguments: `{"command":"pwd"}`}}},
		{"the id repeated in every fragment", []wireToolCall{
			fragment(0, "a", "bash", `{"comm`), fragment(0, "a", "", `and":"ls"}`),
		}, []ToolCallDelta{{Index: 0, ID: "a", Name: "bash", Arguments: `{"comm`}, {Index: 0, Arguments: `and":"ls"}`}}},
		{"the name repeated in every fragment without ids", []wireToolCall{
			fragment(0, "", "read", `{"path": `), fragment(0, "", "read", `"a"}`), fragment(0, "", "read", `{"path": "b"}`),
		}, []ToolCallDelta{{Index: 0, ID: "call_seed_0", Name: "read", Arguments: `{"path": `}, {Index: 0, Arguments: `"a"}`},
			{Index: 1, ID: "call_seed_1", Name: "read", Arguments: `{"path": "b"}`}}},
		{"a nested object split at its brace stays one call", []wireToolCall{
			fragment(0, "", "edit", `{"a": `), fragment(0, "", "", `{"b": 1}}`),
		}, []ToolCallDelta{{Index: 0, ID: "call_seed_0", Name: "edit", Arguments: `{"a": `}, {Index: 0, Arguments: `{"b": 1}}`}}},
		{"the name in a later fragment", []wireToolCall{
			fragment(0, "a", "", ""), fragment(0, "a", "grep", `{}`),
		}, []ToolCallDelta{{Index: 0, ID: "a"}, {Index: 0, Name: "grep", Arguments: `{}`}}},
		{"a taken id at another index", []wireToolCall{
			fragment(3, "x", "glob", `{}`), fragment(4, "x", "glob", `{}`),
		}, []ToolCallDelta{{Index: 0, ID: "x", Name: "glob", Arguments: `{}`}, {Index: 1, ID: "call_seed_1", Name: "glob", Arguments: `{}`}}},
		{"parallel calls whose fragments interleave", []wireToolCall{
			fragment(0, "a", "read", `{"path":`), fragment(1, "b", "read", `{"path":`), fragment(2, "c", "read", `{"path":`),
			fragment(0, "", "", `"x"}`), fragment(1, "", "", `"y"}`),
		}, []ToolCallDelta{{Index: 0, ID: "a", Name: "read", Arguments: `{"path":`}, {Index: 1, ID: "b", Name: "read", Arguments: `{"path":`},
			{Index: 2, ID: "c", Name: "read", Arguments: `{"path":`}, {Index: 0, Arguments: `"x"}`}, {Index: 1, Arguments: `"y"}`}}},
		{"empty fragments are dropped", []wireToolCall{fragment(0, "", "", "")}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := callAssembler{seed: "seed"}
			var got []ToolCallDelta
			for _, tc := range tt.in {
				if d, ok := a.add(tc); ok {
					got = append(got, d)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("\nwant %+v\ngot  %+v", tt.want, got)
			}
		})
	}
}

func TestArgumentsSentAsAnObjectAreKeptAsText(t *testing.T) {
	var tc wireToolCall
	if err := json.Unmarshal([]byte(`{"index":0,"function":{"name":"f","arguments":{"a": [1, 2]}}}`), &tc); err != nil {
		t.Fatal(err)
	}
	if tc.Function.Arguments != `{"a":[1,2]}` {
		t.Errorf("want the object as compact JSON text, got %q", tc.Function.Arguments)
	}
}
