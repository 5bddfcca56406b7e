package agent

import "github.com/tack-agent/tack/backend/elicit"

// NoticeTone is how a notice reads: a warning, or an error.
type NoticeTone string

const (
	NoticeWarning NoticeTone = "warning"
	NoticeError   NoticeTone = "error"
)

// Notice is a live message for the person at the terminal that is not part
// of the conversation: an extension file that could not be read, an MCP
// server that failed. It is not logged; every subscriber gets the notices
// made before it subscribed, then the later ones.
type Notice struct {
	Tone NoticeTone
	Text string
	// PageDone is set on the notice that an MCP server is finished with a
	// web page the user opened, for the front doors that report it as
	// data (stream-json's elicitation_complete).
	PageDone *elicit.Done
}

func (Notice) isEvent() {}

// maxNotices bounds the notices kept for later subscribers.
const maxNotices = 100

// Notify publishes a notice to every subscriber and keeps it for later
// ones.
func (a *Agent) Notify(n Notice) {
	a.logMu.Lock()
	defer a.logMu.Unlock()
	if len(a.notices) < maxNotices {
		a.notices = append(a.notices, n)
	}
	a.publishLocked(n)
}
