package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Compaction settings.
const (
	defaultCompactAt = 0.8  // share of the window that triggers compaction
	retainShare      = 0.16 // share of the window kept verbatim
	// manualRetainTokens bounds what /compact keeps verbatim: asked for,
	// a compaction frees most of the context even of a model whose
	// window's share would keep the whole conversation.
	manualRetainTokens = 4096
	charsPerToken      = 4
	summaryMaxTokens   = 8192
)

// ErrNothingToCompact means the history is too short to summarise.
var ErrNothingToCompact = errors.New("no compactable history yet")

// summaryInstruction is appended to the replayed conversation; the request
// otherwise matches a step's, so the provider's prompt cache serves it.
const summaryInstruction = `Summarise the conversation so far so that it can replace the earlier history. Write in English, in Markdown, with exactly these sections:

## Request and Intent
## Key Concepts
## Files and Code
## Errors and Fixes
## Pending Work
## Current Work
## Next Step

Keep file paths, names, commands, decisions and the user's exact requirements. Do not call tools.`

const summaryPreamble = "This is an automatically generated checkpoint condensing an earlier span of the conversation. Continue the work from it.\n\n"

// CompactResult says what a compaction did.
type CompactResult struct {
	Items  int // surface messages summarised
	Tokens int // estimated tokens they held
}

// Compact summarises the history now but for its last few thousand
// tokens, following instructions ("" for none) as Claude Code's
// "/compact <instructions>" does. It waits for the agent to be
// idle-admitted: prompts sent meanwhile run after it. Ending ctx or
// calling Cancel stops the summary request and leaves history untouched.
func (a *Agent) Compact(ctx context.Context, instructions string) (CompactResult, error) {
	var res CompactResult
	var err error
	busy := "compaction needs an idle agent; wait for the turn to finish or cancel it"
	job := func(ctx context.Context) { res, err = a.compact(ctx, a.turn(), CompactManual, instructions) }
	if jerr := a.idleJob(ctx, busy, job); jerr != nil {
		return CompactResult{}, jerr
	}
	return res, err
}

// CompactThreshold is the size of the conversation, in tokens, at which
// model's history is compacted before a step; 0 when the model has no
// context window, and nothing is compacted.
func (a *Agent) CompactThreshold(model string) int {
	m, _ := a.cfg.Catalog.Lookup(model)
	if m.ContextWindow <= 0 {
		return 0
	}
	at := a.cfg.CompactAt
	if at <= 0 {
		at = defaultCompactAt
	}
	return int(math.Ceil(at * float64(m.ContextWindow)))
}

// shouldCompact reports whether the context has reached the threshold.
func (a *Agent) shouldCompact(model string) bool {
	limit := a.CompactThreshold(model)
	if limit == 0 {
		return false
	}
	a.logMu.Lock()
	used := a.proj.ContextTokens()
	a.logMu.Unlock()
	return used >= limit
}

// compact summarises everything but the recent tail and records the summary
// as a replacement on the surface, bracketed by compact/start and
// compact/end; the pre_compact hooks run first (trigger says why, and
// they read the user's instructions too). On failure the history is left
// untouched. A history too short to summarise records nothing.
func (a *Agent) compact(ctx context.Context, turn int, trigger, instructions string) (CompactResult, error) {
	p, err := a.planCompaction(trigger)
	if err != nil {
		return CompactResult{}, err
	}
	if p.cut == 0 {
		return CompactResult{}, ErrNothingToCompact
	}
	a.publish(PhaseChanged{Phase: PhaseCompacting})
	defer a.publish(PhaseChanged{Phase: PhaseIdle})
	a.record(session.CompactStart{Turn: turn})
	p.instructions = strings.TrimSpace(instructions + "\n" + a.compactHook(ctx, turn, trigger, instructions))
	res, summary, err := a.summarise(ctx, p)
	end := session.CompactEnd{Items: res.Items, Tokens: res.Tokens}
	if err != nil {
		end.Error = err.Error()
	}
	a.record(end)
	_ = a.sync()
	if err == nil {
		a.compactedHook(ctx, turn, trigger, summary)
	}
	return res, err
}

// compaction is what a compaction would summarise: the model's surface,
// the log seqs of its items, and the index of the first item kept.
type compaction struct {
	model   string
	surface []llm.Message
	seqs    []int64
	cut     int
	// instructions are more for the summary (the user's and what
	// pre_compact hooks said); "" for none.
	instructions string
}

// planCompaction is what a compaction for trigger would summarise.
func (a *Agent) planCompaction(trigger string) (compaction, error) {
	model, _ := a.Model()
	m, _ := a.cfg.Catalog.Lookup(model)
	retain := int(retainShare * float64(m.ContextWindow))
	if trigger == CompactManual {
		retain = min(retain, manualRetainTokens)
	}
	a.logMu.Lock()
	surface, err := a.proj.Surface(a.cfg.Log)
	seqs := a.proj.SurfaceSeqs()
	a.logMu.Unlock()
	if err != nil {
		return compaction{}, err
	}
	cut := cutPoint(surface, retain*charsPerToken)
	return compaction{model: model, surface: surface, seqs: seqs, cut: cut}, nil
}

// summarise asks the model for the summary of p and records it; it
// returns the summary too.
func (a *Agent) summarise(ctx context.Context, p compaction) (CompactResult, string, error) {
	model, surface, seqs, cut := p.model, p.surface, p.seqs, p.cut
	req, err := a.buildRequest(model, llm.EffortOff)
	if err != nil {
		return CompactResult{}, "", err
	}
	req.Purpose = llm.PurposeCompaction
	req.MaxTokens = summaryMaxTokens
	instruction := summaryInstruction
	if p.instructions != "" {
		instruction += "\n\nAlso follow these instructions for the summary:\n" + p.instructions
	}
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: instruction})
	answer, err := a.Aside(ctx, req)
	if le := (*llm.Error)(nil); errors.As(err, &le) && fitOutput(&req, le) {
		answer, err = a.Aside(ctx, req)
	}
	if err != nil {
		return CompactResult{}, "", fmt.Errorf("summary request: %w", err)
	}
	summary := strings.TrimSpace(answer.Content)
	if summary == "" {
		return CompactResult{}, "", errors.New("the model returned an empty summary")
	}
	res := CompactResult{Items: cut, Tokens: textBytes(surface[:cut]) / charsPerToken}
	_, err = a.record(session.UserMessage{
		Turn: a.turn(), Kind: session.KindSummary,
		Text:    summaryPreamble + "<compacted-summary>\n" + summary + "\n</compacted-summary>",
		Replace: &session.Span{Start: seqs[0], End: seqs[cut-1]},
	})
	return res, summary, err
}

// cutPoint is the index of the first message kept verbatim: the tail holds
// about retainChars, and the cut never separates a tool result from the
// call that asked for it. 0 means there is nothing to summarise.
func cutPoint(msgs []llm.Message, retainChars int) int {
	kept := 0
	cut := len(msgs)
	for cut > 0 && kept+messageChars(msgs[cut-1]) <= retainChars {
		cut--
		kept += messageChars(msgs[cut])
	}
	for cut < len(msgs) && msgs[cut].Role == llm.RoleTool {
		cut++ // a result whose call is summarised goes with it
	}
	if cut >= len(msgs) {
		cut = len(msgs) - 1 // keep at least the latest message
	}
	for cut > 0 && msgs[cut].Role == llm.RoleTool {
		cut--
	}
	if cut < 0 {
		return 0
	}
	return cut
}

func messageChars(m llm.Message) int {
	n := len(m.Content) + len(m.Reasoning)
	for _, c := range m.ToolCalls {
		n += len(c.Name) + len(c.Arguments)
	}
	return n
}

func textBytes(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += messageChars(m)
	}
	return n
}
