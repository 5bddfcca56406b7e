package hooks

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/frontmatter"
)

// Prompt is a prompt hook, Claude Code's "type": "prompt": a model judges
// the hook's input by Text and answers whether its condition is met. Not
// met, it blocks: a stop or subagent_stop hook keeps the agent going with
// the reason, any other blocks as a command's {"continue": false} would.
// With Agent set it is an agent hook, Claude Code's "type": "agent": a
// subagent that may look at the workspace with read-only tools answers
// in place of one model call, and its answer is read the same way.
type Prompt struct {
	Text string
	// Model is the model asked; "" asks the session's (as one of
	// Claude's names does, which tack's providers do not serve).
	Model string
	// Agent makes it an agent hook: Options.Verify answers it.
	Agent bool
}

// PromptTimeout bounds a prompt hook that names no timeout, and
// AgentTimeout an agent hook, as in Claude Code.
const (
	PromptTimeout = 30 * time.Second
	AgentTimeout  = 60 * time.Second
)

// Judge asks a model, model ("" for the session's), the question user
// under the instructions system, and returns the text of its answer.
type Judge func(ctx context.Context, model, system, user string) (string, error)

// judgeSystem tells the model asked by a prompt hook how to answer; it
// is Claude Code's instruction to its own judge.
const judgeSystem = `You are evaluating a hook condition in a coding agent's session. Judge whether the user-provided condition is met, from the hook input it gives. Your response must be a JSON object with one of these shapes: {"ok": true, "reason": ""} or {"ok": false, "reason": "why it is not met"}. Always include a "reason" field, and answer with the JSON object alone.`

// newPrompt is the prompt or agent hook (by its type) that h configures,
// and its timeout when h names none.
func newPrompt(h config.HookHandler) (*Prompt, time.Duration, error) {
	agent := h.Type == "agent"
	if strings.TrimSpace(h.Prompt) == "" && agent {
		return nil, 0, fmt.Errorf("an agent hook without a prompt")
	}
	if strings.TrimSpace(h.Prompt) == "" {
		return nil, 0, fmt.Errorf("a prompt hook without a prompt")
	}
	model := strings.TrimSpace(h.Model)
	if frontmatter.ClaudeModel(model) {
		model = ""
	}
	p := &Prompt{Text: h.Prompt, Model: model, Agent: agent}
	if agent {
		return p, AgentTimeout, nil
	}
	return p, PromptTimeout, nil
}

// verifierSystem tells the subagent of an agent hook how to work and
// answer, as Claude Code tells its own.
const verifierSystem = `You are verifying a hook condition in a coding agent's session. Use the read-only tools to inspect the workspace (the hook input's transcript_path is the session's conversation, should you need it), in as few steps as you can. Then answer with one of these JSON objects alone: {"ok": true, "reason": ""} when the condition is met, or {"ok": false, "reason": "why it is not met"}.`

// judges answer the prompt hooks (prompt: one model call) and the agent
// hooks (agent: a subagent with read-only tools).
type judges struct{ prompt, agent Judge }

// caller is the call that asks j about a hook of event with its input,
// and answers as a command hook would print.
func (p *Prompt) caller(event Event, j judges) func(context.Context, []byte) ([]byte, error) {
	judge, system, kind := j.prompt, judgeSystem, "prompt"
	if p.Agent {
		judge, system, kind = j.agent, verifierSystem, "agent"
	}
	return func(ctx context.Context, input []byte) ([]byte, error) {
		if judge == nil {
			return nil, fmt.Errorf("this session has no model to answer %s hooks", kind)
		}
		user := p.Text
		if strings.Contains(user, "$ARGUMENTS") {
			user = strings.ReplaceAll(user, "$ARGUMENTS", string(input))
		} else {
			user += "\n\n" + string(input)
		}
		answer, err := judge(ctx, p.Model, system, user)
		if err != nil {
			return nil, fmt.Errorf("the model could not judge: %w", err)
		}
		ok, reason, err := verdict(answer)
		if err != nil {
			return nil, err
		}
		switch {
		case ok:
			return []byte("{}"), nil
		case event == Stop || event == SubagentStop:
			return json.Marshal(Answer{Decision: "block", Reason: reason})
		default:
			stop := false
			return json.Marshal(Answer{Continue: &stop, StopReason: reason})
		}
	}
}

// verdict reads a judge's answer: the JSON object in it (models wrap it
// in a code fence or a sentence now and then), its ok, and its reason.
func verdict(answer string) (ok bool, reason string, err error) {
	start, end := strings.IndexByte(answer, '{'), strings.LastIndexByte(answer, '}')
	var v struct {
		OK     *bool  `json:"ok"`
		Reason string `json:"reason"`
	}
	if start < 0 || end < start || json.Unmarshal([]byte(answer[start:end+1]), &v) != nil || v.OK == nil {
		return false, "", fmt.Errorf("the model answered no {\"ok\": …} object: %q", clip(answer, 200))
	}
	return *v.OK, cmp.Or(strings.TrimSpace(v.Reason), "the prompt hook's condition is not met"), nil
}

// clip is s cut to at most n bytes, marked when cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
