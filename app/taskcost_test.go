package app

import (
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

func TestASubagentsCostCountsInTheStatusRow(t *testing.T) {
	m, _ := newTestModel(nil)
	before := screen(m)
	m.applyLogged(session.Event{Type: "task/usage", Data: session.TaskUsage{CallID: "t1", Child: "c", Model: "deepseek-flash",
		Usage: llm.Usage{Input: 1000, Output: 100}, Cost: 0.4321}})
	if after := screen(m); !strings.Contains(after, "$0.43") || strings.Contains(before, "$0.43") {
		t.Fatalf("want the child's cost in the status row, got\n%s", after)
	}
}

func TestASideRequestsCostCountsInTheStatusRow(t *testing.T) {
	m, _ := newTestModel(nil)
	m.applyLogged(session.Event{Type: "usage/side", Data: session.SideUsage{Purpose: llm.PurposeCompaction, Model: "deepseek-flash",
		Usage: llm.Usage{Input: 1000, Output: 100}, Cost: 0.2468}})
	if after := screen(m); !strings.Contains(after, "$0.2468") {
		t.Fatalf("want the summary's cost in the status row, got\n%s", after)
	}
}

// pricedBackend serves a resumed session's history, whose steps ran on
// two models, and prices both.
type pricedBackend struct {
	*countingBackend
	history []session.Event
}

func (b pricedBackend) Model() (string, llm.Effort) { return "flash", llm.EffortHigh }
func (b pricedBackend) LookupModel(id string) (llm.Model, bool) {
	switch id {
	case "flash":
		return llm.Model{ID: id, ContextWindow: 1000, Price: llm.Price{CacheMiss: 0.5, Output: 1}}, true
	case "pro":
		return llm.Model{ID: id, ContextWindow: 1000, Price: llm.Price{CacheMiss: 2, Output: 4}}, true
	}
	return llm.Model{}, false
}
func (b pricedBackend) Subscribe() (agent.Snapshot, Subscription) {
	p := session.NewProjection(session.Header{ID: "s-1"})
	for _, e := range b.history {
		p.Apply(e)
	}
	return agent.Snapshot{Projection: p}, b.countingBackend
}

// A resumed session's status row shows what all of it cost, each part
// at its own model's price: the steps it made on another model, its
// subagents' and its side requests, as /status counts them.
func TestAResumedSessionsCostCountsEveryModelAndSubagent(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	million := llm.Usage{Input: 1_000_000}
	be := pricedBackend{countingBackend: &countingBackend{}, history: []session.Event{
		{Seq: 1, Time: at, Data: session.StepStart{Turn: 1, Step: 1, Model: "pro"}},
		{Seq: 2, Time: at, Data: session.AssistantMessage{Turn: 1, Step: 1, Text: "a", Usage: million}}, // $2
		{Seq: 3, Time: at, Data: session.TaskUsage{CallID: "t1", Child: "c", Model: "flash", Usage: million, Cost: 0.5}},
		{Seq: 4, Time: at, Data: session.SideUsage{Purpose: llm.PurposeTitle, Model: "flash", Usage: million, Cost: 0.5}},
	}}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	m.Update(subscription(be))
	if got := screen(m); !strings.Contains(got, "$3.00") {
		t.Fatalf("want $3.00 in the status row (the pro step's $2, the subagent's and the title's $0.50 each), got\n%s", got)
	}
}
