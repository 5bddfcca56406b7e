// Package card is the UI-neutral presentation of tool calls and results.
// Tools produce cards; both front doors render them without knowing which
// tool made them. Cards are stored in the session log so a resumed session
// shows the identical card.
package card

// Kind selects how a card is drawn.
type Kind string

const (
	Generic  Kind = "generic"
	Terminal Kind = "terminal"
	Diff     Kind = "diff"
	Read     Kind = "read"
	Search   Kind = "search"
	Todo     Kind = "todo"
	Question Kind = "question"
)

// Card is the presentation of one tool call or its result. Only the fields
// of its Kind are set.
type Card struct {
	Kind Kind `json:"kind"`
	// Title is the one-line headline, e.g. "Read main.go (1-40)".
	Title string `json:"title,omitempty"`
	// Description is the model-written purpose (bash description).
	Description string `json:"description,omitempty"`
	// Body is free text for generic, read, search and question cards.
	Body string `json:"body,omitempty"`

	Terminal *TerminalView `json:"terminal,omitempty"`
	Diffs    []FileDiff    `json:"diffs,omitempty"`
	Todos    []TodoItem    `json:"todos,omitempty"`
	// Truncated says the tool left results out (search caps, read limits).
	Truncated bool `json:"truncated,omitempty"`
}

// TerminalView is a shell command and what came of it.
type TerminalView struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd,omitempty"`
	Output  string `json:"output,omitempty"`
	// ExitCode is nil while running or when killed by a signal.
	ExitCode   *int   `json:"exit_code,omitempty"`
	Signal     string `json:"signal,omitempty"`
	TimedOut   bool   `json:"timed_out,omitempty"`
	Background string `json:"background,omitempty"` // task id when started in the background
}

// FileDiff is the change to one file as diff lines.
type FileDiff struct {
	Path    string     `json:"path"`
	Created bool       `json:"created,omitempty"`
	Added   int        `json:"added"`
	Removed int        `json:"removed"`
	Lines   []DiffLine `json:"lines,omitempty"`
	// Approximate is set when the exact diff exceeded its budget and Lines
	// show whole sides instead.
	Approximate bool `json:"approximate,omitempty"`
}

// DiffOp is the role of one diff line.
type DiffOp string

const (
	OpContext DiffOp = " "
	OpAdd     DiffOp = "+"
	OpDelete  DiffOp = "-"
	// OpGap marks omitted unchanged lines between hunks.
	OpGap DiffOp = "~"
)

// DiffLine is one line of a FileDiff.
type DiffLine struct {
	Op   DiffOp `json:"op"`
	Text string `json:"text"`
}

// TodoStatus is the state of one plan item.
type TodoStatus string

const (
	TodoPending    TodoStatus = "pending"
	TodoInProgress TodoStatus = "in_progress"
	TodoCompleted  TodoStatus = "completed"
)

// TodoItem is one entry of the plan.
type TodoItem struct {
	Content string     `json:"content"`
	Status  TodoStatus `json:"status"`
	// ActiveForm is the item as work under way ("Running the tests"), as
	// Claude Code's TodoWrite sends it; shown while the item is in progress.
	ActiveForm string `json:"active_form,omitempty"`
}
