// Package transcript is the scrollable record of the conversation: blocks
// built incrementally from session events and live agent events, rendered
// to lines with a per-block cache, and a viewport that renders only what is
// visible.
//
// Cost model. Every block carries a version, bumped on each change, and a
// finished flag. Rendered lines are cached per block under a key of
// (version, width, the display settings that block depends on); a finished
// block therefore renders once per width and setting, and while a step
// streams only its block re-renders (the app throttles that to the frame
// rate). Block heights live in a Fenwick tree, so finding the block at a
// row, and updating one height, is O(log n); View and Render walk only the
// blocks on screen.
//
// Lazy layout. A block that has never been rendered under the current key
// has an estimated height (source lines plus source width divided by the
// width). Resizing or changing a setting re-estimates every stale block in
// one O(n) pass without rendering any of them; blocks are rendered, and
// their exact heights recorded, only as they become visible. Lines() is
// therefore exact for every block seen at the current width and an
// estimate for the rest; a bottom-anchored View is exact at the bottom, and
// scroll positions far from anything seen may shift a little as estimates
// become exact.
package transcript

import (
	"slices"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/markdown"
	"github.com/tack-agent/tack/views/theme"
)

// Settings are the display choices that change how blocks render.
type Settings struct {
	Width int
	// Cards is how tool cards show: collapsed, expanded or hidden.
	Cards cards.Mode
	// Reasoning shows the model's thinking above its answer.
	Reasoning bool
	// HideReasoning leaves folded reasoning out altogether, the one
	// "Thought for 4s" line included (--no-reasoning); shown reasoning
	// shows all the same.
	HideReasoning bool
	// Colour paints the palette; off leaves attributes only.
	Colour bool
	// Background is the terminal's, for colours that read on it.
	Background theme.Background
	// Dir is the working directory, which links to files in the
	// answers start from (markdown.Options.Dir).
	Dir string
}

// NoticeKind is the tone of a notice.
type NoticeKind int

const (
	NoticeInfo NoticeKind = iota
	NoticeDim
	NoticeWarning
	NoticeError
)

// Transcript holds the blocks of one conversation view. It is not safe for
// concurrent use; the app owns it and calls it from Update and View.
type Transcript struct {
	set    Settings
	th     theme.Theme
	md     *markdown.Renderer
	mdDim  *markdown.Renderer
	blocks []*block
	h      heights
	// tools maps a call id to the block of its card.
	tools map[string]int
	// steps maps (turn, step) to the block of that assistant step.
	steps map[[2]int]int
	// open lists the assistant blocks not yet settled, closed at turn end.
	open []int
	// unmeasured lists the blocks added or changed since the last View or
	// Measure, whose heights may be estimates.
	unmeasured []int
	// checkpoint is the latest checkpoint, which decides what the next
	// one has to say.
	checkpoint session.Checkpoint
	// worked sums the timing of the steps of the turn under way.
	worked turnTime
	// numbering counts the times the blocks were numbered anew (Clear,
	// Prepend), which a Place tells.
	numbering int
}

// turnTime is the time a turn's steps took so far.
type turnTime struct {
	turn int
	session.StepTiming
}

// New returns an empty transcript with the given settings.
func New(s Settings) *Transcript {
	t := &Transcript{tools: map[string]int{}, steps: map[[2]int]int{}}
	t.set = s
	t.palette()
	return t
}

func (t *Transcript) palette() {
	t.th = theme.NewOn(t.set.Background, t.set.Colour)
	t.md = markdown.New(markdown.Options{Colour: t.set.Colour, Background: t.set.Background, Dir: t.set.Dir})
	t.mdDim = markdown.New(markdown.Options{Colour: t.set.Colour, Dim: true, Background: t.set.Background, Dir: t.set.Dir})
}

// Settings returns the current display settings.
func (t *Transcript) Settings() Settings { return t.set }

// SetSettings changes the display settings. Nothing is rendered here:
// blocks whose look depends on a changed setting get an estimated height
// and re-render when they next become visible.
func (t *Transcript) SetSettings(s Settings) {
	if s == t.set {
		return
	}
	repaint := s.Colour != t.set.Colour || s.Background != t.set.Background
	t.set = s
	if repaint {
		t.palette()
	}
	vals := make([]int, len(t.blocks))
	for i, b := range t.blocks {
		if b.cached && b.key == t.keyFor(i) {
			vals[i] = len(b.lines)
		} else {
			vals[i] = t.estimate(b)
		}
	}
	t.h.reset(vals)
}

// Clear empties the view; the session itself is unchanged.
func (t *Transcript) Clear() {
	*t = Transcript{set: t.set, th: t.th, md: t.md, mdDim: t.mdDim, tools: map[string]int{}, steps: map[[2]int]int{}, numbering: t.numbering + 1}
}

// Blocks is the number of blocks.
func (t *Transcript) Blocks() int { return len(t.blocks) }

// Lines is the height of the whole transcript in rows at the current
// width: exact for blocks rendered under the current settings, estimated
// for the others.
func (t *Transcript) Lines() int { return t.h.total() }

// AddNotice appends a front-door notice (a key's effect, a command result).
// The text is sanitised when rendered.
func (t *Transcript) AddNotice(text string, kind NoticeKind) {
	t.add(&block{kind: kindNotice, text: text, tone: kind, finished: true})
}

// AddSettingNotice says a setting's new value (the permission mode, the
// cards' detail). When the last block is the notice of the same
// setting's previous value, it is rewritten instead: pressing a key that
// cycles through values leaves one line, the value reached.
func (t *Transcript) AddSettingNotice(setting, text string, kind NoticeKind) {
	if n := len(t.blocks); n > 0 {
		if last := t.blocks[n-1]; last.kind == kindNotice && last.setting == setting {
			last.text, last.tone = text, kind
			t.changed(n - 1)
			return
		}
	}
	t.add(&block{kind: kindNotice, text: text, tone: kind, setting: setting, finished: true})
}

// add appends a block with an estimated height.
func (t *Transcript) add(b *block) int {
	b.measure()
	t.blocks = append(t.blocks, b)
	t.h.push(t.estimate(b))
	t.unmeasured = append(t.unmeasured, len(t.blocks)-1)
	return len(t.blocks) - 1
}

// changed records a change to block i: its cache is stale and its height
// is estimated until it is rendered again.
func (t *Transcript) changed(i int) {
	b := t.blocks[i]
	b.version++
	b.measure()
	// A cached height is still the best guess for a block that was drawn
	// and is growing (it stays still on screen until redrawn), but a block
	// drawn empty must get a height, or it never comes into view.
	if !b.cached || len(b.lines) == 0 {
		t.h.set(i, max(t.estimate(b), len(b.lines)))
	}
	if n := len(t.unmeasured); n == 0 || t.unmeasured[n-1] != i {
		t.unmeasured = append(t.unmeasured, i)
	}
}

// Measure renders the blocks added or changed since the last View or
// Measure and records their exact heights, so the growth of Lines() over
// one batch of events is exact. An app that keeps a scrolled-up view still
// while output arrives below it calls Measure before reading Lines(); at
// the bottom there is no need, as View renders those blocks anyway.
func (t *Transcript) Measure() {
	for _, i := range t.unmeasured {
		t.linesOf(i)
	}
	t.unmeasured = t.unmeasured[:0]
}

// Detached returns an empty transcript with t's settings, in which to
// build the blocks of earlier history for Prepend.
func (t *Transcript) Detached() *Transcript {
	return &Transcript{set: t.set, th: t.th, md: t.md, mdDim: t.mdDim, tools: map[string]int{}, steps: map[[2]int]int{}}
}

// Prepend moves the blocks of c, made by Detached, in front of t's:
// history read back from the log, older than anything t holds. Rows
// counted from the bottom stay where they were. The steps c left open
// belong to the past and are closed.
func (t *Transcript) Prepend(c *Transcript) {
	k := len(c.blocks)
	if k == 0 {
		return
	}
	for _, i := range c.open {
		c.blocks[i].finished = true
	}
	t.blocks = slices.Concat(c.blocks, t.blocks)
	t.numbering++
	for id, i := range t.tools {
		t.tools[id] = i + k
	}
	for key, i := range t.steps {
		t.steps[key] = i + k
	}
	for j := range t.open {
		t.open[j] += k
	}
	unmeasured := slices.Clone(c.unmeasured)
	for _, i := range t.unmeasured {
		unmeasured = append(unmeasured, i+k)
	}
	t.unmeasured = unmeasured
	t.h.reset(slices.Concat(c.h.vals, t.h.vals))
}
