package session

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// scannedTypes are the event types scanEvent decodes itself.
var scannedTypes = map[string]bool{
	"turn/start": true, "user/message": true, "step/start": true, "assistant/message": true, "tool/call": true,
	"tool/result": true, "step/end": true, "turn/end": true, "todo/write": true, "checkpoint": true,
}

// scanCorpus is every event type, and every field of the scanned ones set
// at least once, with texts that need escapes.
func scanCorpus() []Data {
	exit, hostile := -1, "tab\there \"quoted\" back\\slash \u2028 nul\x00 bell\x07 é 😀 <&> </script>\r\n"
	out := everyType()
	return append(out,
		UserMessage{Turn: 2, Kind: KindContext, Text: hostile, Origin: "bash"},
		UserMessage{Turn: 2, Kind: KindPrompt, Text: hostile, Typed: "/commit " + hostile},
		AssistantMessage{Turn: 2, Step: 3, Text: hostile, Reasoning: hostile, Finish: llm.FinishMaxTokens,
			ToolCalls: []llm.ToolCall{{ID: "a", Name: "read", Arguments: `{"path":"x"}`, Extra: json.RawMessage(`{"google":{"thought_signature":"c2ln"}}`)},
				{ID: "b", Name: "edit", Arguments: hostile}}},
		ToolCall{Turn: 2, Step: 3, CallID: "b", Name: "edit", Arguments: hostile, Card: card.Card{Kind: card.Diff, Title: hostile,
			Description: "d", Body: "b", Truncated: true, Todos: []card.TodoItem{{Content: hostile, Status: card.TodoInProgress}},
			Diffs: []card.FileDiff{{Path: "a.go", Created: true, Added: 2, Removed: 1, Approximate: true,
				Lines: []card.DiffLine{{Op: card.OpAdd, Text: hostile}, {Op: card.OpGap}}}, {Path: "b.go"}}}},
		ToolResult{Turn: 2, Step: 3, CallID: "b", Name: "bash", Text: hostile, Card: &card.Card{Kind: card.Terminal,
			Terminal: &card.TerminalView{Command: hostile, Cwd: "/w", Output: hostile, ExitCode: &exit, Signal: "KILL",
				TimedOut: true, Interrupted: true, Background: "t1"}}},
		ToolResult{Turn: 2, Step: 3, CallID: "c", Name: "bash", Text: "\xff invalid UTF-8 is replaced"},
		TodoWrite{Turn: 2},
		TodoWrite{Turn: 2, Todos: []card.TodoItem{}},
		TurnEnd{Turn: 2, Reason: StopMaxTokens},
		Checkpoint{Turn: 2, Step: 1, Phase: PhaseRestored, ID: "9a", Store: "files", Changed: []string{hostile, "b.go"},
			Skipped: []SkippedFile{{Path: hostile, Size: 1 << 40, Reason: "too large"}, {Path: "c"}}, Error: hostile, Notice: hostile},
		Checkpoint{Turn: 3, Phase: PhaseTurn, Changed: []string{}},
		StepEnd{Turn: 1 << 40, Step: -3},
	)
}

// corpusLines encodes the corpus as the log writes it.
func corpusLines(t testing.TB) [][]byte {
	enc := newLineEncoder()
	var lines [][]byte
	for i, d := range scanCorpus() {
		line, err := enc.encode(Event{Type: d.EventType(), Seq: int64(i), Time: at(i), Data: d})
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Clone(bytes.TrimSuffix(line, []byte("\n"))))
	}
	return lines
}

// checkScanAgrees fails t if scanEvent decodes line to anything but what
// encoding/json decodes it to, or if the line decoded for a fold folds to
// anything else. It reports whether the scanner decoded it.
func checkScanAgrees(t *testing.T, line []byte) bool {
	t.Helper()
	typ, err := lineType(line)
	if err != nil || typ == "" {
		return false
	}
	got, ok := scanEvent(typ, line, new(textArena))
	folded, foldErr := decodeEvent(line, &textArena{fold: true})
	if !ok {
		if foldErr == nil && folded.sized {
			t.Errorf("line %q: want the scanner to give up when decoding for a fold too, got %#v", line, folded.event)
		}
		return false
	}
	want, known, err := decodeTyped(typ, line)
	switch {
	case !known || err != nil:
		t.Errorf("line %q: want the scanner to give up like encoding/json (known %v, %v), got %#v", line, known, err, got)
	case !reflect.DeepEqual(got, want):
		t.Errorf("line %q:\nwant %#v\ngot  %#v", line, want, got)
	case foldErr != nil || !folded.sized:
		t.Errorf("line %q: want it scanned for a fold too, got %v (sized %v)", line, foldErr, folded.sized)
	default:
		checkFoldAgrees(t, line, folded, want)
	}
	return true
}

// checkFoldAgrees fails t unless folded, a line decoded for a fold, folds
// into a projection without message bodies exactly as the whole event.
func checkFoldAgrees(t *testing.T, line []byte, folded decoded, whole Event) {
	t.Helper()
	got, want := NewProjection(Header{}), NewProjection(Header{})
	got.refs, want.refs = true, true
	got.fold(folded.event, folded.messageSize())
	want.Apply(whole)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("line %q folded for a fold:\nwant %#v\ngot  %#v", line, want, got)
	}
}

func TestScanEventAgreesWithEncodingJSON(t *testing.T) {
	for _, line := range corpusLines(t) {
		typ, _ := lineType(line)
		if got := checkScanAgrees(t, line); got != scannedTypes[typ] {
			t.Errorf("line %s: want scanned %v, got %v", line, scannedTypes[typ], got)
		}
	}
}

func TestScanEventLeavesOddLinesToEncodingJSON(t *testing.T) {
	for _, line := range []string{
		`{"type":"turn/start","seq":0,"time":1,"data":{"Turn":1}}`,    // encoding/json folds case
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1.0}}`,  // not an integer
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":null}}`, // null leaves the value alone
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":01}}`,   // leading zero
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":12345678901234567890}}`,
		`{"type":"turn/start","time":1,"data":{"turn":1}}`,                      // no seq
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}} x`,            // trailing bytes
		`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1},"extra":true}`, // unknown key
		`{"type":"todo/write","seq":0,"time":1,"data":{"todos":[],"todos":[{"content":"a"}]}}`,
		`{"type":"user/message","seq":0,"time":1,"data":{"text":"\'"}}`,
		"{\"type\":\"user/message\",\"seq\":0,\"time\":1,\"data\":{\"text\":\"a\x01\"}}",
	} {
		if checkScanAgrees(t, []byte(line)) {
			t.Errorf("line %s: want it left to encoding/json, got it scanned", line)
		}
	}
}

// TestScanEventDecodesEscapesAsEncodingJSON pins the strings and keys the
// scanner decodes as encoding/json does: escaped keys, surrogate pairs and
// unpaired surrogates, invalid UTF-8.
func TestScanEventDecodesEscapesAsEncodingJSON(t *testing.T) {
	for _, line := range []string{
		`{"type":"turn/start","seq":0,"time":1,"data":{"tu\u0072n":1}}`,
		`{"type":"turn\/start","seq":0,"time":1,"data":{"turn":1}}`,
		`{"type":"user/message","seq":0,"time":1,"data":{"text":"\ud83d\ude00 \ud83d \ude00\ud83d"}}`,
		"{\"type\":\"user/message\",\"seq\":0,\"time\":1,\"data\":{\"text\":\"\xc3 \xed\xa0\x80 \\n\xff\"}}",
	} {
		if !checkScanAgrees(t, []byte(line)) {
			t.Errorf("line %s: want it scanned, got it left to encoding/json", line)
		}
	}
}

// TestScanEventAgreesOnMergesAndNulls pins the cases where encoding/json
// decodes oddly but the scanner can follow: repeated keys merge into the
// first value, null resets pointers and slices.
func TestScanEventAgreesOnMergesAndNulls(t *testing.T) {
	for _, line := range []string{
		`{"type":"tool/result","seq":0,"time":1,"data":{"card":{"kind":"terminal","terminal":{"exit_code":1}},"card":{"title":"t","terminal":{"output":"o"}}}}`,
		`{"type":"tool/result","seq":0,"time":1,"data":{"card":{"kind":"terminal"},"card":null,"replace":{"start":1},"replace":{"end":2}}}`,
		`{"type":"todo/write","seq":0,"time":1,"data":{"todos":[{"content":"a"}],"todos":null,"turn":1,"turn":2}}`,
		`{"type":"step/end","seq":0,"time":1,"seq":1,"data":{"timing":{"tools":1}},"data":{"timing":{"thinking":2}}}`,
		`{"type":"step/end","seq":0,"data":null,"ignorable":false}`,
		` { "type" : "turn/end" , "seq" : 3 , "time" : -5 , "data" : { "turn" : -0 , "error" : null } } ` + "\r",
	} {
		if !checkScanAgrees(t, []byte(line)) {
			t.Errorf("line %s: want it scanned, got it left to encoding/json", line)
		}
	}
}

// mutate changes line at random in one of the ways a torn, hand-edited or
// foreign log differs from what the writer produced.
func mutate(r *rand.Rand, line []byte) []byte {
	tokens := []string{`"`, `\`, `{`, `}`, `[`, `]`, `,`, `:`, ` `, `0`, `-`, `1e3`, `.5`, `null`, `true`, `"x"`,
		`\u00e9`, `\ud800`, `\n`, "\x01", "\xff", "é", `"turn":2,`, `"card":null,`, `"todos":[],`}
	out := bytes.Clone(line)
	for range 1 + r.IntN(3) {
		i := r.IntN(len(out) + 1)
		switch r.IntN(4) {
		case 0:
			out = append(out[:i:i], append([]byte(tokens[r.IntN(len(tokens))]), out[i:]...)...)
		case 1:
			if i < len(out) {
				out = append(out[:i:i], out[i+1:]...)
			}
		case 2:
			if i < len(out) {
				out[i] = tokens[r.IntN(len(tokens))][0]
			}
		case 3: // repeat a span elsewhere, which repeats keys
			j := r.IntN(len(out) + 1)
			lo, hi := min(i, j), max(i, j)
			at := r.IntN(len(out) + 1)
			out = append(out[:at:at], append(bytes.Clone(out[lo:hi]), out[at:]...)...)
		}
	}
	return out
}

func TestScanEventAgreesOnMutatedLines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lines := corpusLines(t)
	scanned := 0
	for range 100_000 {
		if checkScanAgrees(t, mutate(r, lines[r.IntN(len(lines))])) {
			scanned++
		}
	}
	// Most mutations break a line; enough must survive to test something.
	if scanned < 2_500 {
		t.Errorf("want at least 2500 mutated lines scanned, got %d", scanned)
	}
}

func FuzzScanEvent(f *testing.F) {
	for _, line := range corpusLines(f) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkScanAgrees(t, line) })
}
