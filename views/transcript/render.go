package transcript

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/textfmt"
)

// contextPreview is how many rows of an injected context message show
// unless tool cards are expanded.
const contextPreview = 3

// linesOf returns block i's rendered lines, rendering it only when its key
// changed, and records its exact height.
func (t *Transcript) linesOf(i int) []string {
	b := t.blocks[i]
	k := t.keyFor(i)
	if !b.cached || b.key != k {
		b.lines = t.render(b, k)
		b.key = k
		b.cached = true
	}
	if t.h.vals[i] != len(b.lines) {
		t.h.set(i, len(b.lines))
	}
	return b.lines
}

// render draws one block. Every non-empty block starts with a blank row
// that separates it from the one above.
func (t *Transcript) render(b *block, k renderKey) []string {
	w := max(t.set.Width, 10)
	var body []string
	switch b.kind {
	case kindUser:
		body = t.message("› ", b.text, w)
	case kindSteering:
		body = t.message("↳ ", b.text, w)
	case kindContext:
		body = t.context(b, w)
	case kindAssistant:
		body = t.assistant(b, w)
	case kindTool:
		body = cards.Render(b.tool, w, t.set.Cards, t.th)
	case kindNotice:
		body = wrapHanging(textfmt.Sanitize(b.text), w, t.noticeStyle(b.tone))
	case kindTiming:
		body = []string{t.th.Dim.Render(ansi.Truncate(b.text, w, "…"))}
	case kindCompaction:
		body = []string{t.th.Dim.Render(ansi.Truncate("… earlier context was compacted …", w, "…"))}
	}
	if len(body) == 0 {
		return nil
	}
	return append([]string{""}, body...)
}

func (t *Transcript) noticeStyle(k NoticeKind) lipgloss.Style {
	switch k {
	case NoticeDim:
		return t.th.Dim
	case NoticeWarning:
		return t.th.Warning
	case NoticeError:
		return t.th.Error
	}
	return t.th.Plain
}

// message draws a typed message, the header of its turn: a marker, then
// the text as written (wrapped, not reflowed as Markdown, so the user's
// line breaks stay), bold, its later rows under the first.
func (t *Transcript) message(marker, text string, w int) []string {
	pad := strings.Repeat(" ", ansi.StringWidth(marker))
	rows := wrapStyled(textfmt.Sanitize(text), max(w-len(pad), 1), t.th.Bold)
	for i := range rows {
		if i == 0 {
			rows[i] = t.th.Label.Render(marker) + rows[i]
			continue
		}
		rows[i] = pad + rows[i]
	}
	return rows
}

// context draws model-visible context nobody typed, folded like a card
// unless cards are expanded; it is never hidden.
func (t *Transcript) context(b *block, w int) []string {
	head := "Context"
	if o := textfmt.SanitizeLine(b.origin); o != "" {
		head += " · " + o
	}
	rows := wrapStyled(textfmt.Sanitize(stripFrame(b.text)), w, t.th.Dim)
	if t.set.Cards != cards.Expanded && len(rows) > contextPreview+1 {
		more := len(rows) - contextPreview
		rows = append(rows[:contextPreview:contextPreview],
			t.th.Dim.Render(ansi.Truncate("… +"+textfmt.Thousands(more)+" lines (ctrl+o to expand)", w, "…")))
	}
	return append([]string{t.th.Dim.Render(ansi.Truncate(head, w, "…"))}, rows...)
}

// stripFrame removes an outer <tag>…</tag> reminder frame.
func stripFrame(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "<") {
		return s
	}
	end := strings.IndexByte(s, '>')
	if end < 0 || strings.ContainsAny(s[1:end], " \n/") {
		return s
	}
	closing := "</" + s[1:end] + ">"
	if !strings.HasSuffix(s, closing) {
		return s
	}
	return strings.TrimSpace(s[end+1 : len(s)-len(closing)])
}

// assistant draws a step: its reasoning as one dim line, or whole under
// that line when reasoning is shown, the answer as Markdown, and tool
// calls still being written. The turn's prompt is its only header.
func (t *Transcript) assistant(b *block, w int) []string {
	if !b.visibleBody() {
		return nil
	}
	var out []string
	if strings.TrimSpace(b.reasoning) != "" && (t.set.Reasoning || !t.set.HideReasoning) {
		line := thought(b)
		if !t.set.Reasoning {
			line += " (ctrl+t to show)"
		}
		out = append(out, t.th.Reasoning.Render(ansi.Truncate(line, w, "…")))
		if t.set.Reasoning {
			if b.finished {
				out = append(out, t.mdDim.Render(b.reasoning, w)...)
			} else {
				out = append(out, b.reasoningStream.render(b.reasoning, w, t.mdDim, t.th)...)
			}
		}
	}
	if strings.TrimSpace(b.text) != "" {
		if len(out) > 0 {
			out = append(out, "")
		}
		if b.finished {
			out = append(out, t.md.Render(b.text, w)...)
		} else {
			out = append(out, b.answerStream.render(b.text, w, t.md, t.th)...)
		}
	}
	for _, c := range b.calls {
		out = append(out, cards.Announced(c.name, w, t.th))
	}
	return out
}

// thought is the line that stands for a step's reasoning: `Thinking…`
// while nothing else of the step has come, then `Thought for 4s` once
// its timing says how long it took.
func thought(b *block) string {
	switch {
	case !b.finished && strings.TrimSpace(b.text) == "" && len(b.calls) == 0:
		return "Thinking…"
	case b.thinking >= time.Second:
		return "Thought for " + textfmt.Seconds(b.thinking)
	}
	return "Thought"
}

// wrapStyled wraps sanitised text at w and styles each row.
func wrapStyled(text string, w int, style lipgloss.Style) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if ansi.StringWidth(l) > w {
			for _, p := range strings.Split(ansi.Wrap(l, w, ""), "\n") {
				out = append(out, style.Render(p))
			}
			continue
		}
		out = append(out, style.Render(l))
	}
	return out
}

// keyWidth is the widest key of a "Key   value" row whose wrapped value
// hangs under itself.
const keyWidth = 24

// wrapHanging is wrapStyled for the text of notices, which commands lay
// out in columns: a row's wrapped rest starts under its value ("Mode
// auto · sandboxed — …") or under its own indentation, where that
// leaves at least half the width. Web addresses are links.
func wrapHanging(text string, w int, style lipgloss.Style) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, row := range carryLinks(hangRows(linkAddresses(l), w)) {
			out = append(out, style.Render(keepHyphens(row)))
		}
	}
	return out
}

// hangRows wraps l at w, its rest under its value column where it has one
// that leaves at least half the width.
func hangRows(l string, w int) []string {
	if ansi.StringWidth(l) <= w {
		return []string{l}
	}
	col := valueColumn(l)
	if col == 0 || ansi.StringWidth(l[:col]) > w/2 {
		return strings.Split(ansi.Wrap(l, w, ""), "\n")
	}
	pad := strings.Repeat(" ", ansi.StringWidth(l[:col]))
	rows := strings.Split(ansi.Wrap(l[col:], w-len(pad), ""), "\n")
	for i := range rows {
		if i == 0 {
			rows[i] = l[:col] + rows[i]
		} else {
			rows[i] = pad + rows[i]
		}
	}
	return rows
}

// valueColumn is the byte offset where a row's wrapped rest should hang:
// after its leading spaces, or after the first run of two or more spaces
// that ends a short key; 0 when neither.
func valueColumn(l string) int {
	if lead := len(l) - len(strings.TrimLeft(l, " ")); lead > 0 {
		return lead
	}
	i := strings.Index(l, "  ")
	if i <= 0 || ansi.StringWidth(l[:i]) > keyWidth {
		return 0
	}
	j := i
	for j < len(l) && l[j] == ' ' {
		j++
	}
	if j == len(l) {
		return 0
	}
	return j
}
