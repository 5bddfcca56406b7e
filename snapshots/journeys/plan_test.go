package journeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// settings are what a journey's session log does not say. They live in
// journey.json beside the log; every field is optional.
type settings struct {
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Mode is the permission mode the session starts in (tack's default, auto, when empty).
	Mode string `json:"permission_mode,omitempty"`
	// ContextWindow, when set, runs the session on smallModel, added to the
	// catalog with this window so that compaction comes early.
	ContextWindow int `json:"context_window,omitempty"`
	// Restarts are the seqs of the events after which the program and the
	// session were closed and the session resumed in a new program.
	Restarts []int64 `json:"restarts,omitempty"`
}

// smallModel is the catalog entry a journey with a ContextWindow uses.
const smallModel = "journey-small"

func (s settings) size() (int, int) {
	w, h := s.Width, s.Height
	if w == 0 {
		w = 100
	}
	if h == 0 {
		h = 40
	}
	return w, h
}

func readSettings(dir string) (settings, error) {
	var s settings
	b, err := os.ReadFile(filepath.Join(dir, "journey.json"))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		return s, fmt.Errorf("read journey settings: %w", err)
	}
	return s, nil
}

// actionKind is what the person at the terminal does.
type actionKind int

const (
	typePrompt     actionKind = iota // type a prompt while the agent is idle
	typeSteering                     // type while a model request is held
	decideApproval                   // answer the approval on screen
	answerQuestion                   // answer ask_user_question
	restartProgram                   // exit, close the session, resume it in a new program
)

// action is one thing the person does, in the order they do it.
type action struct {
	kind actionKind
	text string
	// hold is the model request (counted from 1, title requests aside)
	// kept from the server until the steering text is queued.
	hold     int
	decision interact.Decision
	tool     string // the tool an approval is for
	answers  []interact.Answer
	// key orders actions derived from a log by when they happen.
	key int64
}

// plan is everything one run needs: the model's answers in request order
// and the person's actions.
type plan struct {
	settings settings
	script   []llmtest.Response
	actions  []action
}

// holds lists the model requests that steering is typed during.
func (p plan) holds() []int {
	var out []int
	for _, a := range p.actions {
		if a.kind == typeSteering {
			out = append(out, a.hold)
		}
	}
	return out
}

// chunkRunes is the delta size replayed answers stream in.
const chunkRunes = 24

// planFromLog turns a recorded session into a plan: each model request the
// log implies (a step's answer, a failed attempt before a retry, a
// compaction summary, the failure that ended a turn) becomes the fake
// server's answer, and each prompt, steering message, decided approval and
// answered question becomes an action.
func planFromLog(events []session.Event, s settings) (plan, error) {
	p := plan{settings: s}
	requestAt := map[int]int64{} // request number → seq of the event it produced
	restarts := append([]int64(nil), s.Restarts...)
	for _, e := range events {
		request := func(r llmtest.Response) {
			p.script = append(p.script, r)
			requestAt[len(p.script)] = e.Seq
		}
		switch d := e.Data.(type) {
		case session.UserMessage:
			switch {
			case d.Kind == session.KindPrompt:
				p.actions = append(p.actions, action{kind: typePrompt, text: d.Text, key: 2 * e.Seq})
			case d.Kind == session.KindSummary && d.Replace != nil:
				request(llmtest.Reply(llmtest.Text(summaryOf(d.Text), chunkRunes)))
			}
		case session.SteeringMessage:
			n := len(p.script)
			if n == 0 {
				return p, fmt.Errorf("event %d: steering before any model request cannot be replayed", e.Seq)
			}
			p.actions = append(p.actions, action{kind: typeSteering, text: d.Text, hold: n, key: 2*requestAt[n] - 1})
		case session.AssistantMessage:
			request(reply(d))
		case session.Retry:
			if d.Failure.Status == 0 {
				return p, fmt.Errorf("event %d: a retry after a failure without an HTTP status (%s) cannot be replayed", e.Seq, d.Failure.Kind)
			}
			request(failure(d.Failure, d.DelayMs))
		case session.TurnEnd:
			if d.Reason == session.StopError && d.Error != nil {
				if d.Error.Status == 0 {
					return p, fmt.Errorf("event %d: a turn that failed without an HTTP status (%s) cannot be replayed", e.Seq, d.Error.Kind)
				}
				request(failure(*d.Error, -1))
			}
		case session.ApprovalDecided:
			if d.Policy == "" {
				p.actions = append(p.actions, action{kind: decideApproval, tool: d.Tool, key: 2 * e.Seq,
					decision: interact.Decision{Verdict: interact.Verdict(d.Decision), Reason: d.Reason}})
			}
		case session.ToolResult:
			if d.Name == "ask_user_question" && !d.IsError {
				var res struct {
					Answers []interact.Answer `json:"answers"`
				}
				if err := json.Unmarshal([]byte(d.Text), &res); err != nil {
					return p, fmt.Errorf("event %d: read the recorded answers: %w", e.Seq, err)
				}
				p.actions = append(p.actions, action{kind: answerQuestion, answers: res.Answers, key: 2 * e.Seq})
			}
		}
		for len(restarts) > 0 && restarts[0] == e.Seq {
			p.actions = append(p.actions, action{kind: restartProgram, key: 2*e.Seq + 1})
			restarts = restarts[1:]
		}
	}
	sort.SliceStable(p.actions, func(i, j int) bool { return p.actions[i].key < p.actions[j].key })
	return p, nil
}

// reply streams a recorded assistant message back: reasoning, text, tool
// calls with their ids, usage and the finish reason.
func reply(m session.AssistantMessage) llmtest.Response {
	var parts []llmtest.Part
	if m.Reasoning != "" {
		parts = append(parts, llmtest.Reasoning(m.Reasoning, chunkRunes))
	}
	if m.Text != "" {
		parts = append(parts, llmtest.Text(m.Text, chunkRunes))
	}
	for _, c := range m.ToolCalls {
		parts = append(parts, llmtest.ToolCall(c.ID, c.Name, c.Arguments, 3))
	}
	u := m.Usage
	parts = append(parts, llmtest.Usage(u.CacheRead, u.Input, u.Output, u.Reasoning), llmtest.Finish(wireFinish(m.Finish)))
	return llmtest.Reply(parts...)
}

// wireFinish is the provider's finish_reason for a recorded one.
func wireFinish(f llm.FinishReason) string {
	switch f {
	case llm.FinishToolCalls:
		return "tool_calls"
	case llm.FinishMaxTokens:
		return "length"
	case llm.FinishStop, "":
		return "stop"
	}
	return "content_filter"
}

// failure is the HTTP error that caused a recorded failure. A whole number
// of seconds of delay (delayMs ≥ 0) came from a Retry-After header, which
// is sent again so that the retry waits exactly as long.
func failure(f session.Failure, delayMs int64) llmtest.Response {
	r := llmtest.HTTPError(f.Status, providerDetail(f.Message))
	if delayMs > 0 && delayMs%1000 == 0 {
		r = r.WithHeader("Retry-After", strconv.FormatInt(delayMs/1000, 10))
	}
	return r
}

// summaryOf is the model's summary inside a recorded compaction
// checkpoint.
func summaryOf(checkpoint string) string {
	_, s, ok := strings.Cut(checkpoint, "<compacted-summary>\n")
	if !ok {
		return checkpoint
	}
	s, _, _ = strings.Cut(s, "\n</compacted-summary>")
	return s
}

// providerDetail is the provider's own message inside a failure's message,
// which tack writes as "<what to do> (<provider message>)": the last
// balanced parenthesised group at the end.
func providerDetail(msg string) string {
	if !strings.HasSuffix(msg, ")") {
		return msg
	}
	depth := 0
	for i := len(msg) - 1; i >= 0; i-- {
		switch msg[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return msg[i+1 : len(msg)-1]
			}
		}
	}
	return msg
}
