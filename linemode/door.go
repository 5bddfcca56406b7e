package linemode

import (
	"io"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
)

// door is line mode's state. Only the goroutine running loop touches it.
type door struct {
	o        Options
	terminal bool // stdin and stdout are a terminal
	stdout   *output
	stderr   io.Writer
	r        *Renderer
	opened   chan opening

	s        *launch.Session // nil until started
	reg      *commands.Registry
	events   chan []agent.Event
	stopPump func() // stops the pump and waits until it closed its subscription
	unmount  func()
	// seen is the sequence number of the last logged event rendered: the
	// door has shown a settled agent's work once seen reaches the seq
	// Quiet reports.
	seen int64

	// queue holds the lines read but not yet handed over, in order: typed
	// before the session started, behind a running command, or (piped)
	// behind the work a command line waits for.
	queue []string
	// cmd is the slash command running now; its result arrives on
	// commandDone.
	cmd         *runningCommand
	commandDone chan commandResult
	// early is a result that arrived while the work its command started
	// still runs (a cancelled /compact still recording its end; not a turn
	// the command started, which runs on its own): it is shown once that
	// work has ended, so its notice and the prompt come after the work's
	// own lines.
	early *commandResult

	// busy is a turn the user sees running: set by the running status or
	// a turn/start, cleared by whichever of turn/end and the idle status
	// comes first, together with the prompt that follows a turn. Ctrl+C
	// cancels while busy or while a command runs, and exits otherwise.
	busy bool
	// inTurn is a turn seen started and not yet ended; busy without it is
	// other work of the agent (a compaction).
	inTurn      bool
	stdinClosed bool
	// leaving is /exit read from piped input: like the end of input, the
	// door exits once the submitted work has run; later lines only answer
	// questions and approvals.
	leaving     bool
	interrupted bool // Ctrl+C was pressed during the running turn or command
	active      *asking
	// settled holds requests answered here that the broker may still list
	// for a moment, so they are not asked twice.
	settled map[*interact.Request]bool
}

func (d *door) input(in input) (int, bool) {
	switch {
	case in.interrupt:
		d.r.PromptRedrawn()
		return d.interrupt()
	case in.eof:
		d.stdinClosed = true
		if d.s != nil {
			d.s.Broker.FailAll(interact.ErrStdinClosed)
			d.active = nil
		}
		if d.terminal && d.s != nil && d.working() {
			// Ctrl+D while work runs: say why tack does not leave yet.
			d.r.Write("\r\x1b[K" + leavingText + "\n")
		}
	case d.active != nil:
		d.answer(in.line)
	case strings.TrimSpace(in.line) == "" || d.leaving:
	default:
		d.queue = append(d.queue, in.line)
	}
	return 0, false
}

// leavingText answers Ctrl+D at a terminal while a turn or command runs.
const leavingText = "Input ended: tack exits once the running work ends; Ctrl+C cancels it."

// queuedLines is how many read lines have not reached the agent.
func (d *door) queuedLines() int { return len(d.queue) }

// drain hands the queued lines over while it can, in order. Prompt lines go
// to the model: the lines queued together become one message, sent while
// the agent is idle and steered into the running turn otherwise (the agent
// batches what queues behind a closing turn into one next turn). Command
// lines run one at a time. Piped, a command line waits until the work
// before it has ended, as a script expects. At a terminal it runs against
// what the user sees: at once, once the screen has caught up with the
// agent (a turn that shows its end may still be recording it), and the
// registry refuses it if it needs an idle agent while a turn runs.
func (d *door) drain() {
	for len(d.queue) > 0 && d.s != nil && d.cmd == nil && !d.leaving {
		line := d.queue[0]
		if isCommandLine(line) {
			if d.terminal && d.catchingUp() || !d.terminal && !d.quiet() {
				return
			}
			d.queue = d.queue[1:]
			d.startCommand(line)
			continue
		}
		n := 1
		for n < len(d.queue) && !isCommandLine(d.queue[n]) {
			n++
		}
		d.submit(d.queue[:n])
		d.queue = d.queue[n:]
	}
}

// isCommandLine reports whether line is meant as a slash command (it
// starts with a slash; the registry owns the grammar, so the line goes as
// typed) or a shell command (`!command`). A line that starts with a space
// is a prompt even when a slash or ! follows.
func isCommandLine(line string) bool { return strings.HasPrefix(line, "/") || shellCommand(line) != "" }

// shellCommand is the command of a `!command` line, or "".
func shellCommand(line string) string {
	rest, ok := strings.CutPrefix(line, "!")
	if !ok {
		return ""
	}
	return strings.TrimSpace(rest)
}

// submit sends prompt lines to the model as one message: sent while the
// agent is idle, steered into the running turn otherwise.
func (d *door) submit(lines []string) {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = strings.TrimSpace(l)
	}
	text := strings.Join(parts, "\n\n")
	if d.s.Agent.Status() == agent.StatusRunning {
		d.s.Agent.Steer(text)
	} else {
		d.s.Agent.Send(text)
	}
}

// catchingUp reports whether the screen lags the agent: it shows a turn
// running that has ended, or none while one runs. The next event settles it.
func (d *door) catchingUp() bool {
	return d.busy != (d.s.Agent.Status() == agent.StatusRunning)
}

// quiet reports whether the agent has finished everything handed to it and
// the door has shown all of it.
func (d *door) quiet() bool {
	q, last := d.s.Agent.Quiet()
	return q && d.seen >= last
}

// eofDone reports whether stdin has ended (or /exit was piped) and nothing
// is left to wait for: no line is queued, no command runs, and every
// submitted line has reached a turn that ended and was shown. The state is
// the agent's own at this moment, not a memory of an earlier turn, so a
// line sent right after a turn settled is waited for too.
func (d *door) eofDone() bool {
	if !(d.stdinClosed || d.leaving) || d.s == nil || d.cmd != nil {
		return false
	}
	if len(d.queue) > 0 && !d.leaving {
		return false
	}
	return d.quiet()
}
