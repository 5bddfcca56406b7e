// Package card is the UI-neutral presentation of tool calls and results.
// Tools produce cards; both front doors render them without knowing which
// tool made them. Cards are stored in the session log so a resumed session
// shows the identical card.
package card

import (
	"fmt"
	"strconv"
)

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
	// Title is the one-line headline, e.g. "Read main.go (1-40)", which
	// front doors without a header of Label and Subject show.
	Title string `json:"title,omitempty"`
	// Label names the action in the card's header ("Bash", "Edit"); when
	// empty, front doors derive it from the tool's name.
	Label string `json:"label,omitempty"`
	// Subject is the call's key argument, shown in the header after the
	// label: the command, the path, the pattern. Empty shows the Title.
	Subject string `json:"subject,omitempty"`
	// Description is the model-written purpose (bash description), or a
	// short fact about the call ("lines 1-40").
	Description string `json:"description,omitempty"`
	// Summary is one line that stands for the body while cards are
	// collapsed ("Read 20 lines", "Plan 2/4"); the body shows expanded.
	// Empty shows the body, folded when long.
	Summary string `json:"summary,omitempty"`
	// Body is free text for generic, read, search and question cards.
	Body string `json:"body,omitempty"`
	// Markdown says Body is Markdown (a plan), to be rendered as such.
	Markdown bool `json:"markdown,omitempty"`

	Terminal *TerminalView `json:"terminal,omitempty"`
	Diffs    []FileDiff    `json:"diffs,omitempty"`
	Todos    []TodoItem    `json:"todos,omitempty"`
	// Truncated says the tool left results out (search caps, read limits).
	Truncated bool `json:"truncated,omitempty"`

	// Window, Found, Fetched, Replaced, Agent, Notebook, Cells, Listed
	// and Contents are what a call read, found, changed or had done that the
	// card shows only as text, or not at all, kept as data for the
	// programs that read a tool's answer so (Claude Code's
	// tool_use_result).
	Window   *LineWindow       `json:"window,omitempty"`
	Found    *Found            `json:"found,omitempty"`
	Fetched  *Fetched          `json:"fetched,omitempty"`
	Replaced *Plan             `json:"replaced,omitempty"`
	Agent    *AgentRun         `json:"agent,omitempty"`
	Notebook *NotebookChange   `json:"notebook,omitempty"`
	Cells    *NotebookCells    `json:"cells,omitempty"`
	Listed   *ResourceList     `json:"listed,omitempty"`
	Contents *ResourceContents `json:"contents,omitempty"`
	// Original is the whole text of the file an edit or write changed, as
	// it was before (Claude Code's originalFile): nil for a file the call
	// created, and for one larger than OriginalTextLimit.
	Original *string `json:"original,omitempty"`
}

// OriginalTextLimit is the most bytes of a file's text before a change
// that a Card keeps. A session log is read whole when the session
// resumes, so it keeps the text of a source file, not that of a large
// generated one edited often.
const OriginalTextLimit = 256 << 10

// ResourceList is what a listing of MCP servers' resources found: each
// resource with the server that offers it.
type ResourceList struct {
	Resources []Resource `json:"resources"`
}

// Resource is one resource an MCP server offers.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	MIMEType    string `json:"mime_type,omitempty"`
	Description string `json:"description,omitempty"`
	Server      string `json:"server"`
}

// ResourceContents is what reading an MCP resource returned: its
// contents, text as it is and binary ones by the file each was saved to
// (none where it could not be). The text is left out ("") of a resource
// too large to keep twice in the session log (ResourceTextLimit), as its
// result's text is spilled to a file.
type ResourceContents struct {
	Contents []ResourceContent `json:"contents"`
}

// ResourceContent is one content of a resource read.
type ResourceContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mime_type,omitempty"`
	Text     string `json:"text,omitempty"`
	SavedTo  string `json:"saved_to,omitempty"`
}

// ResourceTextLimit is the most bytes of a resource's text, its contents
// together, that ResourceContents keeps.
const ResourceTextLimit = 256 << 10

// NotebookChange is what a notebook edit changed: the cell (its id, its
// type before and after: "" where it had none, deleted or inserted), the
// notebook's language, and the notebook's whole text before and after,
// which are left out ("") of an edit of a notebook too large to keep
// twice more in the session log (NotebookTextLimit).
type NotebookChange struct {
	CellID      string `json:"cell_id"`
	OldCellType string `json:"old_cell_type,omitempty"`
	CellType    string `json:"cell_type,omitempty"`
	Language    string `json:"language"`
	Original    string `json:"original,omitempty"`
	Updated     string `json:"updated,omitempty"`
}

// NotebookTextLimit is the most bytes of a notebook's text, before and
// after an edit together, a NotebookChange keeps, and of a read's cells
// NotebookCells keeps.
// A session log is read whole when the session resumes, so it keeps
// what a notebook of code holds, not one of large outputs edited often.
const NotebookTextLimit = 256 << 10

// NotebookCells is the cells of a notebook a read showed, in the
// notebook's language. A read keeps them only while their sources and
// outputs fit NotebookTextLimit together, as the session log is read
// whole when the session resumes.
type NotebookCells struct {
	Language string         `json:"language"`
	Cells    []NotebookCell `json:"cells"`
}

// NotebookCell is one cell as read shows it: its id (cell-N where it has
// none), type, source and execution count, and its outputs as text.
type NotebookCell struct {
	ID             string       `json:"id"`
	Type           string       `json:"type"`
	Source         string       `json:"source"`
	ExecutionCount *int         `json:"execution_count,omitempty"`
	Outputs        []CellOutput `json:"outputs,omitempty"`
}

// CellOutput is one output of a code cell, by nbformat's output_type, as
// text.
type CellOutput struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// AgentRun is what a subagent did: its session, its model, the tool calls
// it made and the tokens it used, in disjoint buckets (input the cache did
// not hold, input it did, output, of which reasoning).
type AgentRun struct {
	Session         string `json:"session"`
	Model           string `json:"model,omitempty"`
	ToolCalls       int    `json:"tool_calls"`
	InputTokens     int    `json:"input_tokens"`
	CachedTokens    int    `json:"cached_tokens"`
	OutputTokens    int    `json:"output_tokens"`
	ReasoningTokens int    `json:"reasoning_tokens,omitempty"`
}

// Plan is a todo list: on a todo card, the one the call replaced (the list
// an earlier call of the same turn wrote; none at a turn's first, as each
// turn starts without a plan).
type Plan struct {
	Todos []TodoItem `json:"todos"`
}

// LineWindow is the lines of a file one read showed: from Start (1-based),
// Lines of them, of Total in the file, where the read asked for Limit at
// the most. Capped says the read's byte budget ended the window; Total
// then counts the lines up to its end only. Newline says the file's last
// line ends with a newline (unknown, false, when Capped).
type LineWindow struct {
	Start   int  `json:"start"`
	Lines   int  `json:"lines"`
	Total   int  `json:"total"`
	Limit   int  `json:"limit,omitempty"`
	Capped  bool `json:"capped,omitempty"`
	Newline bool `json:"newline,omitempty"`
}

// Found is what a search found: the files it lists by absolute path
// (those shown), how many files matched, how many matches, and how many lines
// of matches it shows; or the pages a web search found.
type Found struct {
	Files   []string `json:"files,omitempty"`
	Total   int      `json:"total"`
	Matches int      `json:"matches,omitempty"`
	Lines   int      `json:"lines,omitempty"`
	Pages   []Page   `json:"pages,omitempty"`
}

// Page is one page a web search found.
type Page struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Fetched is what a web fetch downloaded: its size in bytes.
type Fetched struct {
	Bytes int `json:"bytes"`
}

// TerminalView is a shell command and what came of it.
type TerminalView struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd,omitempty"`
	Output  string `json:"output,omitempty"`
	// ExitCode is nil while running or when killed by a signal.
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Interrupted says the user cancelled the turn while it ran.
	Interrupted bool   `json:"interrupted,omitempty"`
	Background  string `json:"background,omitempty"` // task id when started in the background
	// DroppedLines counts the lines of output before Output that were not
	// kept in memory; Spill names the files that hold the whole streams.
	DroppedLines int      `json:"dropped_lines,omitempty"`
	Spill        []string `json:"spill,omitempty"`
	// Refusal says what the sandbox refused the command and how to allow
	// it, when its output shows a refusal.
	Refusal string `json:"refusal,omitempty"`
	// Sandbox names how the command was confined when not the default
	// sandbox: "no sandbox", "read-only sandbox", "sandbox with network".
	Sandbox string `json:"sandbox,omitempty"`
}

// Failed reports whether the command did not succeed: a non-zero exit, a
// signal or a timeout. A command still running has not failed.
func (v TerminalView) Failed() bool {
	return v.TimedOut || v.Interrupted || v.Signal != "" || (v.ExitCode != nil && *v.ExitCode != 0)
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

// DiffLine is one line of a FileDiff. Old and New are its line numbers
// in the file before and after (1-based; 0 where the line has none, or
// where the diff was made without the whole file).
type DiffLine struct {
	Op   DiffOp `json:"op"`
	Text string `json:"text"`
	Old  int    `json:"old,omitempty"`
	New  int    `json:"new,omitempty"`
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

// Done counts the completed items of a plan.
func Done(todos []TodoItem) int {
	n := 0
	for _, t := range todos {
		if t.Status == TodoCompleted {
			n++
		}
	}
	return n
}

// Current is the item a plan is at: the one in progress, else the first
// pending one; ok is false when every item is done.
func Current(todos []TodoItem) (item TodoItem, ok bool) {
	for _, t := range todos {
		if t.Status == TodoInProgress {
			return t, true
		}
	}
	for _, t := range todos {
		if t.Status == TodoPending {
			return t, true
		}
	}
	return TodoItem{}, false
}

// PlanLine sums a plan up in one line: `Plan 2/4 · Fix CountWords`, the
// item it is at in its active form while in progress, or `Plan 4/4 done`.
func PlanLine(todos []TodoItem) string {
	head := "Plan " + strconv.Itoa(Done(todos)) + "/" + strconv.Itoa(len(todos))
	cur, ok := Current(todos)
	if !ok {
		return head + " done"
	}
	text := cur.Content
	if cur.Status == TodoInProgress && cur.ActiveForm != "" {
		text = cur.ActiveForm
	}
	return head + " · " + text
}

// Size is a byte count as cards show it: "512 B", "47.1 KB", "1.2 MB".
func Size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
