package permission

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/tools"
)

// Commands run in the sandbox; the question to the user is about leaving
// it. A command that asks for nothing more runs without asking in auto and
// read-only modes (in a sandbox that writes nothing in read-only), asks in
// ask mode, and runs unconfined in full-access. A command that asks to
// leave the sandbox (network, or outside it altogether) asks in every mode
// but full-access, unless the user allowed that prefix with that escalation
// for the session; while planning, commands run only when read-only by the
// parser, in a sandbox without writes or network, and none may leave it.
// Where no sandbox can be set up, every command asks, in every mode but
// full-access, and runs unconfined once approved.

// authorizeCommand decides a call of a command tool.
func (p *Policy) authorizeCommand(ctx context.Context, t tools.Tool, call tools.Call, shown card.Card, sub subject, must string, rec recorder) (tools.Sandbox, error) {
	spec := t.Spec()
	command := sub.command
	esc := escalationOf(t, call.Args)
	p.mu.Lock()
	mode, planning, active, base := p.mode, p.plan, p.sandboxActive(), p.baseSandbox()
	p.mu.Unlock()

	switch {
	case planning && esc.Kind != "":
		d := &Denial{Message: "plan mode: commands run in a sandbox without writes or network while planning, " +
			"and none may leave it. Finish the plan and call exit_plan_mode; run it after the user approves the plan."}
		rec.decided(interact.Deny, d.Message, "", byPlan)
		return tools.Sandbox{}, d
	case planning && active:
		return base, planned(spec, command, rec)
	case planning:
		if err := planned(spec, command, recorder{}); err != nil {
			rec.decided(interact.Deny, err.Error(), "", byPlan)
			return tools.Sandbox{}, err
		}
		return p.askCommand(ctx, t, call, shown, sub, "", tools.Escalation{Kind: tools.EscalateOutside}, tools.Sandbox{Off: true}, rec)
	case mode == FullAccess && must == "":
		rec.decided(interact.Allow, "", "", string(mode))
		return tools.Sandbox{Off: true}, nil
	case mode == FullAccess:
		return p.askCommand(ctx, t, call, shown, sub, must, esc, tools.Sandbox{Off: true}, rec)
	case !active:
		return p.askCommand(ctx, t, call, shown, sub, must, tools.Escalation{Kind: tools.EscalateOutside}, tools.Sandbox{Off: true}, rec)
	case esc.Kind == "" && mode != Ask && must == "":
		rec.decided(interact.Allow, "", "", string(mode))
		return base, nil
	}
	return p.askCommand(ctx, t, call, shown, sub, must, esc, escalated(base, esc.Kind), rec)
}

// Escalate asks the user to run call's command again outside what the
// sandbox allowed it, after the sandbox refused it something (kind e.Kind,
// e.Justification saying what). It returns the sandbox to rerun it in, or a
// *Denial: while planning, when the user says no, or when nobody can
// answer. A prefix remembered with that escalation answers without asking.
func (p *Policy) Escalate(ctx context.Context, t tools.Tool, call tools.Call, e tools.Escalation) (tools.Sandbox, error) {
	spec := t.Spec()
	shown := t.Present(call.Args)
	command := commandOf(shown)
	rec := recorder{call: call, tool: spec.Name}
	p.mu.Lock()
	planning, base := p.plan, p.baseSandbox()
	p.mu.Unlock()
	if planning {
		d := &Denial{Message: "plan mode: the sandbox stays closed while planning"}
		rec.decided(interact.Deny, d.Message, "", byPlan)
		return tools.Sandbox{}, d
	}
	if base.Off {
		return base, nil
	}
	return p.askCommand(ctx, t, call, shown, subjectOf(t, call, command), "", e, escalated(base, e.Kind), rec)
}

// askCommand lets a command run in grant, which leaves the sandbox as esc
// says (or, with esc empty, is the sandbox of ask mode): without asking
// when a remembered prefix or an allowed tool or rule covers it, unless an
// ask rule (must) says to ask; else once the user approves.
func (p *Policy) askCommand(ctx context.Context, t tools.Tool, call tools.Call, shown card.Card, sub subject, must string,
	esc tools.Escalation, grant tools.Sandbox, rec recorder) (tools.Sandbox, error) {
	tool, command := t.Spec().Name, sub.command
	key := allowKey{tool: tool, escalation: esc.Kind}
	p.mu.Lock()
	prefixes := slices.Clone(p.prefixes[key])
	p.mu.Unlock()
	if must == "" {
		if covered(command, prefixes) {
			rec.decided(interact.Allow, "", strings.Join(prefixes, rememberedSep), byRemembered)
			return grant, nil
		}
		if by, ok := p.allowed(ctx, call, sub); ok {
			rec.decided(interact.Allow, "", "", by)
			return grant, nil
		}
	}
	a := approval(tool, call, shown, command)
	a.Why, a.Confined = why(esc, grant)
	if must != "" {
		a.Remember, a.Why, a.Confined = "", must+" "+a.Why, false
	}
	verdict, err := p.ask(ctx, a, rec)
	if err != nil {
		return tools.Sandbox{}, err
	}
	if verdict == interact.AllowSession && a.Remember != "" {
		p.mu.Lock()
		for _, prefix := range strings.Split(a.Remember, rememberedSep) {
			if !slices.Contains(p.prefixes[key], prefix) {
				p.prefixes[key] = append(p.prefixes[key], prefix)
			}
		}
		p.mu.Unlock()
	}
	return grant, nil
}

// why is the line the approval shows above the command: what it leaves
// the sandbox for, and the model's reason; confined when it leaves
// nothing and the line only says so.
func why(esc tools.Escalation, grant tools.Sandbox) (text string, confined bool) {
	var what string
	switch {
	case grant.Off && esc.Justification == "":
		what = "No sandbox: this command runs with your full permissions."
	case grant.Off:
		what = "Wants to run outside the sandbox (it can change or read anything you can)"
	case esc.Kind == tools.EscalateNetwork:
		what = "Wants network access from the sandbox"
	default:
		return "Runs in the sandbox.", true
	}
	if j := strings.TrimSpace(esc.Justification); j != "" {
		what += ": " + firstLine(j)
	}
	return what, false
}

// escalated is base let out as kind says.
func escalated(base tools.Sandbox, kind string) tools.Sandbox {
	switch kind {
	case tools.EscalateOutside:
		return tools.Sandbox{Off: true}
	case tools.EscalateNetwork:
		base.Network = true
	}
	return base
}

// escalationOf is what call of t asks for beyond the sandbox.
func escalationOf(t tools.Tool, args json.RawMessage) tools.Escalation {
	if e, ok := t.(tools.Escalating); ok {
		return e.Escalation(args)
	}
	return tools.Escalation{}
}
