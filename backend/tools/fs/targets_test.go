package fs

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/tools"
)

func TestWriteAndEditNameTheFileTheyChange(t *testing.T) {
	env := &tools.Env{Cwd: "/work/proj"}
	for _, tool := range []tools.Targeter{&Write{}, &Edit{}} {
		got := tool.Targets(tools.Call{Args: json.RawMessage(`{"file_path":"src/a.go","content":"x"}`), Env: env})
		if !slices.Equal(got, []string{"/work/proj/src/a.go"}) {
			t.Errorf("%T: want the resolved path, got %v", tool, got)
		}
		if got := tool.Targets(tools.Call{Args: json.RawMessage(`{}`), Env: env}); got != nil {
			t.Errorf("%T: want no target without file_path, got %v", tool, got)
		}
	}
}
