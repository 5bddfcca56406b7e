package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/transcript"
)

// A resumed session shows its latest turns first; the earlier ones are
// read back from the log a chunk at a time, in a command, whenever the
// view comes within earlierMargin screens of the top of what is loaded.
// Rows are counted from the bottom, so a chunk put in front of the
// transcript moves nothing on screen.

const (
	// earlierChunk is how many transcript events a read brings at least;
	// reads double it while the view waits at the top, up to
	// maxEarlierChunk.
	earlierChunk    = 256
	maxEarlierChunk = 8192
	// earlierMargin is how many screens of history are kept loaded above
	// the view.
	earlierMargin = 2
)

// earlier is the state of the history above the loaded transcript.
type earlier struct {
	// more says transcript events before seq before remain to be read.
	more    bool
	before  int64
	loading bool
	// load numbers the reads; the reply to a read the transcript was
	// cleared since is dropped.
	load  int
	chunk int
	// top is set while the user keeps the view at the top (Home), which
	// stays there as chunks arrive.
	top bool
}

// earlierMsg is a chunk of earlier history.
type earlierMsg struct {
	load   int
	events []session.Event
	more   bool
	err    error
}

// earlierRows are the rows that stand for history not yet loaded, above
// the transcript, in place of the banner.
func (m *Model) earlierRows() []string {
	text := "↑ Earlier messages load as you scroll up"
	if m.earlier.loading {
		text = "Loading earlier messages…"
	}
	return []string{m.theme.Dim.Render(text), ""}
}

// readEarlier reads the next chunk of history when the view is near the
// top of what is loaded.
func (m *Model) readEarlier() tea.Cmd {
	e := &m.earlier
	if !e.more || e.loading {
		return nil
	}
	vp := m.viewportRows()
	above := len(m.bannerRows()) + m.tr.Lines() - m.scroll - vp
	if !e.top && above > earlierMargin*vp {
		return nil
	}
	e.loading = true
	be, before, n, load := m.be, e.before, e.chunk, e.load
	return func() tea.Msg {
		events, more, err := be.History(before, n)
		return earlierMsg{load: load, events: events, more: more, err: err}
	}
}

// readEarlierFrom starts over: the transcript was cleared, and all of it
// is history before seq before.
func (m *Model) readEarlierFrom(before int64, more bool) tea.Cmd {
	m.earlier = earlier{more: more, before: before, load: m.earlier.load + 1, chunk: earlierChunk}
	return m.readEarlier()
}

// earlierRead puts a chunk of history in front of the transcript.
func (m *Model) earlierRead(msg earlierMsg) tea.Cmd {
	e := &m.earlier
	if msg.load != e.load {
		return nil
	}
	e.loading = false
	if msg.err != nil {
		e.more = false
		before := m.tr.Lines()
		m.tr.AddNotice("Could not read the earlier history of this session: "+msg.err.Error(), transcript.NoticeError)
		m.keepRowsStill(before)
		return nil
	}
	c := m.tr.Detached()
	for _, ev := range msg.events {
		show(c, ev)
	}
	m.tr.Prepend(c)
	if len(msg.events) > 0 {
		e.before = msg.events[0].Seq
	}
	e.more = msg.more && len(msg.events) > 0
	if e.top {
		m.scrollToTop()
		e.chunk = min(2*e.chunk, maxEarlierChunk)
	}
	return m.readEarlier()
}
