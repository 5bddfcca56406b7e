package permission

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Denial is a call that may not run. Its message is what the model reads
// after "Error: ", written so the model knows what to do next.
type Denial struct{ Message string }

func (d *Denial) Error() string { return d.Message }

// Policy names recorded in approval/decided when no person decided.
const (
	byRemembered = "remembered"
	byNoAnswerer = "no-answerer"
	byPlan       = "plan"
	byHook       = "hook"
)

// Policy authorizes the tool calls of one session. It is safe for
// concurrent use.
type Policy struct {
	broker *interact.Broker

	mu   sync.Mutex
	mode Mode
	// plan is plan mode, which sits on top of mode: leaving it restores
	// mode unchanged.
	plan bool
	// tools are allowances for the session other than commands (a tool
	// name, a tool and its scope, edits in a directory); prefixes are the
	// command prefixes allowed per tool and escalation.
	tools    map[string]bool
	prefixes map[allowKey][]string
	// sandbox confines commands, when it can; network is the [sandbox]
	// setting that lets sandboxed commands reach the network.
	sandbox Sandboxer
	network bool
	// tackHome and userHome hold files edits may not change unasked.
	tackHome, userHome string
	// dirs are more directories edits count as the workspace's
	// (--add-dir).
	dirs []string
	// rules are the settings files' permission rules; project the
	// approval the project's allow rules wait for.
	rules   Rules
	project *projectRules
	// decider answers approvals before the user is asked; nil leaves
	// them all to the user.
	decider Decider
}

// Decider answers an approval in the user's place (Claude Code's
// PermissionRequest hooks): decided false leaves it to the user, and a
// denial's reason is what the model reads.
type Decider func(ctx context.Context, a interact.Approval) (allow bool, reason string, decided bool)

// SetDecider has d answer the approvals it decides before the user is
// asked.
func (p *Policy) SetDecider(d Decider) {
	p.mu.Lock()
	p.decider = d
	p.mu.Unlock()
}

// allowKey is what a remembered command prefix allows: a tool's commands,
// left in the sandbox (escalation "") or let out of it.
type allowKey struct{ tool, escalation string }

// Sandboxer says whether commands can be confined; *sandbox.Sandbox is one.
type Sandboxer interface {
	Status() sandbox.Status
}

// SetSandbox tells the policy what confines the session's commands, and
// whether sandboxed commands may reach the network. Without a sandbox, or
// while it cannot be set up, every command the policy allows runs
// unconfined.
func (p *Policy) SetSandbox(s Sandboxer, network bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sandbox, p.network = s, network
}

// SetHomes names $TACK_HOME and $HOME, whose credentials, sessions and
// shell start-up files an edit changes only after asking, whatever the
// mode.
func (p *Policy) SetHomes(tackHome, userHome string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tackHome, p.userHome = tackHome, userHome
}

// SetDirs names more directories whose edits count as the workspace's
// (claude -p's --add-dir): they run unasked where the workspace's do.
func (p *Policy) SetDirs(dirs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirs = slices.Clone(dirs)
}

// AddDir adds dir to those directories for the rest of the session
// (/add-dir); edits there from the next call on run unasked where the
// workspace's do.
func (p *Policy) AddDir(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.Contains(p.dirs, dir) {
		p.dirs = append(slices.Clip(p.dirs), dir)
	}
}

// Dirs are the directories besides the workspace whose edits count as
// its own: --add-dir's first, then those added since.
func (p *Policy) Dirs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.dirs)
}

// Sandboxed reports whether commands run in a sandbox now: false in
// full-access mode and where no sandbox can be set up.
func (p *Policy) Sandboxed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sandboxActive() && (p.mode != FullAccess || p.plan)
}

// sandboxActive reports whether the sandbox can confine commands. Callers
// hold mu.
func (p *Policy) sandboxActive() bool { return p.sandbox != nil && p.sandbox.Status().Active }

// Label is the mode as /permissions shows it: "plan" while planning, else
// the mode's name.
func (p *Policy) Label() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plan {
		return PlanLabel
	}
	return string(p.mode)
}

// ClaudeName is the mode as Claude Code names it where its hooks and the
// Agent SDK read it (permission_mode, the init line's permissionMode):
// plan, default, acceptEdits, bypassPermissions or dontAsk, each of which
// but dontAsk --permission-mode takes back as the same mode.
func (p *Policy) ClaudeName() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plan {
		return PlanLabel
	}
	return claudeNames[p.mode]
}

// StatusLabel is the mode and the sandbox's state as the status row shows
// them: "auto · sandboxed", "plan · sandboxed", "full-access · no sandbox",
// or "auto · no sandbox" where none can be set up (every command then
// asks).
func (p *Policy) StatusLabel() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	name := string(p.mode)
	if p.plan {
		name = PlanLabel
	}
	// Full-access runs unconfined, whatever the sandbox's probe finds.
	if (p.mode != FullAccess || p.plan) && p.sandboxActive() {
		return name + LabelSep + "sandboxed"
	}
	return name + LabelSep + "no sandbox"
}

// ModeOfLabel is the mode part of a StatusLabel (or of a Label).
func ModeOfLabel(label string) string {
	mode, _, _ := strings.Cut(label, LabelSep)
	return mode
}

// LabelSep separates the mode from the sandbox's state in a Label.
const LabelSep = " · "

// NewPolicy starts a session's policy in mode, asking through broker (nil
// means nobody can answer, as in print mode).
func NewPolicy(mode Mode, broker *interact.Broker) *Policy {
	return &Policy{broker: broker, mode: mode, tools: map[string]bool{}, prefixes: map[allowKey][]string{}}
}

// Mode is the current mode.
func (p *Policy) Mode() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// SetMode switches the mode; what was allowed for the session stays allowed.
func (p *Policy) SetMode(m Mode) {
	p.mu.Lock()
	p.mode = m
	p.mu.Unlock()
}

// Plan reports whether plan mode is on.
func (p *Policy) Plan() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.plan
}

// SetPlan turns plan mode on or off and reports whether that changed it,
// so that of two callers racing to leave plan mode exactly one records the
// change. The mode underneath is kept.
func (p *Policy) SetPlan(on bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := p.plan != on
	p.plan = on
	return changed
}

type verdict int

const (
	run verdict = iota
	ask
	refuse
)

// rule is the mode table for calls that are neither commands nor edits
// (commands.go and edit.go decide those): what a mode does with an access
// kind.
func rule(m Mode, a tools.Access) verdict {
	switch a {
	case tools.AccessWebSearch:
		if m == Ask {
			return ask
		}
		return run
	case tools.AccessNetwork:
		if m == FullAccess {
			return run
		}
		return ask
	}
	return run
}

// network reports whether a reaches the web. Such calls change nothing,
// so plan mode leaves them to the mode's rule.
func network(a tools.Access) bool { return a == tools.AccessWebSearch || a == tools.AccessNetwork }

// allowanceOf is what "allow for this session" remembers for a call that is
// not a command: the tool, or the tool and its scope (web_fetch and the
// domain it reaches). In ask mode a network call is never remembered: the
// mode asks before every one.
func allowanceOf(t tools.Tool, call tools.Call, mode Mode) (key string, rememberable bool) {
	spec := t.Spec()
	key = spec.Name
	if s, ok := t.(tools.Scoped); ok {
		if scope := s.Scope(call.Args); scope != "" {
			key += " " + scope
		}
	}
	return key, !(network(spec.Access) && mode == Ask)
}

// Authorize decides whether call of t may run, and in which sandbox,
// asking the user when the mode says so. It returns the sandbox the call's
// processes get, or a *Denial whose message the agent passes to the model
// as the call's error result. User interactions always run, and reads
// too unless a rule makes them ask, without recording anything; every
// other decision is recorded through call.Env.Record: approval/asked
// before waiting for the user, approval/decided after (with Policy set
// when no person decided). The turn's disallowed tools and the deny rules
// are refused before anything else, reads included; an ask rule (must)
// asks where the mode, a remembered answer or an allow rule would run the
// call.
func (p *Policy) Authorize(ctx context.Context, t tools.Tool, call tools.Call) (tools.Sandbox, error) {
	spec := t.Spec()
	shown := tools.PresentIn(t, call.Args, cwdOf(call))
	command := commandOf(shown)
	rec := recorder{call: call, tool: spec.Name}
	sub := subjectOf(t, call, command)
	if msg, by := p.refusal(call, sub); msg != "" {
		d := &Denial{Message: msg}
		rec.decided(interact.Deny, d.Message, "", by)
		return tools.Sandbox{}, d
	}
	must := p.askRule(call, sub)
	switch spec.Access {
	case tools.AccessInteract:
		return tools.Sandbox{}, nil
	case tools.AccessRead:
		if must == "" {
			return tools.Sandbox{}, nil
		}
		a := approval(spec.Name, call, shown, "")
		a.Remember, a.Why = "", must
		_, err := p.ask(ctx, a, rec)
		return tools.Sandbox{}, err
	case tools.AccessExec:
		return p.authorizeCommand(ctx, t, call, shown, sub, must, rec)
	case tools.AccessEdit:
		return tools.Sandbox{}, p.authorizeEdit(ctx, t, call, shown, sub, must, rec)
	}
	return tools.Sandbox{}, p.authorizeOther(ctx, t, call, shown, sub, must, rec)
}

// Grant is the sandbox of an allowed call of t that asked for nothing
// more: what a command gets in the current mode.
func (p *Policy) Grant(t tools.Tool) tools.Sandbox {
	if t.Spec().Access != tools.AccessExec {
		return tools.Sandbox{}
	}
	return p.CommandSandbox()
}

// CommandSandbox is the sandbox a command gets in the current mode: none
// in full-access mode or without a sandbox, one without writes in
// read-only and plan modes (and without network while planning), else the
// default one. The user's own `!` commands run in it too.
func (p *Policy) CommandSandbox() tools.Sandbox {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.baseSandbox()
}

// baseSandbox is CommandSandbox; callers hold mu.
func (p *Policy) baseSandbox() tools.Sandbox {
	switch {
	case p.plan && p.sandboxActive():
		return tools.Sandbox{ReadOnly: true}
	case p.mode == FullAccess || !p.sandboxActive():
		return tools.Sandbox{Off: true}
	case p.mode == ReadOnly:
		return tools.Sandbox{ReadOnly: true, Network: p.network}
	}
	return tools.Sandbox{Network: p.network}
}

// authorizeOther decides the calls that are neither commands nor edits:
// web tools and tools outside tack.
func (p *Policy) authorizeOther(ctx context.Context, t tools.Tool, call tools.Call, shown card.Card, sub subject, must string, rec recorder) error {
	spec := t.Spec()
	p.mu.Lock()
	mode, planning := p.mode, p.plan
	v := rule(mode, spec.Access)
	if spec.Access == tools.AccessExternal {
		v = externalRule(mode, spec)
	}
	allowance, rememberable := allowanceOf(t, call, mode)
	remembered := rememberable && p.tools[allowance]
	p.mu.Unlock()

	if planning && !network(spec.Access) {
		return planned(spec, "", rec)
	}
	if must == "" {
		switch {
		case v == run:
			rec.decided(interact.Allow, "", "", string(mode))
			return nil
		case remembered:
			rec.decided(interact.Allow, "", allowance, byRemembered)
			return nil
		}
		if by, ok := p.allowed(ctx, call, sub); ok {
			rec.decided(interact.Allow, "", "", by)
			return nil
		}
	}
	a := approval(spec.Name, call, shown, "")
	a.Remember, a.Why = "", must
	if rememberable && must == "" {
		a.Remember = allowance
	}
	v2, err := p.ask(ctx, a, rec)
	if err == nil && v2 == interact.AllowSession {
		p.rememberTool(allowance)
	}
	return err
}

// planned refuses a call that may change things while planning, with a
// message that sends the model back to its plan, unless it is a read-only
// command or a read-only external tool. Nothing is asked, and what the user
// allowed for the session does not apply.
func planned(spec tools.Spec, command string, rec recorder) error {
	if spec.Access == tools.AccessExec && command != "" && readOnlyCommand(command) ||
		spec.Access == tools.AccessExternal && plannedExternal(spec) {
		rec.decided(interact.Allow, "", "", byPlan)
		return nil
	}
	msg := "plan mode: " + spec.Name + " is not allowed while planning. " +
		"Finish the plan and call exit_plan_mode to present it for review."
	if spec.Access == tools.AccessExec && command != "" {
		msg = `plan mode: only read-only commands run while planning; "` + firstLine(command) + `" may change things.`
	}
	d := &Denial{Message: msg}
	rec.decided(interact.Deny, d.Message, "", byPlan)
	return d
}

// commandOf is the shell command a call runs, from its terminal card.
func commandOf(c card.Card) string {
	if c.Kind == card.Terminal && c.Terminal != nil {
		return c.Terminal.Command
	}
	return ""
}

// ask puts a to the user and returns their verdict; a denial (or nobody to
// answer) is the error. Remembering an allowance is the caller's part.
func (p *Policy) ask(ctx context.Context, a interact.Approval, rec recorder) (interact.Verdict, error) {
	if p.broker == nil || !p.broker.Mounted() {
		d := &Denial{Message: "this call needs the user's approval, but nobody can answer approval requests in this session. " +
			"Do not retry it; finish what you can without it. " +
			"The user can allow such calls by running tack with --permission-mode full-access."}
		rec.decided(interact.Deny, d.Message, "", byNoAnswerer)
		return interact.Deny, d
	}
	if allow, reason, ok := p.decide(ctx, a); ok {
		if allow {
			rec.decided(interact.Allow, "", "", byHook)
			return interact.Allow, nil
		}
		msg := "a permission_request hook denied this call"
		if r := strings.TrimSpace(reason); r != "" {
			msg += ": " + r
		}
		rec.decided(interact.Deny, msg, "", byHook)
		return interact.Deny, &Denial{Message: msg}
	}
	rec.asked(a.Summary)
	decision, err := p.broker.Approve(ctx, a)
	if err != nil {
		d := &Denial{Message: approvalFailure(err)}
		rec.decided(interact.Deny, d.Message, "", "")
		return interact.Deny, d
	}
	switch decision.Verdict {
	case interact.Allow:
		rec.decided(interact.Allow, "", "", "")
		return interact.Allow, nil
	case interact.AllowSession:
		rec.decided(interact.AllowSession, "", a.Remember, "")
		return interact.AllowSession, nil
	}
	msg := "the user denied this call"
	if r := strings.TrimSpace(decision.Reason); r != "" {
		msg += ": " + r
	}
	rec.decided(interact.Deny, decision.Reason, "", "")
	return interact.Deny, &Denial{Message: msg}
}

// decide is the decider's answer to a, if it decides.
func (p *Policy) decide(ctx context.Context, a interact.Approval) (allow bool, reason string, decided bool) {
	p.mu.Lock()
	d := p.decider
	p.mu.Unlock()
	if d == nil {
		return false, "", false
	}
	return d(ctx, a)
}

func approvalFailure(err error) string {
	switch {
	case errors.Is(err, interact.ErrStdinClosed):
		return "the user cannot approve this call because stdin is closed"
	case errors.Is(err, interact.ErrNoAnswerer):
		return "this call needs the user's approval, but nobody can answer approval requests in this session. " +
			"The user can allow such calls by running tack with --permission-mode full-access."
	default:
		return "the approval request was interrupted before the user answered"
	}
}

// approval is the request shown to the user: for commands the command
// itself and the prefixes "allow for this session" would remember; for
// other tools the card (a diff for edits) and the tool name.
func approval(tool string, call tools.Call, shown card.Card, command string) interact.Approval {
	a := interact.Approval{CallID: call.ID, Tool: tool, Input: call.Args, Card: &shown}
	if command != "" {
		a.Summary = firstLine(command)
		a.Details = command
		prefixes, _ := PrefixesFor(command)
		a.Remember = strings.Join(prefixes, rememberedSep)
		return a
	}
	a.Summary = shown.Title
	if a.Summary == "" {
		a.Summary = tool
	}
	a.Details = shown.Title
	a.Remember = tool
	return a
}

// rememberTool allows an allowance other than a command for the session.
func (p *Policy) rememberTool(allowance string) {
	if allowance == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tools[allowance] = true
}

// rememberedSep joins the prefixes of one allowance, as the dialog shows
// them.
const rememberedSep = ", "

// firstLine is the first line of s, marked with " …" when more follows.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, rest, more := strings.Cut(s, "\n")
	if more && strings.TrimSpace(rest) != "" {
		return line + " …"
	}
	return line
}

// recorder writes the decision events of one call.
type recorder struct {
	call tools.Call
	tool string
}

// record appends d to the session log. A failed write is not the
// decision's business: the decision stands, and the agent reports a log it
// cannot write at its own next write.
func (r recorder) record(d session.Data) {
	if r.call.Env != nil && r.call.Env.Record != nil {
		_ = r.call.Env.Record(d)
	}
}

func (r recorder) asked(summary string) {
	r.record(session.ApprovalAsked{CallID: r.call.ID, Tool: r.tool, Summary: summary})
}

func (r recorder) decided(v interact.Verdict, reason, remember, policy string) {
	r.record(session.ApprovalDecided{CallID: r.call.ID, Tool: r.tool, Decision: string(v),
		Reason: reason, Remember: remember, Policy: policy})
}
