package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// FormatVersion is the header version this package writes and reads.
const FormatVersion = 1

// headerType is the type field of the header line.
const headerType = "session"

// ErrCorrupt marks a log whose lines cannot be trusted: a broken line before
// the last one, a gap in seq, a missing header.
var ErrCorrupt = errors.New("session log is corrupt")

// UnknownTypeError is returned by readers for a required event type this
// version does not know. Ignorable unknown types are skipped instead.
type UnknownTypeError struct {
	Path string
	Type string
	Line int
}

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("session log %s uses event type %s at line %d, which this version of tack does not know; upgrade tack to open it",
		e.Path, e.Type, e.Line)
}

// eventCodec is what this package knows of an event type: how to decode
// its lines, with encoding/json and, for the types a turn is made of, with
// the scanner (eventscan.go), and whether it is log-only.
type eventCodec struct {
	typed func(line []byte) (Event, error)
	// scan is nil for a type only encoding/json decodes.
	scan      func(s *scanner) (Event, bool)
	ignorable bool
}

// codecs holds every event type this version reads, by type name.
var codecs = codecTable(
	scanCodec((*scanner).turnStart), scanCodec((*scanner).userMessage), scanCodec((*scanner).stepStart),
	scanCodec((*scanner).assistantMessage), scanCodec((*scanner).toolCall), scanCodec((*scanner).toolResult),
	scanCodec((*scanner).stepEnd), scanCodec((*scanner).turnEnd), scanCodec((*scanner).todoWrite),
	jsonCodec[SteeringMessage](false), jsonCodec[ModelSelect](false), jsonCodec[PermissionMode](false),
	jsonCodec[PlanMode](false), jsonCodec[Rewind](false),
	jsonCodec[Retry](true), jsonCodec[InboxDiscard](true), jsonCodec[Title](true), jsonCodec[CommandRun](true),
	jsonCodec[CommandDone](true), jsonCodec[ApprovalAsked](true), jsonCodec[ApprovalDecided](true),
	jsonCodec[CompactStart](true), jsonCodec[CompactEnd](true), jsonCodec[HookRun](true),
	ignorable(scanCodec((*scanner).checkpoint)),
	jsonCodec[TaskStart](true), jsonCodec[TaskUsage](true), jsonCodec[SideUsage](true),
)

// namedCodec is a codec and the type it decodes.
type namedCodec struct {
	name string
	eventCodec
}

func codecTable(list ...namedCodec) map[string]namedCodec {
	out := make(map[string]namedCodec, len(list))
	for _, c := range list {
		out[c.name] = c
	}
	return out
}

// jsonCodec is the codec of a type only encoding/json decodes.
func jsonCodec[T Data](ignorable bool) namedCodec {
	var zero T
	return namedCodec{zero.EventType(), eventCodec{typed: decodeAs[T], ignorable: ignorable}}
}

// scanCodec is the codec of a type the scanner decodes with payload.
func scanCodec[T Data](payload func(*scanner, *T)) namedCodec {
	c := jsonCodec[T](false)
	c.scan = func(s *scanner) (Event, bool) { return scanAs(s, payload) }
	return c
}

// ignorable marks the events of c log-only.
func ignorable(c namedCodec) namedCodec {
	c.ignorable = true
	return c
}

// Ignorable reports whether events of type t are log-only, so that a reader
// that does not know t may skip them.
func Ignorable(t string) bool { return codecs[t].ignorable }

// decodeTyped decodes a whole event line whose type is t into the
// payload's value type, in one json.Unmarshal. known is false for a type
// this version does not have.
func decodeTyped(t string, line []byte) (e Event, known bool, err error) {
	c, ok := codecs[t]
	if !ok {
		return Event{}, false, nil
	}
	e, err = c.typed(line)
	return e, true, err
}

// typedLine is the wire shape of an event line of a known type. The type
// and ignorable keys are left to the caller.
type typedLine[T Data] struct {
	Seq  *int64 `json:"seq"`
	Time int64  `json:"time"`
	Data T      `json:"data"`
}

func decodeAs[T Data](line []byte) (Event, error) {
	var w typedLine[T]
	if err := json.Unmarshal(line, &w); err != nil {
		return Event{}, err
	}
	if w.Seq == nil {
		return Event{}, errors.New("event line without seq")
	}
	return Event{Type: w.Data.EventType(), Seq: *w.Seq, Time: time.UnixMilli(w.Time), Data: w.Data}, nil
}

// untypedLine is the wire shape of an event line of an unknown type.
type untypedLine struct {
	Type      string `json:"type"`
	Seq       *int64 `json:"seq"`
	Time      int64  `json:"time"`
	Ignorable bool   `json:"ignorable"`
}

// decoded is one parsed event line. skip is set for an ignorable event of
// an unknown type: it holds a seq but carries nothing for this version.
type decoded struct {
	event Event
	skip  bool
	// sized says the line was decoded for a fold, which left texts of its
	// message empty; size is then the size of that message (messageBytes).
	sized bool
	size  int
}

// messageSize is the size of the event's message for Projection.fold:
// -1 when the message holds its texts and can be measured.
func (d decoded) messageSize() int {
	if !d.sized {
		return -1
	}
	return d.size
}

// errUnknownType is wrapped into an *UnknownTypeError by the reader, which
// knows the path and line.
type errUnknownType struct{ typ string }

func (e errUnknownType) Error() string { return "unknown event type " + e.typ }

// typePrefix starts every line this package writes; lineType reads the
// type from it without decoding the line.
const typePrefix = `{"type":"`

// lineType returns the type of an event line: from the prefix when the line
// has the canonical key order, else by decoding the line.
func lineType(line []byte) (string, error) {
	if len(line) > len(typePrefix) && string(line[:len(typePrefix)]) == typePrefix {
		rest := line[len(typePrefix):]
		if i := bytes.IndexByte(rest, '"'); i > 0 && bytes.IndexByte(rest[:i], '\\') < 0 {
			// A known type's name comes from the table, not from a new
			// string each line.
			if c, ok := codecs[string(rest[:i])]; ok {
				return c.name, nil
			}
			return string(rest[:i]), nil
		}
	}
	var w untypedLine
	if err := json.Unmarshal(line, &w); err != nil {
		return "", err
	}
	return w.Type, nil
}

// decodeEvent decodes an event line, most of its strings into text, or,
// with text.fold, what a fold needs of it.
func decodeEvent(line []byte, text *textArena) (decoded, error) {
	t, err := lineType(line)
	if err != nil {
		return decoded{}, err
	}
	if t == "" {
		return decoded{}, errors.New("event line without type")
	}
	if e, ok := scanEvent(t, line, text); ok {
		d := decoded{event: e, sized: text.fold}
		if d.sized {
			m, _ := surfaceMessage(e)
			d.size = messageBytes(m) + text.sc.measured
		}
		return d, nil
	}
	e, known, err := decodeTyped(t, line)
	if err != nil {
		return decoded{}, fmt.Errorf("%s event: %w", t, err)
	}
	if known {
		return decoded{event: e}, nil
	}
	var w untypedLine
	if err := json.Unmarshal(line, &w); err != nil {
		return decoded{}, err
	}
	if w.Seq == nil {
		return decoded{}, errors.New("event line without seq")
	}
	if !w.Ignorable && !Ignorable(t) {
		return decoded{}, errUnknownType{t}
	}
	return decoded{event: Event{Type: t, Seq: *w.Seq, Time: time.UnixMilli(w.Time)}, skip: true}, nil
}

// headerWire is the header line on disk; times are unix milliseconds like
// event times.
type headerWire struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	ID      string `json:"id"`
	Created int64  `json:"created"`
	Cwd     string `json:"cwd"`
	Model   string `json:"model"`
	Parent  string `json:"parent,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Branch  string `json:"branch,omitempty"`
	// ForkedFrom is Header.ForkedFrom.
	ForkedFrom string `json:"forked_from,omitempty"`
}

func encodeHeader(h Header) ([]byte, error) {
	b, err := json.Marshal(headerWire{headerType, h.Version, h.ID, h.Created.UnixMilli(), h.Cwd, h.Model, h.Parent, h.Agent, h.Branch, h.ForkedFrom})
	if err != nil {
		return nil, fmt.Errorf("encode session header: %w", err)
	}
	return append(b, '\n'), nil
}

func decodeHeader(line []byte) (Header, error) {
	var w headerWire
	if err := json.Unmarshal(line, &w); err != nil {
		return Header{}, err
	}
	if w.Type != headerType {
		return Header{}, fmt.Errorf("first line has type %q, want %q", w.Type, headerType)
	}
	if w.Version > FormatVersion {
		return Header{}, fmt.Errorf("format version %d is newer than this tack reads (%d); upgrade tack to open it", w.Version, FormatVersion)
	}
	return Header{Version: w.Version, ID: w.ID, Created: time.UnixMilli(w.Created), Cwd: w.Cwd, Model: w.Model, Parent: w.Parent, Agent: w.Agent, Branch: w.Branch,
		ForkedFrom: w.ForkedFrom}, nil
}

// lineEncoder writes event lines into a reused buffer. It does not escape
// HTML characters, which keeps code in tool output readable in the log.
type lineEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newLineEncoder() *lineEncoder {
	le := &lineEncoder{}
	le.enc = json.NewEncoder(&le.buf)
	le.enc.SetEscapeHTML(false)
	return le
}

// encode returns the line for e, newline included. The slice is valid until
// the next call.
func (le *lineEncoder) encode(e Event) ([]byte, error) {
	le.buf.Reset()
	le.buf.WriteString(`{"type":`)
	le.buf.WriteString(strconv.Quote(e.Type))
	le.buf.WriteString(`,"seq":`)
	le.buf.WriteString(strconv.FormatInt(e.Seq, 10))
	le.buf.WriteString(`,"time":`)
	le.buf.WriteString(strconv.FormatInt(e.Time.UnixMilli(), 10))
	le.buf.WriteString(`,"data":`)
	if err := le.enc.Encode(e.Data); err != nil {
		return nil, fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	le.buf.Truncate(le.buf.Len() - 1) // Encode's newline
	if Ignorable(e.Type) {
		le.buf.WriteString(`,"ignorable":true`)
	}
	le.buf.WriteString("}\n")
	return le.buf.Bytes(), nil
}
