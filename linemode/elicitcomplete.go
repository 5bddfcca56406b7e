package linemode

import "github.com/tack-agent/tack/backend/elicit"

// elicitationComplete is the system line of stream-json that says an MCP
// server is finished with a web page the user agreed to open, as claude
// -p writes it (the Agent SDK's SDKElicitationCompleteMessage).
type elicitationComplete struct {
	Type          string `json:"type"`    // "system"
	Subtype       string `json:"subtype"` // "elicitation_complete"
	Server        string `json:"mcp_server_name"`
	ElicitationID string `json:"elicitation_id"`
	UUID          string `json:"uuid"`
	SessionID     string `json:"session_id"`
}

func elicitationCompleteMessage(d elicit.Done, sessionID string) elicitationComplete {
	return elicitationComplete{Type: "system", Subtype: "elicitation_complete", Server: d.Server,
		ElicitationID: d.ElicitationID, UUID: newUUID(), SessionID: sessionID}
}
