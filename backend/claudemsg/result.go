package claudemsg

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/card"
)

// ToolUseResult is what Claude Code keeps of a tool's answer beside the
// tool_result block: stream-json's tool_use_result and a transcript's
// toolUseResult, which programs read instead of the text (a diff viewer
// its structuredPatch). A tool tack has in kind answers in the shape the
// Agent SDK declares for it (BashOutput, FileEditOutput, FileReadOutput,
// GlobOutput, GrepOutput, TodoWriteOutput, WebSearchOutput, ReadMcpResourceOutput, ...), from the call's input, the text the model
// read and the facts the result's card keeps; a failed call with the
// text, as Claude Code answers an error; any other tool, or a result
// whose card lacks the facts (one logged before they were kept), with
// nil, for none: its text, where a program expects an object, would
// mislead it.
func ToolUseResult(call ToolCall) any {
	if call.IsError {
		return call.Text
	}
	c, input, text, ms := call.Card, call.Input, call.Text, call.Duration.Milliseconds()
	if c == nil {
		c = &card.Card{}
	}
	switch name := call.Name; name {
	case "Bash":
		out := bashOutput{Stdout: trimBlankLines(text)}
		if c.Terminal != nil {
			out.Interrupted, out.BackgroundTaskID = c.Terminal.Interrupted, c.Terminal.Background
		}
		return out
	case "Edit", "Write":
		return fileChange(name, input, c)
	case "Read":
		return fileRead(input, text, c)
	case "Glob":
		return globOutput(c, ms)
	case "Grep":
		return grepOutput(input, text, c)
	case "TodoWrite":
		return todoWriteOutput(c)
	case "ExitPlanMode":
		return exitPlanModeOutput(input)
	case "AskUserQuestion":
		return askUserQuestionOutput(input, text)
	case "WebFetch":
		return webFetchOutput(input, text, c, ms)
	case "WebSearch":
		return webSearchOutput(call.ID, input, c, call.Duration)
	case "Agent":
		return agentOutput(input, text, c, ms)
	case "TaskStop":
		return taskStopOutput(input, text)
	case "NotebookEdit":
		return notebookEditOutput(input, c)
	case "ListMcpResourcesTool":
		return listMcpResourcesOutput(c)
	case "ReadMcpResourceTool":
		return readMcpResourceOutput(c)
	}
	return nil
}

// ToolCall is an answered call in Claude Code's terms: its id, Claude
// Code's name of the tool, its input as Claude Code shows it
// (tools.ClaudeInput), the text the model read, whether that was an error,
// the result's card, and how long the tool ran (Claude Code's durations
// of searches, fetches and subagents; 0 where it was not timed).
type ToolCall struct {
	ID       string
	Name     string
	Input    json.RawMessage
	Text     string
	IsError  bool
	Card     *card.Card
	Duration time.Duration
}

// fileChange is an Edit's FileEditOutput or a Write's FileWriteOutput.
func fileChange(name string, input json.RawMessage, c *card.Card) any {
	var in struct {
		FilePath   string `json:"file_path"`
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
		Content    string `json:"content"`
	}
	_ = json.Unmarshal(input, &in)
	if name == "Edit" {
		return fileEditOutput{FilePath: in.FilePath, OldString: in.OldString, NewString: in.NewString,
			OriginalFile: c.Original, StructuredPatch: patch(c), ReplaceAll: in.ReplaceAll}
	}
	kind := "update"
	if len(c.Diffs) > 0 && c.Diffs[0].Created {
		kind = "create"
	}
	return fileWriteOutput{Type: kind, FilePath: in.FilePath, Content: in.Content, StructuredPatch: patch(c),
		OriginalFile: c.Original}
}

// bashOutput is BashOutput's fields that tack knows: the text the model
// read is the command's output, its streams merged as it saw them, without
// the blank lines before and after it, as Claude Code trims its stdout
// ("hi", not "hi\n"); a command started in the background names its task.
type bashOutput struct {
	Stdout           string `json:"stdout"`
	Stderr           string `json:"stderr"`
	Interrupted      bool   `json:"interrupted"`
	IsImage          bool   `json:"isImage"`
	BackgroundTaskID string `json:"backgroundTaskId,omitempty"`
}

// fileEditOutput is FileEditOutput. originalFile is the file's text
// before the edit, which the card keeps up to card.OriginalTextLimit;
// null above it, as Claude Code answers a file too large to include.
type fileEditOutput struct {
	FilePath        string  `json:"filePath"`
	OldString       string  `json:"oldString"`
	NewString       string  `json:"newString"`
	OriginalFile    *string `json:"originalFile"`
	StructuredPatch []hunk  `json:"structuredPatch"`
	UserModified    bool    `json:"userModified"`
	ReplaceAll      bool    `json:"replaceAll"`
}

// fileWriteOutput is FileWriteOutput; its originalFile is null for a
// file the write created, and as fileEditOutput's otherwise.
type fileWriteOutput struct {
	Type            string  `json:"type"`
	FilePath        string  `json:"filePath"`
	Content         string  `json:"content"`
	StructuredPatch []hunk  `json:"structuredPatch"`
	OriginalFile    *string `json:"originalFile"`
}

// hunk is one hunk of a structuredPatch, in the unified diff's terms: its
// lines start with " ", "-" or "+".
type hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// patch is the card's diff as hunks; none for a file the call created, as
// Claude Code writes a creation.
func patch(c *card.Card) []hunk {
	out := []hunk{}
	if len(c.Diffs) == 0 || c.Diffs[0].Created {
		return out
	}
	cur := -1
	for _, l := range c.Diffs[0].Lines {
		if l.Op == card.OpGap {
			cur = -1
			continue
		}
		if cur < 0 {
			out = append(out, hunk{})
			cur = len(out) - 1
		}
		h := &out[cur]
		if h.OldStart == 0 && l.Old > 0 {
			h.OldStart = l.Old
		}
		if h.NewStart == 0 && l.New > 0 {
			h.NewStart = l.New
		}
		if l.Op != card.OpAdd {
			h.OldLines++
		}
		if l.Op != card.OpDelete {
			h.NewLines++
		}
		h.Lines = append(h.Lines, string(l.Op)+l.Text)
	}
	return out
}

// trimBlankLines is s without its leading and trailing lines that hold
// only white space, as Claude Code trims a command's output.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	return strings.Join(lines[first:last+1], "\n")
}
