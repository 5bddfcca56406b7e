package claudemsg

import (
	"encoding/json"

	"github.com/tack-agent/tack/backend/card"
)

// todoWriteOutput is TodoWrite's TodoWriteOutput: the plan the call
// replaced and the one it wrote, from the plan card; nil for a card that
// does not say what it replaced (one logged before it did).
func todoWriteOutput(c *card.Card) any {
	if c.Replaced == nil {
		return nil
	}
	return todoChange{OldTodos: todos(c.Replaced.Todos), NewTodos: todos(c.Todos)}
}

type todoChange struct {
	OldTodos []todo `json:"oldTodos"`
	NewTodos []todo `json:"newTodos"`
}

// todo is an item of a plan as Claude Code's TodoWrite sends it.
type todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

func todos(items []card.TodoItem) []todo {
	out := make([]todo, len(items))
	for i, it := range items {
		out[i] = todo{Content: it.Content, Status: string(it.Status), ActiveForm: it.ActiveForm}
	}
	return out
}

// exitPlanModeOutput is ExitPlanMode's ExitPlanModeOutput for a plan the
// user approved (any other answer is an error): the plan the call
// presented. tack's plan mode is the session's, never a subagent's, and
// tack keeps the plan in the call rather than in a file, so isAgent is
// false and there is no filePath.
func exitPlanModeOutput(input json.RawMessage) any {
	var in struct {
		Plan string `json:"plan"`
	}
	_ = json.Unmarshal(input, &in)
	return planApproved{Plan: in.Plan}
}

type planApproved struct {
	Plan    string `json:"plan"`
	IsAgent bool   `json:"isAgent"`
}
