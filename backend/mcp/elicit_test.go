package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
)

// formAnswers is what the user answers to the everything server's form
// (trigger-elicitation-request), by field: a choice's label, a typed
// text, or the word that leaves an optional field out.
var formAnswers = userAnswers{
	"name": {custom: "Ada Lovelace"}, "check": {selected: []string{"Yes"}}, "firstLine": {custom: elicit.SkipWord},
	"email": {custom: "ada@example.com"}, "homepage": {custom: "https://example.com/ada"},
	"birthdate": {custom: "1815-12-10"}, "integer": {custom: "7"}, "number": {custom: "2.5"},
	"untitledSingleSelectEnum":   {selected: []string{"Joey"}},
	"untitledMultipleSelectEnum": {selected: []string{"Piano", "Violin"}},
	"titledSingleSelectEnum":     {selected: []string{"Wonder Woman"}},
	"titledMultipleSelectEnum":   {selected: []string{"Salmon"}},
	"legacyTitledEnum":           {selected: []string{"Dogs"}},
}

type userAnswers map[string]struct {
	selected []string
	custom   string
}

func (u userAnswers) Ask(_ context.Context, qs []interact.Question) ([]interact.Answer, error) {
	a := u[qs[0].ID]
	return []interact.Answer{{ID: qs[0].ID, Selected: a.selected, Custom: a.custom}}, nil
}

func (u userAnswers) ask(ctx context.Context, r elicit.Request) elicit.Result {
	return elicit.Ask(ctx, u, r)
}

// elicitationScenario calls the everything server's tool that asks the
// user to fill in a form of every kind of field, and checks that the
// server took the answer: its result echoes the content it received, the
// values of the types its schema names (the integer a JSON integer, the
// choices their values, not their labels), and the default of the field
// left out.
func elicitationScenario(t *testing.T, s *realSession) {
	t.Helper()
	res := s.call(t, "trigger-elicitation-request", "{}")
	for _, want := range []string{
		"✅ User provided the requested information!", `"name": "Ada Lovelace"`, `"check": true`,
		`"firstLine": "It was a dark and stormy night."`, `"email": "ada@example.com"`,
		`"homepage": "https://example.com/ada"`, `"birthdate": "1815-12-10"`, `"integer": 7,`, `"number": 2.5`,
		`"untitledSingleSelectEnum": "Joey"`, `"Piano",`, `"Violin"`, `"titledSingleSelectEnum": "hero-3"`,
		`"fish-2"`, `"legacyTitledEnum": "pet-2"`,
	} {
		if res.IsError || !strings.Contains(res.Text, want) {
			t.Errorf("trigger-elicitation-request answered %+v, want a result with %q", res, want)
			return
		}
	}
}

// TestRecordedElicitation replays the everything server taking the
// user's answer to its form: what tack answers now must be what the real
// server accepted when it was recorded.
func TestRecordedElicitation(t *testing.T) {
	srv, log := elicitedBy.replayed(t)
	elicitationScenario(t, startAnswering(t, srv, freeWorkspace(t), formAnswers.ask))
	accepted, answered := replayedAnswers(t, elicitedBy, log)
	if len(accepted) != 1 || !reflect.DeepEqual(answered, accepted) {
		t.Errorf("tack answered the form with %v, want what the real server accepted: %v", answered, accepted)
	}
}

// replayedAnswers are the answers to elicitation requests in r's
// recording (the real server took them) and in the log of what tack's
// client sent its replay.
func replayedAnswers(t *testing.T, r realServer, log string) (recorded, sent []any) {
	t.Helper()
	exchanges, err := mcptest.ReadRecording(r.recording)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	return elicitAnswers(t, exchanges), elicitAnswers(t, lines(data))
}

func lines(data []byte) []mcptest.Exchange {
	var out []mcptest.Exchange
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		out = append(out, mcptest.Exchange{Dir: "c2s", Msg: l})
	}
	return out
}

// elicitAnswers are the client's answers to elicitation requests among
// the messages, decoded.
func elicitAnswers(t *testing.T, msgs []mcptest.Exchange) []any {
	t.Helper()
	var out []any
	for _, e := range msgs {
		var m struct {
			Result map[string]any `json:"result"`
		}
		if e.Dir != "c2s" || json.Unmarshal(e.Msg, &m) != nil || m.Result["action"] == nil {
			continue
		}
		out = append(out, m.Result)
	}
	return out
}
