package transcript

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/theme"
)

type kind uint8

const (
	kindUser kind = iota
	kindSteering
	kindContext
	kindAssistant
	kindTool
	kindNotice
	kindTiming
	kindCompaction
)

// block is one unit of the transcript: a message, a step, a tool card or a
// notice. Its rendered lines are cached under key.
type block struct {
	kind     kind
	version  int
	finished bool

	turn, step int
	text       string // message text, notice text, answer of a step
	reasoning  string
	origin     string // who injected a context message
	tone       NoticeKind
	setting    string          // the setting a notice reports the value of
	calls      []streamingCall // tool calls announced while the step streams
	thinking   time.Duration   // how long a step's reasoning took, from its timing
	tool       cards.Tool
	// started is when a tool call began to run, its approval given;
	// waiting says it waits for one, which is the user's time, not its.
	started time.Time
	waiting bool

	answerStream, reasoningStream streamed

	// sourceRows and sourceCols summarise the text for height estimates.
	sourceRows, sourceCols int

	cached bool
	key    renderKey
	lines  []string
}

// streamingCall is a tool call whose arguments are still arriving.
type streamingCall struct {
	index int
	name  string
}

// renderKey is what a block's rendering depends on. Settings that do not
// affect a kind are left zero, so changing them keeps its cache.
type renderKey struct {
	version   int
	width     int
	colour    bool
	bg        theme.Background
	cards     cards.Mode
	reasoning bool
	hidden    bool // reasoning hidden when folded
}

// keyFor is the key block i renders under with the current settings.
func (t *Transcript) keyFor(i int) renderKey {
	b := t.blocks[i]
	k := renderKey{version: b.version, width: t.set.Width, colour: t.set.Colour, bg: t.set.Background}
	switch b.kind {
	case kindTool, kindContext:
		k.cards = t.set.Cards
	case kindAssistant:
		k.reasoning, k.hidden = t.set.Reasoning, t.set.HideReasoning
	}
	return k
}

// measure records the size of the block's source text.
func (b *block) measure() {
	rows, cols := 0, 0
	for _, s := range []string{b.text, b.reasoning, b.tool.Output} {
		if s == "" {
			continue
		}
		rows += strings.Count(s, "\n") + 1
		cols += utf8.RuneCountInString(s)
	}
	if b.kind == kindTool {
		rows += 4 + len(b.tool.Call.Diffs)*2
		if b.tool.Result != nil {
			r := b.tool.Result
			rows += len(r.Diffs)*2 + len(r.Todos)
			if r.Terminal != nil {
				rows += strings.Count(r.Terminal.Output, "\n")
			}
			rows += strings.Count(r.Body, "\n")
		}
	}
	b.sourceRows, b.sourceCols = rows, cols
}

// estimate guesses the rendered height of a block without rendering it.
func (t *Transcript) estimate(b *block) int {
	w := t.set.Width
	if w < 1 {
		w = 1
	}
	switch {
	case b.kind == kindTool && t.set.Cards == cards.Hidden:
		return 0
	case b.kind == kindTool && t.set.Cards == cards.Collapsed:
		return min(b.sourceRows, cards.PreviewRows+5) + 1
	}
	return 2 + b.sourceRows + b.sourceCols/w
}

// visibleBody reports whether an assistant step has anything to show.
func (b *block) visibleBody() bool {
	return strings.TrimSpace(b.text) != "" || strings.TrimSpace(b.reasoning) != "" || len(b.calls) > 0
}
