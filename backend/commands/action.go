package commands

// Action is a typed request from a command to the front door that ran it,
// for what only the front door can do (leave, clear the screen, open an
// overlay). A nil Action asks for nothing.
type Action interface{ isAction() }

// ActionExit asks the front door to exit; while running it cancels the turn
// first.
type ActionExit struct{}

// ActionClear asks the front door to clear its view of the transcript; the
// session history is unchanged.
type ActionClear struct{}

// ActionNewSession asks for a fresh session with the same settings.
type ActionNewSession struct{}

// ActionResume asks the front door to switch to the session ID.
type ActionResume struct{ ID string }

// ActionCopy asks the front door to copy Text to the clipboard.
type ActionCopy struct{ Text string }

// CardMode is how tool and context cards are shown.
type CardMode string

const (
	CardsUnchanged CardMode = ""
	CardsCollapsed CardMode = "collapsed"
	CardsExpanded  CardMode = "expanded"
	CardsHidden    CardMode = "hidden"
)

// ReasoningSwitch changes whether reasoning blocks are shown.
type ReasoningSwitch string

const (
	ReasoningUnchanged ReasoningSwitch = ""
	ReasoningOn        ReasoningSwitch = "on"
	ReasoningOff       ReasoningSwitch = "off"
	ReasoningToggle    ReasoningSwitch = "toggle"
)

// ActionDetails changes transcript details. The front door applies
// Reasoning before Cards.
type ActionDetails struct {
	Cards     CardMode
	Reasoning ReasoningSwitch
}

// ShowReasoning is whether reasoning shows after the action, given whether
// it shows now.
func (a ActionDetails) ShowReasoning(shown bool) bool {
	switch a.Reasoning {
	case ReasoningOn:
		return true
	case ReasoningOff:
		return false
	case ReasoningToggle:
		return !shown
	}
	return shown
}

// ActionOpenModelPicker asks for the model selector overlay. Front doors
// without overlays show the result text, which lists the models.
type ActionOpenModelPicker struct{}

// ActionOpenResumePicker asks for the session picker overlay, searching
// for Search ("" for every session). Front doors without overlays show
// the result text, which lists the sessions it finds.
type ActionOpenResumePicker struct{ Search string }

// ActionOpenDetails asks for the transcript details toggle overlay.
type ActionOpenDetails struct{}

// ActionHelp asks the front door to show Text as help (an overlay, or
// plain output).
type ActionHelp struct{ Text string }

func (ActionExit) isAction()             {}
func (ActionClear) isAction()            {}
func (ActionNewSession) isAction()       {}
func (ActionResume) isAction()           {}
func (ActionCopy) isAction()             {}
func (ActionDetails) isAction()          {}
func (ActionOpenModelPicker) isAction()  {}
func (ActionOpenResumePicker) isAction() {}
func (ActionOpenDetails) isAction()      {}
func (ActionHelp) isAction()             {}
