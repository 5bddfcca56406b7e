package linemode

import (
	"slices"

	"github.com/tack-agent/tack/backend/interact"
)

// asking is the request whose prompt is on screen.
type asking struct {
	req     *interact.Request
	index   int // the question being asked
	answers []interact.Answer
}

// showRequest puts the oldest pending question or approval on screen once
// the tool call that asks it has been rendered, and drops a request that was
// settled elsewhere (the turn was cancelled).
func (d *door) showRequest() {
	if d.s == nil {
		return
	}
	all := d.s.Broker.Pending()
	for r := range d.settled {
		if !slices.Contains(all, r) {
			delete(d.settled, r)
		}
	}
	pending := slices.DeleteFunc(all, func(r *interact.Request) bool { return d.settled[r] })
	if d.active != nil && !slices.Contains(pending, d.active.req) {
		d.active = nil
		d.r.Write("\n")
	}
	if d.active != nil || len(pending) == 0 || d.r.OpenCalls() == 0 {
		return
	}
	d.active = &asking{req: pending[0]}
	d.prompt()
}

func (d *door) settle(r *interact.Request) {
	d.active = nil
	if d.settled == nil {
		d.settled = map[*interact.Request]bool{}
	}
	d.settled[r] = true
}

func (d *door) prompt() {
	a := d.active
	if a.req.Approval != nil {
		d.r.Write(ApprovalPrompt(*a.req.Approval, d.s.Cwd))
		return
	}
	d.r.Write(QuestionPrompt(a.req.Questions[a.index]))
}

// answer reads line as the answer to the request on screen, re-asking when
// it is not one.
func (d *door) answer(line string) {
	a := d.active
	if a.req.Approval != nil {
		dec, reask, ok := ParseDecision(*a.req.Approval, line)
		if !ok {
			d.r.Write(reask + "\n" + Prompt)
			return
		}
		d.settle(a.req)
		a.req.Decide(dec)
		d.showRequest()
		return
	}
	ans, reask, ok := ParseAnswer(a.req.Questions[a.index], line)
	if !ok {
		d.r.Write(reask + "\n" + Prompt)
		return
	}
	a.answers = append(a.answers, ans)
	a.index++
	if a.index < len(a.req.Questions) {
		d.prompt()
		return
	}
	d.settle(a.req)
	a.req.Answer(a.answers)
	d.r.Write("\n")
	d.showRequest()
}
