package app

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/views/textfmt"
)

// queueRows is how many queued messages show above the editor before the
// rest are counted.
const queueRows = 3

// queue is what waits for the loop: steering for the running turn's next
// step, follow-ups for the turns after it.
type queue struct {
	steering, followUps []string
}

func (q queue) len() int { return len(q.steering) + len(q.followUps) }

// queuedRows list the waiting messages above the editor, faint, one row
// each: `↳ text` steers the running turn, `» text` is a later turn.
func (m *Model) queuedRows() []string {
	if !m.running() || m.queue.len() == 0 {
		return nil
	}
	var rows []string
	add := func(mark string, texts []string) {
		for _, t := range texts {
			if len(rows) == queueRows {
				return
			}
			line := mark + " " + strings.Join(strings.Fields(textfmt.SanitizeLine(t)), " ")
			rows = append(rows, m.theme.Dim.Render(ansi.Truncate(line, m.width, "…")))
		}
	}
	add("↳", m.queue.steering)
	add("»", m.queue.followUps)
	if more := m.queue.len() - len(rows); more > 0 {
		rows[len(rows)-1] = m.theme.Dim.Render(ansi.Truncate("… "+strconv.Itoa(more+1)+" more queued", m.width, "…"))
	}
	return rows
}

// queueChanged records what waits for the loop.
func (m *Model) queueChanged(e agent.InboxChanged) {
	m.queue = queue{steering: e.Steering, followUps: e.FollowUps}
}

// restoreQueued puts the texts a cancel took from the queue back in the
// editor, before what is being written there, so nothing typed is lost;
// the notice that says so follows the turn's "Turn cancelled.".
func (m *Model) restoreQueued(texts []string) {
	if len(texts) == 0 {
		return
	}
	draft := strings.Join(texts, "\n")
	if cur := m.editor.Value(); strings.TrimSpace(cur) != "" {
		draft += "\n" + cur
	}
	m.setDraft(draft)
	what := "The queued message is"
	if len(texts) > 1 {
		what = "The " + strconv.Itoa(len(texts)) + " queued messages are"
	}
	m.restored = what + " back in the editor."
}
