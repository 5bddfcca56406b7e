package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// Rewinder is an agent that can return to an earlier turn (*agent.Agent).
type Rewinder interface {
	Rewind(ctx context.Context, req agent.RewindRequest) (agent.RewindResult, error)
	Turns() []session.TurnPoint
	Rewinds() []session.RewindPoint
}

// ActionOpenRewindPicker asks for the rewind picker overlay. Front doors
// without overlays show the result text, which lists the turns.
type ActionOpenRewindPicker struct{}

// ActionRewound says the conversation went back to before a turn: Prompt,
// that turn's prompt, goes back into the editor.
type ActionRewound struct{ Prompt string }

// ActionConfirmRewind asks the user to confirm a rewind that would lose
// the changes made outside tack to Paths; Line runs it anyway.
type ActionConfirmRewind struct {
	Paths []string
	Line  string
}

func (ActionOpenRewindPicker) isAction() {}
func (ActionRewound) isAction()          {}
func (ActionConfirmRewind) isAction()    {}

const (
	rewindUsage = "Usage: /rewind [N] [--files | --conversation] [--force]"
	undoUsage   = "Usage: /undo [--files | --conversation] [--force]"
	redoUsage   = "Usage: /redo [--files | --conversation] [--force]"
)

// RewindCommands are /rewind, /undo and /redo.
func RewindCommands() []Command {
	return []Command{
		{
			Name: "rewind", Description: "Return files and conversation to before a turn (a picker without N)",
			Input: Input{Hint: "[N] [--files|--conversation] [--force]"}, Handler: rewindHandler,
		},
		{
			Name: "undo", Description: "Rewind the last turn: its file changes and its conversation",
			Input: Input{Hint: "[--files|--conversation]"}, Handler: undoHandler,
		},
		{
			Name: "redo", Description: "Undo the last rewind, bringing back what it took back",
			Input: Input{Hint: "[--files|--conversation]"}, Handler: redoHandler,
		},
	}
}

// rewindArgs are a rewind command's parsed input.
type rewindArgs struct {
	turn                int
	files, conversation bool
	force               bool
}

// request is the agent request of the parsed flags: both unless narrowed.
func (a rewindArgs) request() agent.RewindRequest {
	r := agent.RewindRequest{Turn: a.turn, Files: true, Conversation: true, Force: a.force}
	switch {
	case a.files && !a.conversation:
		r.Conversation = false
	case a.conversation && !a.files:
		r.Files = false
	}
	return r
}

// flags renders the narrowing flags back, for a suggested command line.
func (a rewindArgs) flags() string {
	switch {
	case a.files && !a.conversation:
		return " --files"
	case a.conversation && !a.files:
		return " --conversation"
	}
	return ""
}

func parseRewind(raw string, takesTurn bool) (rewindArgs, bool) {
	var a rewindArgs
	for _, f := range strings.Fields(raw) {
		switch f {
		case "--files", "-f":
			a.files = true
		case "--conversation", "-c":
			a.conversation = true
		case "--force":
			a.force = true
		default:
			n, err := strconv.Atoi(f)
			if !takesTurn || err != nil || n <= 0 || a.turn != 0 {
				return a, false
			}
			a.turn = n
		}
	}
	return a, true
}

// rewindCall is the agent and the arguments of a /rewind, /undo or /redo
// line (takesTurn for /rewind's turn number), or the failure to show: an
// agent that cannot rewind, or the command's usage for a line that does
// not parse.
func rewindCall(inv Invocation, takesTurn bool, usage string) (Rewinder, rewindArgs, Result, bool) {
	r, ok := inv.Agent.(Rewinder)
	if !ok {
		return nil, rewindArgs{}, Failf("/%s needs an agent that can rewind.", inv.Name), false
	}
	args, ok := parseRewind(inv.RawInput, takesTurn)
	if !ok {
		return nil, rewindArgs{}, Fail(usage), false
	}
	return r, args, Result{}, true
}

func rewindHandler(ctx context.Context, inv Invocation) Result {
	r, args, fail, ok := rewindCall(inv, true, rewindUsage)
	if !ok {
		return fail
	}
	if args.turn == 0 {
		return Result{Kind: Success, Text: turnListing(r.Turns(), r.Rewinds()), Action: ActionOpenRewindPicker{}}
	}
	return runRewind(ctx, r, args, "/rewind "+strconv.Itoa(args.turn))
}

func undoHandler(ctx context.Context, inv Invocation) Result {
	r, args, fail, ok := rewindCall(inv, false, undoUsage)
	if !ok {
		return fail
	}
	turns := r.Turns()
	if len(turns) == 0 {
		return Fail("Nothing to undo: the conversation has no turn yet.")
	}
	args.turn = turns[len(turns)-1].Turn
	return runRewind(ctx, r, args, "/undo")
}

func redoHandler(ctx context.Context, inv Invocation) Result {
	r, args, fail, ok := rewindCall(inv, false, redoUsage)
	if !ok {
		return fail
	}
	req := args.request()
	req.Undo = true
	res, err := r.Rewind(ctx, req)
	if errors.Is(err, agent.ErrNothingToUndo) {
		return Fail("Nothing to redo: no rewind stands to be undone.")
	}
	if err != nil {
		return rewindFailed(err, "/redo"+args.flags())
	}
	return Succeed(rewoundText(res))
}

// runRewind asks the agent for the rewind and says what came of it; line
// is the command as typed, for the one to run after a refusal.
func runRewind(ctx context.Context, r Rewinder, args rewindArgs, line string) Result {
	res, err := r.Rewind(ctx, args.request())
	if err != nil {
		return rewindFailed(err, line+args.flags())
	}
	out := Result{Kind: Success, Text: rewoundText(res)}
	if args.request().Conversation {
		out.Action = ActionRewound{Prompt: res.Prompt}
	}
	return out
}

// rewindFailed is the refusal or failure of a rewind. One that would lose
// changes made outside tack lists them and says how to go ahead.
func rewindFailed(err error, line string) Result {
	var outside *agent.OutsideChangesError
	if !errors.As(err, &outside) {
		return Failf("Not rewound: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Not rewound: %s changed outside tack since then, and restoring would lose those changes:\n",
		plural(len(outside.Paths), "file"))
	for _, p := range outside.Paths {
		b.WriteString("  " + p + "\n")
	}
	fmt.Fprintf(&b, "Run %s --force to restore anyway (/redo puts them back), or add --conversation to leave the files as they are.", line)
	return Result{Kind: Error, Text: b.String(), Action: ActionConfirmRewind{Paths: outside.Paths, Line: line + " --force"}}
}

// rewoundText says what a rewind did.
func rewoundText(res agent.RewindResult) string {
	var b strings.Builder
	switch {
	case res.Turn > 0:
		fmt.Fprintf(&b, "Rewound to before turn %d.", res.Turn)
		if n := len(res.Rewound); n > 0 {
			fmt.Fprintf(&b, " Took back %s; %s in the log, and /redo brings %s back.",
				turnsText(res.Rewound), map[bool]string{true: "it stays", false: "they stay"}[n == 1], them(n))
		}
	default:
		b.WriteString("Undid the last rewind.")
		if len(res.Restored) > 0 {
			fmt.Fprintf(&b, " Brought back %s.", turnsText(res.Restored))
		}
		if n := len(res.Rewound); n > 0 {
			fmt.Fprintf(&b, " Took back %s, made after the rewind; %s in the log.",
				turnsText(res.Rewound), map[bool]string{true: "it stays", false: "they stay"}[n == 1])
		}
	}
	if n := len(res.Files.Written) + len(res.Files.Deleted); n > 0 {
		fmt.Fprintf(&b, "\nRestored %s:", plural(n, "file"))
		for _, p := range res.Files.Written {
			b.WriteString("\n  " + p)
		}
		for _, p := range res.Files.Deleted {
			b.WriteString("\n  " + p + " (deleted)")
		}
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(&b, "\nLeft as they are (no checkpoint holds them as they are now): %s", strings.Join(res.Kept, ", "))
	}
	if res.Note != "" {
		b.WriteString("\n" + res.Note)
	}
	return b.String()
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// turnsText names turns: "turn 3", "turns 2–3", "turns 2, 4 and 5".
func turnsText(turns []int) string {
	if len(turns) == 1 {
		return "turn " + strconv.Itoa(turns[0])
	}
	contiguous := turns[len(turns)-1]-turns[0] == len(turns)-1
	if contiguous {
		return fmt.Sprintf("turns %d–%d", turns[0], turns[len(turns)-1])
	}
	parts := make([]string, len(turns))
	for i, t := range turns {
		parts[i] = strconv.Itoa(t)
	}
	return "turns " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// turnListing is the bare /rewind text: the turns a rewind can return to,
// newest first, for front doors without a picker.
func turnListing(turns []session.TurnPoint, rewinds []session.RewindPoint) string {
	if len(turns) == 0 && len(rewinds) == 0 {
		return "Nothing to rewind yet: the conversation has no turn."
	}
	var b strings.Builder
	b.WriteString("Turns you can rewind to (/rewind N returns files and conversation to before turn N):")
	for i := len(turns) - 1; i >= 0; i-- {
		t := turns[i]
		fmt.Fprintf(&b, "\n  %3d  %s  %s", t.Turn, t.Time.UTC().Format(time.DateTime), promptLine(t.Prompt))
		if n := len(t.Changed); n > 0 {
			fmt.Fprintf(&b, "  · %s changed", plural(n, "file"))
		}
		if t.Checkpoint.ID == "" {
			b.WriteString("  · no checkpoint: conversation only")
		}
	}
	if len(rewinds) > 0 {
		b.WriteString("\n/redo undoes the last rewind.")
	}
	return b.String()
}

// promptLine is a prompt cut to one line of at most 60 characters.
func promptLine(p string) string {
	p = strings.Join(strings.Fields(p), " ")
	if r := []rune(p); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return p
}
