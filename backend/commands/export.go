package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/session"
)

func exportCommand(deps Deps) Command {
	return Command{
		Name: "export", Description: "Write the transcript to a Markdown file",
		Input: Input{Hint: "[file]"}, WhileRunning: true,
		Handler: withSession(func(_ context.Context, inv Invocation, sa SessionAgent) Result {
			header := sa.Header()
			path := strings.TrimSpace(inv.RawInput)
			// The default file is this session's own export: writing it
			// again refreshes it. A file the user names may be anything,
			// so it is never overwritten.
			overwrite := path == ""
			if path == "" {
				path = "tack-" + header.ID + ".md"
			}
			if !filepath.IsAbs(path) {
				dir := deps.WorkDir
				if dir == "" {
					dir = header.Cwd
				}
				path = filepath.Join(dir, path)
			}
			doc := exportMarkdown(header, sa.Events(), deps.Models)
			if err := writeExport(path, doc, overwrite); errors.Is(err, fs.ErrExist) {
				return Failf("Did not export the transcript: %s already exists. Name a new file: /export <file>.", path)
			} else if err != nil {
				return Failf("Could not export the transcript: %v. Name a writable file: /export <file>.", err)
			}
			return Succeed(fmt.Sprintf("Exported the transcript to %s.", path))
		}),
	}
}

// writeExport writes doc to path, failing with fs.ErrExist when path exists
// and overwrite is not set.
func writeExport(path, doc string, overwrite bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(doc)
	return errors.Join(err, f.Close())
}

// transcriptWriter renders transcript events as Markdown sections.
type transcriptWriter struct {
	b       strings.Builder
	section string // the heading of the current section
}

// exportMarkdown renders what the human saw of the session as a Markdown
// document: prompts, steering, answers with reasoning and tool calls,
// compaction markers, and a usage summary.
func exportMarkdown(h session.Header, events []session.Event, models Models) string {
	proj := session.NewProjection(h)
	for _, e := range events {
		proj.Apply(e)
	}
	w := &transcriptWriter{}
	title := proj.Title()
	if title == "" {
		title = "Session " + h.ID
	}
	fmt.Fprintf(&w.b, "# %s\n\n", escapeInline(title))
	fmt.Fprintf(&w.b, "- Session: %s\n- Directory: %s\n- Created: %s\n", code(h.ID), code(h.Cwd), clock(h.Created))
	// The projection was folded from events, which hold all it refers to.
	transcript, _ := proj.Transcript(session.Events(events))
	for _, e := range transcript {
		w.event(e)
	}
	w.summary(proj.Usage(), proj.UsageByModel(), models)
	return w.b.String()
}

func (w *transcriptWriter) event(e session.Event) {
	switch d := e.Data.(type) {
	case session.UserMessage:
		w.user(d)
	case session.SteeringMessage:
		w.open("Steering")
		w.prose(d.Text)
	case session.AssistantMessage:
		w.open("Assistant")
		if strings.TrimSpace(d.Reasoning) != "" {
			w.details("Reasoning", d.Reasoning)
		}
		w.prose(d.Text)
	case session.ToolCall:
		w.open("Assistant")
		fmt.Fprintf(&w.b, "\n**Tool call:** %s\n", code(d.Name))
		w.fenced("json", prettyJSON(d.Arguments))
	case session.ToolResult:
		label := "Result"
		if d.IsError {
			label = "Result (error)"
		}
		fmt.Fprintf(&w.b, "\n**%s:** %s\n", label, code(d.Name))
		w.fenced("text", d.Text)
	case session.CompactionMarker:
		w.note("… earlier context was compacted …")
	case session.CompactEnd:
		if d.Error != "" {
			w.note("Compaction failed: " + d.Error)
		}
	case session.TurnEnd:
		w.turnEnd(d)
	}
}

func (w *transcriptWriter) user(d session.UserMessage) {
	switch d.Kind {
	case session.KindPrompt:
		w.open("You")
		w.prose(d.Input())
		if d.Typed != "" {
			w.details("The prompt it sent", d.Text)
		}
	case session.KindContext:
		heading := "Context"
		if d.Origin != "" {
			heading += " · " + oneLine(d.Origin)
		}
		w.open(heading)
		w.fenced("text", d.Text)
	}
}

// details writes text folded under summary.
func (w *transcriptWriter) details(summary, text string) {
	fmt.Fprintf(&w.b, "\n<details>\n<summary>%s</summary>\n", summary)
	w.prose(text)
	w.b.WriteString("\n</details>\n")
}

func (w *transcriptWriter) turnEnd(d session.TurnEnd) {
	switch d.Reason {
	case session.StopAborted:
		w.note("Turn cancelled.")
	case session.StopMaxTokens:
		w.note("The model reached its output-token limit.")
	case session.StopInterrupted:
		w.note("The previous process ended during this turn.")
	case session.StopError:
		msg := "Turn failed."
		if d.Error != nil {
			msg = "Turn failed: " + d.Error.Message
		}
		w.note(msg)
	}
	// A new turn's answer gets its own heading even without a prompt
	// between (a follow-up that failed to record, a resumed turn).
	w.section = ""
}

// open starts a section unless it is the current one, so an answer's steps
// and tool calls share one heading.
func (w *transcriptWriter) open(heading string) {
	if w.section == heading {
		return
	}
	w.section = heading
	fmt.Fprintf(&w.b, "\n## %s\n", heading)
}

// prose writes Markdown text from the session, closing any code fence it
// leaves open so the rest of the document stays intact.
func (w *transcriptWriter) prose(text string) {
	text = strings.Trim(text, "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	w.b.WriteString("\n" + text + "\n")
	if fence := openFence(text); fence != "" {
		w.b.WriteString(fence + "\n")
	}
}

// fenced writes text verbatim in a code block whose fence is longer than
// any backtick run inside it.
func (w *transcriptWriter) fenced(lang, text string) {
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	fmt.Fprintf(&w.b, "\n%s%s\n%s\n%s\n", fence, lang, strings.TrimRight(text, "\n"), fence)
}

// note is a line in italics, outside any section's speech.
func (w *transcriptWriter) note(text string) {
	fmt.Fprintf(&w.b, "\n*%s*\n", escapeInline(text))
}

func (w *transcriptWriter) summary(totals session.Totals, usage []session.ModelUsage, models Models) {
	cost, unpriced := sessionCost(models, usage)
	w.b.WriteString("\n---\n\n## Usage\n\n")
	fmt.Fprintf(&w.b, "- %s · %s · %s\n", plural(totals.Turns, "turn"), plural(totals.Steps, "step"), plural(totals.ToolCalls, "tool call"))
	fmt.Fprintf(&w.b, "- Tokens: %s\n", tokensText(totals.Sum))
	if totals.Sum.Prompt() > 0 {
		ratio := float64(totals.Sum.CacheRead) / float64(totals.Sum.Prompt())
		fmt.Fprintf(&w.b, "- KV cache: %d%% hit (%s read + %s uncached)\n", percent(ratio), grouped(totals.Sum.CacheRead), grouped(totals.Sum.Input))
	}
	fmt.Fprintf(&w.b, "- Cost: %s\n", escapeInline(costText(cost, unpriced)))
}

// openFence returns the closing fence for a fenced code block that text
// opens and never closes, or "".
func openFence(text string) string {
	open := ""
	for line := range strings.Lines(text) {
		trimmed := strings.TrimLeft(strings.TrimRight(line, "\r\n"), " ")
		if len(line)-len(strings.TrimLeft(line, " ")) > 3 {
			continue
		}
		marker := fenceMarker(trimmed)
		switch {
		case open == "" && marker != "":
			open = marker
		case open != "" && strings.HasPrefix(trimmed, open) && strings.Trim(trimmed, open[:1]) == "":
			open = ""
		}
	}
	return open
}

// fenceMarker is the run of three or more backticks or tildes that opens
// line as a code fence, or "".
func fenceMarker(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := longestPrefix(line, line[0])
	if n < 3 || (line[0] == '`' && strings.ContainsRune(line[n:], '`')) {
		return ""
	}
	return line[:n]
}

func longestPrefix(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// code is s as inline code, fenced with enough backticks.
func code(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// escapeInline escapes the characters that would turn plain text into
// Markdown emphasis or links.
func escapeInline(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`)
	return r.Replace(oneLine(s))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// prettyJSON indents valid JSON arguments and leaves anything else as is.
func prettyJSON(raw string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(raw), "", "  "); err != nil {
		return raw
	}
	return buf.String()
}
