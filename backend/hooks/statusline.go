package hooks

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/llm"
)

// StatusRows bounds how many rows of a status line command's output are
// shown: the rows come out of the transcript's.
const StatusRows = 3

// statusTimeout bounds one run of a status line command by default.
const statusTimeout = 5 * time.Second

// StatusLine is Claude Code's "statusLine" setting: a command that reads
// the session's figures as JSON on stdin and prints the rows shown above
// the status row, with SGR colours if it likes.
type StatusLine struct {
	Command string
	// Padding is how many columns the rows are indented by.
	Padding int
	// Source names the settings file it came from, for messages.
	Source string
	// Timeout bounds one run (statusTimeout when 0).
	Timeout time.Duration
	// Every runs it again that long after a run without a change in
	// between (Claude Code's refreshInterval); 0 runs it after changes
	// alone.
	Every time.Duration
}

// StatusRun is what one run printed, and when to run again unasked.
type StatusRun struct {
	Rows  []string
	Every time.Duration
}

// StatusInput is what a status line command reads on stdin: the fields
// of Claude Code's, so scripts written for it read the same paths
// (.model.display_name, .context_window.used_percentage, …).
type StatusInput struct {
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
	// SessionName is the title the model gave the session, absent before
	// one, as Claude Code's is its AI-generated title (or the name the
	// user set), never a default.
	SessionName string `json:"session_name,omitempty"`
	// PromptID names the user's input being worked on, the latest (a
	// prompt, steering or a notice tack added), as the promptId of its
	// lines in the transcript; absent before the first.
	PromptID       string        `json:"prompt_id,omitempty"`
	TranscriptPath string        `json:"transcript_path"`
	Cwd            string        `json:"cwd"`
	Model          StatusModel   `json:"model"`
	Workspace      StatusDirs    `json:"workspace"`
	Version        string        `json:"version"`
	OutputStyle    StatusStyle   `json:"output_style"`
	Cost           StatusCost    `json:"cost"`
	ContextWindow  StatusContext `json:"context_window"`
	// Exceeds200K says the last request's input passed 200,000 tokens.
	Exceeds200K bool `json:"exceeds_200k_tokens"`
	// FastMode is Claude Code's fast mode, which tack's providers do not
	// offer: always false, as Claude Code sends it with the mode off.
	FastMode bool `json:"fast_mode"`
	// Effort is the reasoning effort of the next step, absent where the
	// model does not reason; Thinking says whether it does. Claude Code
	// gives both since 2.1.119.
	Effort   *StatusEffort   `json:"effort,omitempty"`
	Thinking *StatusThinking `json:"thinking,omitempty"`
	// Agent names the agent definition the session runs as (--agent, or
	// "agent" in settings); absent otherwise, as in Claude Code.
	Agent *StatusAgent `json:"agent,omitempty"`
	// Columns and Lines are the terminal's size, which the command reads
	// in COLUMNS and LINES as Claude Code's does since 2.1.153 (its
	// stdout is a pipe, so tput cannot tell); 0 leaves them out.
	Columns int `json:"-"`
	Lines   int `json:"-"`
}

// StatusModel is the model of the next step.
type StatusModel struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
}

// StatusEffort is a reasoning effort in Claude Code's words: low, medium,
// high, xhigh or max (tack's are low, high and max).
type StatusEffort struct {
	Level string `json:"level"`
}

// EffortOf is effort as Claude Code tells it to status lines and hooks:
// no level where the model does not reason ("off"), and neither a level
// nor thinking where it has no effort to set.
func EffortOf(e llm.Effort) (*StatusEffort, *StatusThinking) {
	switch e {
	case "":
		return nil, nil
	case llm.EffortOff:
		return nil, &StatusThinking{}
	}
	return &StatusEffort{Level: string(e)}, &StatusThinking{Enabled: true}
}

// StatusAgent is the agent definition a session runs as.
type StatusAgent struct {
	Name string `json:"name"`
}

// StatusThinking says whether the model reasons before it answers.
type StatusThinking struct {
	Enabled bool `json:"enabled"`
}

// StatusDirs are the directory the session works in, the project's and
// the others it may work in (--add-dir), and the git repository holding
// it.
type StatusDirs struct {
	CurrentDir string   `json:"current_dir"`
	ProjectDir string   `json:"project_dir"`
	AddedDirs  []string `json:"added_dirs"`
	// GitWorktree names the linked git worktree the session works in;
	// absent in a main work tree.
	GitWorktree string `json:"git_worktree,omitempty"`
	// Repo is the repository as its origin remote names it; absent
	// outside one or without an origin.
	Repo *StatusRepo `json:"repo,omitempty"`
}

// StatusRepo is a repository's host, owner and name (github.com,
// anthropics, claude-code).
type StatusRepo struct {
	Host  string `json:"host"`
	Owner string `json:"owner"`
	Name  string `json:"name"`
}

// StatusStyle is the output style the settings chose ("default" for none).
type StatusStyle struct {
	Name string `json:"name"`
}

// StatusCost is what the session cost so far, and the time and the
// lines changed of this run of tack.
type StatusCost struct {
	TotalUSD     float64 `json:"total_cost_usd"`
	DurationMS   int64   `json:"total_duration_ms"`
	APIMS        int64   `json:"total_api_duration_ms"`
	LinesAdded   int     `json:"total_lines_added"`
	LinesRemoved int     `json:"total_lines_removed"`
}

// StatusContext is how full the context window is. TotalInput and
// TotalOutput are the last request's prompt (cached or not) and output,
// as Claude Code gives them since 2.1.132 (they were the session's sums
// before; ccusage statusline shows TotalInput as the context). The
// percentages are whole, as Claude Code's. They and CurrentUsage are null
// (the totals 0) until the model has answered once, and again after a
// compaction until it answers next, and the percentages when the model's
// window is unknown.
type StatusContext struct {
	TotalInput   int           `json:"total_input_tokens"`
	TotalOutput  int           `json:"total_output_tokens"`
	Size         int           `json:"context_window_size"`
	UsedPct      *int          `json:"used_percentage"`
	RemainingPct *int          `json:"remaining_percentage"`
	CurrentUsage *StatusTokens `json:"current_usage"`
}

// StatusTokens are the tokens of the last request, in the Anthropic API's
// terms: input_tokens are those the cache did not hold.
type StatusTokens struct {
	Input      int `json:"input_tokens"`
	Output     int `json:"output_tokens"`
	CacheWrite int `json:"cache_creation_input_tokens"`
	CacheRead  int `json:"cache_read_input_tokens"`
}

// Run runs the command in dir with environ, in over its stdin, and
// returns the rows it printed: at most StatusRows, without the blank ones
// at the end, each as printed after Padding spaces (the front door keeps
// only its colours).
// Like Claude Code, a command that fails shows nothing; the error says
// why, with what it wrote on stderr.
func (s StatusLine) Run(ctx context.Context, dir string, environ []string, in StatusInput) (StatusRun, error) {
	rows, err := s.run(ctx, dir, environ, in)
	return StatusRun{Rows: rows, Every: s.Every}, err
}

func (s StatusLine) run(ctx context.Context, dir string, environ []string, in StatusInput) ([]string, error) {
	in.Event = "Status"
	if in.OutputStyle.Name == "" {
		in.OutputStyle.Name = "default"
	}
	if in.Workspace.AddedDirs == nil {
		in.Workspace.AddedDirs = []string{}
	}
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	if in.Columns > 0 && in.Lines > 0 {
		environ = append(slices.Clip(environ), "COLUMNS="+strconv.Itoa(in.Columns), "LINES="+strconv.Itoa(in.Lines))
	}
	timeout := cmp.Or(s.Timeout, statusTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stdout, stderr, err := runShell(ctx, s.Command, dir, environ, body)
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("statusLine of %s took over %s; make it faster (cache slow parts such as git by session_id)", s.Source, timeout)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.As(err, &exit):
		msg := fmt.Sprintf("statusLine of %s exited with status %d", s.Source, exit.ExitCode())
		if tail := lastLines(stderr.String(), 3); tail != "" {
			msg += ": " + tail
		}
		return nil, errors.New(msg + "; run it by hand with the JSON it reads to see why")
	case err != nil:
		return nil, fmt.Errorf("statusLine of %s could not run: %v", s.Source, err)
	}
	rows := statusRows(stdout.String())
	for i := range rows {
		rows[i] = strings.Repeat(" ", max(s.Padding, 0)) + rows[i]
	}
	return rows, nil
}

// statusRows are the first StatusRows lines of out, less the blank ones
// at its end.
func statusRows(out string) []string {
	lines := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	lines = lines[:min(len(lines), StatusRows)]
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
