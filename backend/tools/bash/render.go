package bash

import (
	"fmt"
	"strings"
)

// result is a finished foreground run, as the renderer needs it.
type result struct {
	stdout, stderr Capture
	outcome        Outcome
}

// render shapes a finished run into the text the model reads: one status
// marker per line first, "[timed out after Nms]" whenever the timeout
// fired (even if the command then exited 0), "[killed by signal: SIG]" for
// a signal death, else "[exit code: N]" for a non-zero exit; then stdout,
// then a "[stderr]" section, each followed by its truncation notice, or
// "(no output)".
//
// The markers lead, where the original tool put them last: a model trained
// on Claude Code reads a failed command's result as "Exit code N" and then
// the output, and a marker after a long tail of output is the easiest line
// to miss. A command that succeeds shows its output alone.
func render(r result) string {
	body := renderBody(streamText(r.stdout), streamText(r.stderr))
	if body == "" {
		body = "(no output)"
	}
	markers := statusMarkers(r.outcome)
	if len(markers) == 0 {
		return body
	}
	return strings.Join(markers, "\n") + "\n" + body
}

// renderBody joins stdout and a "[stderr]" section with a single newline.
func renderBody(out, errText string) string {
	if errText == "" {
		return out
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out + "[stderr]\n" + errText
}

func streamText(c Capture) string {
	if !c.Truncated {
		return c.Text
	}
	return c.Text + "\n" + truncationNotice(c.SpillPath)
}

func truncationNotice(path string) string {
	if path == "" {
		path = "(unavailable)"
	}
	return "[output truncated; full output: " + path + "]"
}

func statusMarkers(o Outcome) []string {
	var m []string
	if o.TimedOut {
		m = append(m, fmt.Sprintf("[timed out after %dms]", o.Timeout.Milliseconds()))
	}
	switch {
	case o.Signal != "":
		m = append(m, "[killed by signal: "+o.Signal+"]")
	case o.ExitCode != 0:
		m = append(m, fmt.Sprintf("[exit code: %d]", o.ExitCode))
	}
	return m
}

// statusLine is the last line of a bash_output read and of the completion
// notice. A task stopped with bash_kill reads "killed" however it then
// ended (a command that traps SIGTERM may exit 0); a task that died of a
// signal on its own names the signal.
func statusLine(running bool, killed bool, o Outcome) string {
	switch {
	case running:
		return "[status: running]"
	case killed:
		return "[status: killed]"
	case o.Signal != "":
		return "[status: killed by " + o.Signal + "]"
	default:
		return fmt.Sprintf("[status: completed, exit code: %d]", o.ExitCode)
	}
}

// lossNotice says a background read skipped bytes that only the spill files
// still hold.
func lossNotice(paths []string) string {
	where := "(unavailable)"
	if len(paths) > 0 {
		where = strings.Join(paths, ", ")
	}
	return "[some output was dropped from memory; full output: " + where + "]"
}
