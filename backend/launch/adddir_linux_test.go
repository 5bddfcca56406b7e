package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// The /add-dir that the card of a refused write names is one that allows
// it: typed as the card says, the same command writes in the sandbox
// without asking.
func TestTheAddDirARefusalNamesAllowsTheWrite(t *testing.T) {
	u := newUser(t)
	made := filepath.Join(t.TempDir(), "made")
	llm := llmtest.New(t, bashCall("call_1", "touch "+made), llmtest.ReplyText("refused"),
		bashCall("call_2", "touch "+made), llmtest.ReplyText("made"))
	s := u.open(t, llm)
	asked := denyApprovals(t, s.Broker)
	runTurn(t, s, "Make it.")
	refusal := cardRefusal(t, s, "call_1")
	_, typed, ok := strings.Cut(refusal, "type ")
	typed, _, ok2 := strings.Cut(typed, " for this session")
	if !ok || !ok2 || !strings.HasPrefix(typed, "/add-dir ") {
		t.Fatalf("want the card to name an /add-dir, it says %q", refusal)
	}
	if exec, _ := s.Commands.Execute(context.Background(), s.Agent, typed, nil); exec.Result.Kind != "success" {
		t.Fatalf("%s: %+v", typed, exec.Result)
	}
	runTurn(t, s, "Again.")
	if _, err := os.Stat(made); err != nil || len(*asked) != 1 {
		t.Fatalf("want the command to write after %s without asking, got %v, asked %d times; the model read %q",
			typed, err, len(*asked), toolResult(t, s, "call_2").Text)
	}
}
