package app

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

func TestASubagentsCostCountsInTheStatusRow(t *testing.T) {
	m, _ := newTestModel(nil)
	before := screen(m)
	m.applyLogged(session.Event{Type: "task/usage", Data: session.TaskUsage{CallID: "t1", Child: "c", Model: "deepseek-flash",
		Usage: llm.Usage{Input: 1000, Output: 100}, Cost: 0.4321}})
	if after := screen(m); !strings.Contains(after, "$0.43") || strings.Contains(before, "$0.43") {
		t.Fatalf("want the child's cost in the status row, got\n%s", after)
	}
}
