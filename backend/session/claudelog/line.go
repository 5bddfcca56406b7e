package claudelog

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/tack-agent/tack/backend/claudemsg"
)

// line is one line of the transcript, in the fields Claude Code writes:
// every line names its place in the conversation (uuid, parentUuid) and
// the session; a conversation line carries a message in the Anthropic
// Messages API's shape, a system line content and a subtype.
type line struct {
	ParentUUID *string `json:"parentUuid"`
	// LogicalParentUUID is, on a compaction's boundary (whose parentUuid
	// is null), the line the conversation went on from.
	LogicalParentUUID string `json:"logicalParentUuid,omitempty"`
	IsSidechain       bool   `json:"isSidechain"`
	// PromptID names, on a user line, the input of the user's it answers
	// to: a prompt's, steering's or injected context's own (but hooks'
	// context's that of the input it follows), a tool result's that of
	// the input the tool ran for.
	PromptID  string   `json:"promptId,omitempty"`
	UserType  string   `json:"userType"`
	Cwd       string   `json:"cwd"`
	SessionID string   `json:"sessionId"`
	Version   string   `json:"version"`
	GitBranch string   `json:"gitBranch"`
	AgentID   string   `json:"agentId,omitempty"`
	Type      string   `json:"type"`
	Subtype   string   `json:"subtype,omitempty"`
	Message   *message `json:"message,omitempty"`
	RequestID string   `json:"requestId,omitempty"`
	// CostUSD is what the reply cost, as Claude Code wrote it on
	// assistant lines before it left costs out: usage counters such as
	// ccusage take it over their own price list, which lacks most of
	// tack's models and DeepSeek's off-peak rates.
	CostUSD *float64 `json:"costUSD,omitempty"`
	// IsMeta marks input no one typed (tack's injected context).
	IsMeta                    bool `json:"isMeta,omitempty"`
	IsCompactSummary          bool `json:"isCompactSummary,omitempty"`
	IsVisibleInTranscriptOnly bool `json:"isVisibleInTranscriptOnly,omitempty"`
	IsAPIErrorMessage         bool `json:"isApiErrorMessage,omitempty"`
	// Content and Level are a system line's.
	Content         string           `json:"content,omitempty"`
	Level           string           `json:"level,omitempty"`
	CompactMetadata *compactMetadata `json:"compactMetadata,omitempty"`
	// ToolUseResult is what a tool answered, in Claude Code's terms, on
	// the line of its tool_result.
	ToolUseResult any    `json:"toolUseResult,omitempty"`
	UUID          string `json:"uuid"`
	Timestamp     string `json:"timestamp"`
}

// titleLine names the session, as Claude Code's ai-title and
// custom-title lines do.
type titleLine struct {
	Type        string `json:"type"`
	AITitle     string `json:"aiTitle,omitempty"`
	CustomTitle string `json:"customTitle,omitempty"`
	SessionID   string `json:"sessionId"`
}

// message is a line's message. Content is a string (a typed prompt) or
// a list of blocks.
type message struct {
	ID         string           `json:"id,omitempty"`
	Type       string           `json:"type,omitempty"`
	Role       string           `json:"role"`
	Model      string           `json:"model,omitempty"`
	Content    any              `json:"content"`
	StopReason *string          `json:"stop_reason,omitempty"`
	Usage      *claudemsg.Usage `json:"usage,omitempty"`
}

// compactMetadata says what a compaction was: "manual" (/compact) or
// "auto", and how many tokens the conversation held before it.
type compactMetadata struct {
	Trigger   string `json:"trigger"`
	PreTokens int    `json:"preTokens"`
}

// stamp is t as Claude Code writes timestamps: RFC 3339 in UTC, to the
// millisecond.
func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// lineUUID is the uuid of the part-th line made of the event at seq of
// log id. It is derived, not drawn, so converting the same log again
// (after a restart, or to replay a rewind) gives every line the uuid it
// had.
func lineUUID(id string, seq int64, part int) string {
	h := sha256.Sum256([]byte(id + "/" + strconv.FormatInt(seq, 10) + "/" + strconv.Itoa(part)))
	h[6] = h[6]&0x0f | 0x40 // version 4, the version of Claude Code's
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	var b [36]byte
	hex.Encode(b[0:8], h[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], h[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], h[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], h[8:10])
	b[23] = '-'
	hex.Encode(b[24:36], h[10:16])
	return string(b[:])
}
