package app

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/overlays/modelpicker"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
	"github.com/tack-agent/tack/views/transcript"
	"github.com/tack-agent/tack/views/welcome"
)

// windowTitleSuffix ends every window title.
const windowTitleSuffix = "tack"

// View draws the screen, top to bottom: the transcript (the banner heads
// it; the pickers, details and help cover it), a spacer, the plan strip,
// the compaction timer, the status row, then what sits above the editor
// (a question or approval, the history search or the completion menu),
// a hint, and the editor. Every row is drawn every frame, so nothing an
// overlay drew outlives it. After a message that changes nothing on
// screen, the view drawn last is given again.
func (m *Model) View() tea.View {
	if m.idle && m.shown != nil {
		m.idle = false
		return *m.shown
	}
	v := m.draw()
	m.shown = &v
	return v
}

// draw draws the screen.
func (m *Model) draw() tea.View {
	if m.ov.help != nil {
		// Help is read, not typed into: it takes the whole screen.
		return m.frame(m.ov.help.View(m.width, m.height))
	}
	bottom := m.bottomRows()
	vp := max(m.height-len(bottom)-m.editorRows()-1, 1)
	rows := m.cover(m.viewport(vp))
	rows = append(rows, "")
	rows = append(rows, bottom...)
	if m.editorRows() > 0 {
		// Row by row, so that the cut below counts a tall draft's rows.
		rows = append(rows, strings.Split(m.editor.View(), "\n")...)
	}
	// A screen too short for even one transcript row loses rows from the
	// top, so the editor and what sits above it stay in sight.
	cut := max(len(rows)-m.height, 0)
	v := m.frame(strings.Join(rows[cut:], "\n"))
	if c := m.editor.Cursor(); c != nil && !m.requestOpen() && !m.ov.open() {
		c.Color, c.Blink = nil, false
		c.Y += vp + 1 + len(bottom) - cut
		if c.Y >= 0 {
			v.Cursor = c
		}
	}
	return v
}

// frame is a view of the screen's text in the alternate screen with the
// program's modes and title.
func (m *Model) frame(screen string) tea.View {
	v := tea.NewView(screen)
	v.AltScreen = true
	v.ReportFocus = m.opts.Notify != NotifyOff
	if m.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.windowTitle()
	return v
}

// bottomRows are the rows between the transcript and the editor.
func (m *Model) bottomRows() []string {
	plan, working, status := m.planRows(), append(m.compactionRow(), m.workingRow()...), append(m.statusLineRows(), m.statusRow())
	queued := m.queuedRows()
	hint := 0
	if m.hint != "" {
		hint = 1
	}
	// What sits above the editor gets the room left after one transcript
	// row and the spacer, which a question or approval on a screen too
	// short for the editor takes too (the top rows are then cut).
	reserved := 2
	if m.editorRows() == 0 {
		reserved = 0
	}
	room := func() int {
		return m.height - len(plan) - len(working) - len(status) - len(queued) - hint - m.editorRows() - reserved
	}
	// A question or approval that does not fit takes the rows of the plan
	// strip, then of the working line, then of the status row, then the
	// transcript's: after the editor, its text and its choices matter
	// most.
	if want := m.requestHeight(); want > 0 {
		for _, rows := range []*[]string{&plan, &working, &status} {
			if room() < want {
				*rows = nil
			}
		}
		if room() < want {
			reserved = 0
		}
	}
	rows := append(append(append(plan, working...), status...), queued...)
	if above := m.aboveEditor(room()); above != "" {
		rows = append(rows, strings.Split(above, "\n")...)
	}
	if m.hint != "" {
		rows = append(rows, m.theme.Warning.Render(ansi.Truncate(m.hint, m.width, "…")))
	}
	return rows
}

// aboveEditor draws the question or approval, else the history search,
// else the completion menu, in at most height rows.
func (m *Model) aboveEditor(height int) string {
	if height <= 0 {
		return ""
	}
	switch {
	case m.requestOpen():
		return m.requestView(height)
	case m.ov.history != nil:
		return m.ov.history.View(m.width, height)
	}
	return m.menu.View(m.width, height)
}

// cover draws the open picker or details over the transcript rows. The
// session picker and the rewind picker own the whole area; the
// model picker and details sit in its middle on rows of their own, with a
// blank row above and below, so no transcript text shows beside, above or
// below their frame.
func (m *Model) cover(rows []string) []string {
	h := len(rows)
	var box string
	full := false
	switch {
	case m.ov.sessions != nil:
		box, full = m.ov.sessions.View(m.width, h), true
	case m.ov.rewind != nil:
		box, full = m.ov.rewind.View(m.width, h), true
	case m.ov.models != nil:
		box = m.ov.models.View(min(m.width, modelpicker.Width), h)
	case m.ov.details != nil:
		box = m.ov.details.View(m.width, h)
	default:
		return rows
	}
	lines := strings.Split(box, "\n")
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	x, y := max((m.width-w)/2, 0), max((h-len(lines))/2, 0)
	first, last := y-1, y+len(lines)
	if full {
		x, y, first, last = 0, 0, 0, h-1
	}
	for i := max(first, 0); i <= min(last, h-1); i++ {
		rows[i] = ""
		if j := i - y; j >= 0 && j < len(lines) {
			rows[i] = strings.Repeat(" ", x) + lines[j]
		}
	}
	return rows
}

// viewportRows is the height of the transcript area.
func (m *Model) viewportRows() int {
	return max(m.height-len(m.bottomRows())-m.editorRows()-1, 1)
}

// compactHeight is the screen height under which a question or approval
// takes the editor's rows: keys go to it, and the draft would push its
// options off the screen.
const compactHeight = 12

// editorRows is the height of the editor as drawn.
func (m *Model) editorRows() int {
	if m.requestOpen() && m.height < compactHeight {
		return 0
	}
	return m.editor.Height()
}

// bannerRows head the transcript: the name, the session title (or the
// configured welcome text), then the welcome line: where, which model,
// which mode and the keys to start with. The session id is not there: a
// user needs it to resume, and the exit line and /status give it.
func (m *Model) bannerRows() []string {
	if m.earlier.more {
		return m.earlierRows()
	}
	sub := m.proj.Title()
	if sub == "" {
		sub = m.opts.Welcome
	}
	// The label is the status row's "auto · sandboxed"; until the session
	// tells it, the mode is left out, as the model is.
	mode, sandbox, _ := strings.Cut(m.permission, permission.LabelSep)
	facts := welcome.Facts{Cwd: m.opts.Cwd, Home: m.opts.Home, Model: m.model.id, Mode: mode, Sandbox: sandbox}
	key := bannerKey{sub, facts, m.width, m.theme.Colour, m.theme.Background}
	return m.drawnBanner.get(key, func() []string {
		rows := []string{m.theme.Label.Render("tack")}
		if sub != "" {
			rows = append(rows, ansi.Truncate(textfmt.SanitizeLine(sub), m.width, "…"))
		}
		return append(rows, welcome.Line(facts, m.width, m.theme), "")
	})
}

// bannerKey is what the banner shows, at which width and in which palette.
type bannerKey struct {
	sub    string
	facts  welcome.Facts
	width  int
	colour bool
	bg     theme.Background
}

// scrollToTop shows the banner's first row at the top of the view.
func (m *Model) scrollToTop() { m.showFrom(viewTop{inBanner: true}, 0) }

// maxScroll is how far up the view can scroll.
func (m *Model) maxScroll() int {
	return max(len(m.bannerRows())+m.tr.Lines()-m.viewportRows(), 0)
}

// keepPlace runs relayout, which moves the transcript's rows (a resize,
// cards expanded, reasoning shown), and keeps the row at the top of the
// view there, as far as the new rows allow: a reader scrolled up stays at
// what they were reading, where counting rows from the bottom would move
// it by every row that changed below. A view at the bottom stays there
// and follows new output.
//
// When the relayout leaves the block at the top with no rows (cards
// hidden), the block after it comes to the top, and the hidden place is
// held: a later relayout that finds the view still where that left it
// starts from the held place, so showing cards again brings the reader
// back to the card they were at.
func (m *Model) keepPlace(relayout func()) {
	top, held := m.viewTop(), m.held
	m.held = nil
	switch {
	case held != nil && top == held.landed:
		top = held.top
	case m.scroll == 0:
		relayout()
		return
	}
	relayout()
	m.showFrom(top, 0)
	if !top.inBanner && !m.tr.Shows(top.place) {
		m.held = &heldPlace{top: top, landed: m.viewTop()}
	}
}

// heldPlace is the top of a view whose block a relayout hid, and the top
// the view came to instead.
type heldPlace struct {
	top, landed viewTop
}

// keepRowsStill keeps the rows on screen still when rows were added below
// the view since the transcript was before rows long and the view is
// scrolled up; at the bottom, the view follows them.
func (m *Model) keepRowsStill(before int) {
	if m.scroll > 0 {
		m.tr.Measure()
		m.scroll += m.tr.Lines() - before
	}
}

// viewTop is the row at the top of the view: a row of the banner, or a
// place in the transcript, which survives the transcript's rows moving.
type viewTop struct {
	row      int // counted from the banner's first row
	inBanner bool
	place    transcript.Place
}

func (m *Model) viewTop() viewTop {
	banner := len(m.bannerRows())
	top := max(banner+m.tr.Lines()-m.scroll-m.viewportRows(), 0)
	if top < banner {
		return viewTop{row: top, inBanner: true}
	}
	return viewTop{row: top, place: m.tr.PlaceOf(top - banner)}
}

// showFrom scrolls the view to put at its top the row n rows below v
// (above when negative), counting the transcript's rows as they render,
// not as the blocks not yet drawn are estimated: the rows below a
// scrolled-up view may all be estimates after a relayout, and a page
// down over them must still move a page. Past the bottom, the view
// follows new output again.
func (m *Model) showFrom(v viewTop, n int) {
	vp := m.viewportRows()
	banner := len(m.bannerRows())
	top := v.row + n
	switch {
	case v.inBanner && top < banner:
		// The banner's rows are all drawn; top counts them exactly. The
		// transcript's rows under them are drawn too: the view is placed
		// by counting rows from the bottom, and a block on screen counted
		// by its estimate would leave the rows it is short of blank.
		m.tr.Render(0, vp)
	case v.inBanner:
		p, _ := m.tr.Scroll(m.tr.PlaceOf(0), top-banner)
		top = banner + m.tr.RowOf(p, vp)
	default:
		p, rest := m.tr.Scroll(v.place, n)
		top = banner + m.tr.RowOf(p, vp) + min(rest, 0)
	}
	m.scroll = max(banner+m.tr.Lines()-max(top, 0)-vp, 0)
}

// viewport returns exactly h rows of banner and transcript, m.scroll rows
// above the bottom; short content sits at the top. Transcript heights far
// from anything rendered are estimates, so nothing here trusts a row count
// it did not get back from the transcript.
func (m *Model) viewport(h int) []string {
	banner := m.bannerRows()
	trLines := m.tr.Lines()
	m.scroll = min(m.scroll, max(len(banner)+trLines-h, 0))
	var tr []string
	bannerEnd := len(banner)
	if m.scroll < trLines {
		tr = m.tr.View(m.scroll, h)
	} else {
		bannerEnd = max(len(banner)-(m.scroll-trLines), 0)
	}
	need := max(h-len(tr), 0)
	rows := append(append([]string{}, banner[max(bannerEnd-need, 0):bannerEnd]...), tr...)
	if len(rows) > h {
		rows = rows[len(rows)-h:]
	}
	for i, r := range rows {
		rows[i] = m.fit.row(i, r, m.width)
	}
	for len(rows) < h {
		rows = append(rows, "")
	}
	return rows
}

// fitted remembers the viewport's rows as they were cut to the width:
// most rows of a frame are the frame before's, and measuring each again
// was a quarter of drawing a typed key.
type fitted struct {
	width   int
	in, out []string
}

// row is viewport row i, r, cut to width.
func (f *fitted) row(i int, r string, width int) string {
	if f.width != width {
		f.width, f.in, f.out = width, nil, nil
	}
	if i < len(f.in) && f.in[i] == r {
		return f.out[i]
	}
	out := r
	if ansi.StringWidth(r) > width {
		out = ansi.Truncate(r, width, "")
	}
	for len(f.in) <= i {
		f.in, f.out = append(f.in, ""), append(f.out, "")
	}
	f.in[i], f.out[i] = r, out
	return out
}

// windowTitle is `<session title> — tack`, sanitised.
func (m *Model) windowTitle() string {
	if t := textfmt.SanitizeLine(m.proj.Title()); t != "" {
		return t + " — " + windowTitleSuffix
	}
	return windowTitleSuffix
}
