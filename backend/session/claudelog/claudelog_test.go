package claudelog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
)

var t0 = time.Date(2026, 3, 14, 9, 26, 53, 120_000_000, time.UTC)

// newLog creates a log in a temporary directory with header h (ID and
// Cwd filled in when empty).
func newLog(t *testing.T, h session.Header) *session.Log {
	t.Helper()
	if h.ID == "" {
		h.ID = "20260314-092653-abcdef"
	}
	if h.Cwd == "" {
		h.Cwd = "/workspace/project"
	}
	h.Version, h.Created, h.Model = session.FormatVersion, t0, "deepseek-flash"
	l, err := session.Create(filepath.Join(t.TempDir(), h.ID+".jsonl"), h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// appendAll logs ds, returning the seq of the first.
func appendAll(t *testing.T, l *session.Log, ds ...session.Data) int64 {
	t.Helper()
	first := l.NextSeq()
	for _, d := range ds {
		if _, err := l.Append(t0, d); err != nil {
			t.Fatal(err)
		}
	}
	return first
}

func syncRead(t *testing.T, tr *Transcript) []byte {
	t.Helper()
	if err := tr.Sync(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(tr.Path())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fresh is the transcript of l converted whole, by a transcript with no
// saved state.
func fresh(t *testing.T, l *session.Log) []byte {
	t.Helper()
	tr := New(l, "test", nil)
	if err := os.Remove(tr.statePath()); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return syncRead(t, tr)
}

type parsed struct {
	Type, UUID, Subtype string
	ParentUUID          *string `json:"parentUuid"`
	IsSidechain         bool
	AgentID, SessionID  string
	Message             struct {
		Content any
	}
}

func parseLines(t *testing.T, b []byte) []parsed {
	t.Helper()
	var out []parsed
	for _, raw := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var p parsed
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("a line is not JSON (%v): %s", err, raw)
		}
		out = append(out, p)
	}
	return out
}

// A hook runs at any point of a turn; however often the transcript is
// brought up to date, it ends as one conversion of the whole log would.
func TestSyncAfterEveryEventWritesWhatOneSyncWould(t *testing.T) {
	l := newLog(t, session.Header{})
	tr := New(l, "test", nil)
	for n := 1; n <= 3; n++ {
		for _, d := range sessiontest.Turn(n, "/workspace/project", "deepseek-flash", n == 3) {
			appendAll(t, l, d)
			syncRead(t, tr)
		}
	}
	got := syncRead(t, tr)
	if want := fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("synced event by event:\n%s\nconverted at once:\n%s", got, want)
	}
	if lines := parseLines(t, got); len(lines) != 3*sessiontest.MessagesPerTurn {
		t.Fatalf("want %d lines, one a message, got %d", 3*sessiontest.MessagesPerTurn, len(lines))
	}
}

// tack restarted with --resume goes on where the transcript stopped: no
// line is written twice, and a tail written after the last saved state
// (a crash mid-write) is cut off.
func TestResumedSessionAppendsWithoutDuplicates(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/workspace/project", "deepseek-flash", false)...)
	tr := New(l, "test", nil)
	before := syncRead(t, tr)
	path, logPath := tr.Path(), l.Path()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"user","uuid":"torn`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l, err = session.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tr = New(l, "test", nil)
	if got := syncRead(t, tr); !bytes.Equal(got, before) {
		t.Fatalf("after the restart, with nothing new, the transcript is\n%s\nwant it as it was before the torn write:\n%s", got, before)
	}
	appendAll(t, l, sessiontest.Turn(2, "/workspace/project", "deepseek-flash", true)...)
	got := syncRead(t, tr)
	if want := fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("after the restart:\n%s\nconverted at once:\n%s", got, want)
	}
	seen := map[string]bool{}
	for _, p := range parseLines(t, got) {
		if seen[p.UUID] {
			t.Fatalf("uuid %s is on two lines", p.UUID)
		}
		seen[p.UUID] = true
	}
	if len(seen) != 2*sessiontest.MessagesPerTurn {
		t.Fatalf("want %d lines, got %d", 2*sessiontest.MessagesPerTurn, len(seen))
	}
}

// A transcript cut or removed behind tack's back is written again whole
// at the next Sync, never padded out to where it was.
func TestTranscriptCutBehindTacksBackIsWrittenAgain(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	tr := New(l, "test", nil)
	syncRead(t, tr)
	if err := os.Truncate(tr.Path(), 10); err != nil {
		t.Fatal(err)
	}
	appendAll(t, l, sessiontest.Turn(2, "/w", "m", true)...)
	got := syncRead(t, tr)
	if want := fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("after the file was cut the transcript is\n%q\nwant\n%q", got, want)
	}
}

// The status line asks after every change; a Sync with nothing new to
// convert opens no file (here: does not bring back one removed), and the
// next event has the transcript written whole again.
func TestSyncWithNothingNewTouchesNoFile(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	tr := New(l, "test", nil)
	syncRead(t, tr)
	if err := os.Remove(tr.Path()); err != nil {
		t.Fatal(err)
	}
	if err := tr.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tr.Path()); !os.IsNotExist(err) {
		t.Fatalf("a Sync with nothing new wrote the file (%v)", err)
	}
	appendAll(t, l, sessiontest.Turn(2, "/w", "m", true)...)
	if got, want := syncRead(t, tr), fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("after the file was removed the transcript is\n%s\nwant\n%s", got, want)
	}
}

// A log that lost its end in a crash after the transcript had its lines
// would have its next events take the lost ones' seqs, and their lines
// the lost ones' uuids: the transcript is written again instead.
func TestTranscriptOfALogThatLostItsEndIsWrittenAgain(t *testing.T) {
	l := newLog(t, session.Header{})
	path := l.Path()
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	appendAll(t, l, sessiontest.Turn(2, "/w", "m", true)...)
	syncRead(t, New(l, "test", nil))
	h := l.Header()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + ".lock", path + ".index"} {
		os.Remove(f)
	}
	l, err := session.Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	got := syncRead(t, New(l, "test", nil))
	if want := fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("the transcript of the shorter log is\n%s\nwant\n%s", got, want)
	}
}

// A rewind leaves the rewound turns in the file, as Claude Code does, and
// the conversation goes on from the line before them: the next prompt's
// parent is the last line of the turn before.
func TestRewindBranchesFromTheLineBeforeTheRewoundTurn(t *testing.T) {
	l := newLog(t, session.Header{})
	tr := New(l, "test", nil)
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	turn1 := parseLines(t, syncRead(t, tr))
	back := appendAll(t, l, sessiontest.Turn(2, "/w", "m", false)...)
	syncRead(t, tr)
	appendAll(t, l, session.Rewind{Turn: 2, Conversation: true, Back: back})
	appendAll(t, l, sessiontest.Turn(3, "/w", "m", true)...)
	lines := parseLines(t, syncRead(t, tr))
	prompt := lines[2*sessiontest.MessagesPerTurn]
	if prompt.Message.Content != "Fix failing test 3 in the parser" {
		t.Fatalf("line %d is not turn 3's prompt: %+v", 2*sessiontest.MessagesPerTurn, prompt)
	}
	if last := turn1[len(turn1)-1].UUID; prompt.ParentUUID == nil || *prompt.ParentUUID != last {
		t.Fatalf("turn 3's prompt follows %v, want the last line of turn 1, %s", prompt.ParentUUID, last)
	}
	rewind := back + int64(len(sessiontest.Turn(2, "", "", false)))
	appendAll(t, l, session.Rewind{Conversation: true, Back: rewind, Undo: rewind})
	appendAll(t, l, session.UserMessage{Turn: 4, Kind: session.KindPrompt, Text: "again"})
	lines = parseLines(t, syncRead(t, tr))
	undo := lines[len(lines)-1]
	if want := lines[2*sessiontest.MessagesPerTurn-1].UUID; undo.ParentUUID == nil || *undo.ParentUUID != want {
		t.Fatalf("after undoing the rewind the prompt follows %v, want the last line of turn 2, %s", undo.ParentUUID, want)
	}
}

// A subagent's transcript is a sidechain of its parent's session, kept
// where Claude Code keeps one: under the parent's, as agent-<id>.jsonl.
func TestSubagentTranscriptIsASidechainOfItsParent(t *testing.T) {
	l := newLog(t, session.Header{ID: "20260314-092700-child0", Parent: "20260314-092653-abcdef", Agent: "explore"})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", true)...)
	tr := New(l, "test", nil)
	want := filepath.Join(filepath.Dir(l.Path()), "20260314-092653-abcdef", "claude", "20260314-092653-abcdef", "subagents", "agent-20260314-092700-child0.jsonl")
	if tr.Path() != want {
		t.Fatalf("path %s, want %s", tr.Path(), want)
	}
	for i, p := range parseLines(t, syncRead(t, tr)) {
		if !p.IsSidechain || p.AgentID != "20260314-092700-child0" || p.SessionID != "20260314-092653-abcdef" {
			t.Fatalf("line %d: isSidechain %v, agentId %q, sessionId %q; want a sidechain of the parent", i, p.IsSidechain, p.AgentID, p.SessionID)
		}
	}
}

// The titles the model gives the session are Claude Code's ai-title
// lines, and the name the user gives it (/rename) its custom-title line,
// beside the conversation: its chain goes on past them. A title made of
// the first prompt writes none, as Claude Code has no such title.
func TestTheSessionsNamesAreTitleLines(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, session.Title{Title: "Fix failing test 1", Source: session.TitlePrompt})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	appendAll(t, l, session.Title{Title: "Parser fix", Source: session.TitleModel})
	appendAll(t, l, sessiontest.Turn(2, "/w", "m", false)...)
	appendAll(t, l, session.Title{Title: "Lexer keeps its last token", Source: session.TitleModel})
	appendAll(t, l, session.Title{Title: "Lexer work", Source: session.TitleUser})
	b := syncRead(t, New(l, "test", nil))
	var titles []string
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	for _, raw := range lines {
		if bytes.Contains(raw, []byte(`-title"`)) {
			titles = append(titles, string(raw))
		}
	}
	want := []string{`{"type":"ai-title","aiTitle":"Parser fix","sessionId":"20260314-092653-abcdef"}`,
		`{"type":"ai-title","aiTitle":"Lexer keeps its last token","sessionId":"20260314-092653-abcdef"}`,
		`{"type":"custom-title","customTitle":"Lexer work","sessionId":"20260314-092653-abcdef"}`}
	if !slices.Equal(titles, want) {
		t.Fatalf("title lines %q, want %q", titles, want)
	}
	conv := slices.DeleteFunc(parseLines(t, b), func(p parsed) bool { return strings.HasSuffix(p.Type, "-title") })
	for i, p := range conv[1:] {
		if p.ParentUUID == nil || *p.ParentUUID != conv[i].UUID {
			t.Fatalf("conversation line %d follows %v, want the line before it, %s", i+1, p.ParentUUID, conv[i].UUID)
		}
	}
}

// uuidV4 matches a version 4 UUID, as Claude Code's ids are.
var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Each input of the user's, typed or steering, has a promptId of its
// own, which the tool results after it carry too, as in Claude Code's
// transcripts; the model's lines carry none, nor do a subagent's.
func TestUserLinesSayTheInputTheyAnswerTo(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)[:6]...)
	appendAll(t, l, session.SteeringMessage{Turn: 1, Text: "Also the lexer"})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)[6:]...)
	appendAll(t, l, sessiontest.Turn(2, "/w", "m", false)...)
	var got []string
	ids := map[string]string{}
	for _, raw := range bytes.Split(bytes.TrimSuffix(syncRead(t, New(l, "test", nil)), []byte("\n")), []byte("\n")) {
		var line struct {
			Type, PromptID string
			ToolUseResult  any
		}
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		if line.PromptID != "" && ids[line.PromptID] == "" {
			ids[line.PromptID] = fmt.Sprintf("p%d", len(ids)+1)
		}
		kind := line.Type
		if line.ToolUseResult != nil {
			kind = "result"
		}
		got = append(got, kind+" "+cmp.Or(ids[line.PromptID], "-"))
	}
	want := []string{"user p1", "assistant -", "result p1", "user p2", "assistant -", "user p3", "assistant -", "result p3", "assistant -"}
	if !slices.Equal(got, want) {
		t.Errorf("lines and their promptIds %q, want %q", got, want)
	}
	for id := range ids {
		if !uuidV4.MatchString(id) {
			t.Errorf("promptId %q is no UUID", id)
		}
	}
	child := newLog(t, session.Header{ID: "20260314-092700-child0", Parent: "20260314-092653-abcdef"})
	appendAll(t, child, sessiontest.Turn(1, "/w", "m", true)...)
	if b := syncRead(t, New(child, "test", nil)); bytes.Contains(b, []byte(`"promptId"`)) {
		t.Errorf("a subagent's lines carry a promptId:\n%s", b)
	}
}

// replyIDs are the message id and requestId of each assistant line of a
// transcript, which usage counters such as ccusage tell replies apart by.
func replyIDs(t *testing.T, b []byte) []string {
	t.Helper()
	var ids []string
	for _, raw := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var l struct {
			Type, RequestID string
			Message         struct{ ID string }
		}
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatalf("a line is not JSON (%v): %s", err, raw)
		}
		if l.Type == "assistant" {
			ids = append(ids, l.Message.ID+" "+l.RequestID)
		}
	}
	return ids
}

// appendAt logs ds as of at.
func appendAt(t *testing.T, l *session.Log, at time.Time, ds ...session.Data) {
	t.Helper()
	for _, d := range ds {
		if _, err := l.Append(at, d); err != nil {
			t.Fatal(err)
		}
	}
}

// forkOf is the fork of l made at at (--fork-session), open.
func forkOf(t *testing.T, l *session.Log, at time.Time) *session.Log {
	t.Helper()
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	path, err := session.Fork(l.Path(), "20260314-100000-f0f0f0", at)
	if err != nil {
		t.Fatal(err)
	}
	fork, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fork.Close() })
	return fork
}

// A fork's transcript gives the replies it copied the ids they have in
// the original, as Claude Code's copies of a session do, so ccusage
// (which dedupes by message id and requestId across files) counts them
// once; the replies each session goes on with have ids of their own.
func TestAForkKeepsTheIdsOfTheRepliesItCopied(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	fork := forkOf(t, l, t0.Add(time.Hour))
	appendAt(t, l, t0.Add(2*time.Hour), sessiontest.Turn(2, "/w", "m", true)...)
	appendAt(t, fork, t0.Add(3*time.Hour), sessiontest.Turn(2, "/w", "m", true)...)
	orig, copied := replyIDs(t, syncRead(t, New(l, "test", nil))), replyIDs(t, syncRead(t, New(fork, "test", nil)))
	if len(orig) != 4 || len(copied) != 4 {
		t.Fatalf("want 4 replies in each transcript, got %d and %d", len(orig), len(copied))
	}
	if !slices.Equal(copied[:2], orig[:2]) {
		t.Errorf("the fork's copied replies have ids %q, want the original's %q", copied[:2], orig[:2])
	}
	for _, id := range copied[2:] {
		if slices.Contains(orig, id) {
			t.Errorf("the fork's own reply has the ids %q of one of the original's %q", id, orig)
		}
	}
}

// A reply's ids are known as its step starts (stream-json's message_start
// gives the id before the reply streams): ReplyID of the step/start. Two
// subagents that start their steps together, as a batch of tasks does,
// and two sessions run side by side (tack -p in parallel), have ids of
// their own all the same.
func TestAReplysIdsComeFromItsStepsStart(t *testing.T) {
	var got, want []string
	for _, h := range []session.Header{
		{ID: "20260314-092653-aaaaaa", Parent: "20260314-092653-abcdef", Agent: "explore"},
		{ID: "20260314-092653-bbbbbb", Parent: "20260314-092653-abcdef", Agent: "explore"},
		{ID: "20260314-092653-cccccc"}, {ID: "20260314-092653-dddddd"},
	} {
		l := newLog(t, h)
		var starts []session.Event
		for _, d := range sessiontest.Turn(1, "/w", "m", true) {
			e, err := l.Append(t0, d)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := d.(session.StepStart); ok {
				starts = append(starts, e)
			}
		}
		got = append(got, replyIDs(t, syncRead(t, New(l, "test", nil)))...)
		for _, e := range starts {
			want = append(want, "msg_"+ReplyID(l.Header(), e)+" req_"+ReplyID(l.Header(), e))
		}
	}
	if len(got) != 8 || !slices.Equal(got, want) {
		t.Errorf("reply ids %q, want %q (msg_ and req_ and ReplyID of each step/start)", got, want)
	}
	if distinct := slices.Compact(slices.Sorted(slices.Values(got))); len(distinct) != 8 {
		t.Errorf("reply ids %q: two replies share ids", got)
	}
}

// acmePrices know one model, acme-coder, at $0.1, $1 and $2 a million
// cached, uncached and output tokens, and a free one.
func acmePrices() *llm.Catalog {
	c := llm.NewCatalog()
	c.Add(llm.Model{ID: "acme-coder", Price: llm.Price{CacheHit: 0.1, CacheMiss: 1, Output: 2}})
	c.Add(llm.Model{ID: "acme-free"})
	return c
}

// A reply on a priced model says what it cost in costUSD, as Claude Code
// wrote it, which ccusage takes over its own price list; one on a model
// without a price leaves ccusage to price it.
func TestAPricedReplySaysWhatItCost(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "acme-coder", false)...)
	appendAll(t, l, sessiontest.Turn(2, "/w", "acme-free", false)...)
	appendAll(t, l, sessiontest.Turn(3, "/w", "mystery-model", true)...)
	var costs []string
	for _, raw := range bytes.Split(bytes.TrimSpace(syncRead(t, New(l, "test", acmePrices()))), []byte("\n")) {
		var line struct {
			Type    string
			CostUSD *float64
		}
		if err := json.Unmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		if line.Type == "assistant" {
			costs = append(costs, costText(line.CostUSD))
		}
	}
	// 12,000 cached, 200 uncached and 150 output tokens a reply.
	want := []string{"0.0017", "0.0017", "-", "-", "-", "-"}
	if !slices.Equal(costs, want) {
		t.Errorf("costUSD of the replies %q, want %q", costs, want)
	}
}

// costText is a costUSD as the test compares it: "-" where there is none.
func costText(f *float64) string {
	if f == nil {
		return "-"
	}
	return strconv.FormatFloat(*f, 'g', 6, 64)
}

// A turn cut short or failed ends as Claude Code's do: with the user's
// interruption, or an API error no model wrote.
func TestTurnsThatDidNotCompleteSayWhy(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l,
		session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "go"},
		session.TurnEnd{Turn: 1, Reason: session.StopAborted},
		session.UserMessage{Turn: 2, Kind: session.KindPrompt, Text: "go on"},
		session.AssistantMessage{Turn: 2, Step: 1, Text: "", Finish: llm.FinishStop},
		session.TurnEnd{Turn: 2, Reason: session.StopError, Error: &session.Failure{Kind: "rate-limit", Message: "429 slow down"}},
	)
	b := string(syncRead(t, New(l, "test", nil)))
	for _, want := range []string{`"content":[{"type":"text","text":"[Request interrupted by user]"}]`,
		`"isApiErrorMessage":true`, `"model":"<synthetic>"`, `"text":"API Error: 429 slow down"`} {
		if !strings.Contains(b, want) {
			t.Errorf("transcript lacks %s:\n%s", want, b)
		}
	}
}

// A compaction is written as Claude Code writes one: a boundary that
// starts a new chain, saying whether /compact asked for it and how large
// the conversation was, then the summary.
func TestCompactionsSayTheirTriggerAndSize(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l,
		session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "go"},
		session.AssistantMessage{Turn: 1, Step: 1, Text: "ok", Finish: llm.FinishStop, Usage: llm.Usage{Input: 100, CacheRead: 900, Output: 50}},
		session.CommandRun{ID: "r1", Name: "compact", Input: "/compact"},
		session.UserMessage{Turn: 1, Kind: session.KindSummary, Text: "first summary", Replace: &session.Span{Start: 0, End: 1}},
		session.CommandDone{ID: "r1", Outcome: "success"},
		session.UserMessage{Turn: 2, Kind: session.KindSummary, Text: "second summary", Replace: &session.Span{Start: 0, End: 3}},
	)
	b := syncRead(t, New(l, "test", nil))
	lines := parseLines(t, b)
	if len(lines) != 6 {
		t.Fatalf("want a prompt, an answer and two compactions of two lines, got %d lines:\n%s", len(lines), b)
	}
	for i, want := range []string{`"trigger":"manual","preTokens":1050`, `"trigger":"auto","preTokens":1050`} {
		boundary := lines[2+2*i]
		if boundary.Subtype != "compact_boundary" || boundary.ParentUUID != nil || !strings.Contains(string(b), want) {
			t.Errorf("compaction %d: %+v, want a boundary without a parent and %s in:\n%s", i+1, boundary, want, b)
		}
		if summary := lines[3+2*i]; summary.ParentUUID == nil || *summary.ParentUUID != boundary.UUID {
			t.Errorf("compaction %d: the summary does not follow its boundary", i+1)
		}
	}
}

// An Edit's toolUseResult has what a diff viewer reads: the file, the
// strings and the hunks, also when the call and its answer were brought
// up to date by different syncs (a hook between them).
func TestAnEditsResultCarriesItsPatchAcrossSyncs(t *testing.T) {
	l := newLog(t, session.Header{})
	tr := New(l, "test", nil)
	args := `{"file_path":"main.go","old_string":"hi","new_string":"hello"}`
	diff := card.Card{Kind: card.Diff, Diffs: []card.FileDiff{{Path: "main.go", Added: 1, Removed: 1, Lines: []card.DiffLine{
		{Op: card.OpContext, Text: "func main() {", Old: 3, New: 3},
		{Op: card.OpDelete, Text: `	println("hi")`, Old: 4},
		{Op: card.OpAdd, Text: `	println("hello")`, New: 4},
		{Op: card.OpContext, Text: "}", Old: 5, New: 5},
	}}}}
	appendAll(t, l,
		session.TurnStart{Turn: 1},
		session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "Say hello"},
		session.StepStart{Turn: 1, Step: 1, Model: "deepseek-flash"},
		session.AssistantMessage{Turn: 1, Step: 1, ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "edit", Arguments: args}}, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: 1, Step: 1, CallID: "call_1", Name: "edit", Arguments: args})
	syncRead(t, tr)
	appendAll(t, l, session.ToolResult{Turn: 1, Step: 1, CallID: "call_1", Name: "edit", Text: "The file main.go has been updated.", Card: &diff})
	got := syncRead(t, tr)
	if want := fresh(t, l); !bytes.Equal(got, want) {
		t.Fatalf("synced in two:\n%s\nconverted at once:\n%s", got, want)
	}
	last := bytes.Split(bytes.TrimSuffix(got, []byte("\n")), []byte("\n"))
	var result struct {
		ToolUseResult struct {
			FilePath, OldString, NewString string
			StructuredPatch                []struct {
				OldStart, OldLines, NewStart, NewLines int
				Lines                                  []string
			}
		}
	}
	if err := json.Unmarshal(last[len(last)-1], &result); err != nil {
		t.Fatal(err)
	}
	r := result.ToolUseResult
	if r.FilePath != "/workspace/project/main.go" || r.OldString != "hi" || r.NewString != "hello" || len(r.StructuredPatch) != 1 ||
		r.StructuredPatch[0].OldStart != 3 || r.StructuredPatch[0].NewLines != 3 || len(r.StructuredPatch[0].Lines) != 4 {
		t.Errorf("want the edit of /workspace/project/main.go with one hunk from line 3, got %+v", r)
	}
}

// A search's toolUseResult tells how long it took, as the session log
// recorded the tool's run.
func TestAGlobsResultTellsHowLongItTook(t *testing.T) {
	l := newLog(t, session.Header{})
	args := `{"pattern":"*.go"}`
	appendAll(t, l,
		session.TurnStart{Turn: 1},
		session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "List the Go files"},
		session.StepStart{Turn: 1, Step: 1, Model: "deepseek-flash"},
		session.AssistantMessage{Turn: 1, Step: 1, ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "glob", Arguments: args}}, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: 1, Step: 1, CallID: "call_1", Name: "glob", Arguments: args},
		session.ToolResult{Turn: 1, Step: 1, CallID: "call_1", Name: "glob", Text: "/workspace/project/main.go",
			Card: &card.Card{Kind: card.Search, Found: &card.Found{Files: []string{"/workspace/project/main.go"}, Total: 1}}, DurationMs: 1250})
	got := syncRead(t, New(l, "test", nil))
	last := bytes.Split(bytes.TrimSuffix(got, []byte("\n")), []byte("\n"))
	var result struct {
		ToolUseResult struct {
			DurationMs int64
			Filenames  []string
		}
	}
	if err := json.Unmarshal(last[len(last)-1], &result); err != nil {
		t.Fatal(err)
	}
	if r := result.ToolUseResult; r.DurationMs != 1250 || len(r.Filenames) != 1 {
		t.Errorf("want the glob's answer timed at 1250 ms, got %+v", r)
	}
}
