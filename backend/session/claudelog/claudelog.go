// Package claudelog keeps a Claude Code transcript of a tack session: the
// JSONL file Claude Code writes of each session, which hook and status
// line scripts written for it read at transcript_path. It is derived from
// the session log and brought up to date on demand, each time appending
// only the lines of the events logged since the last.
package claudelog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// format is the version of the conversion; a transcript saved by another
// is written again from the start. 2: a reply's ids derive from its event,
// not its session, and a priced reply says its costUSD. 3: the model's
// titles are ai-title lines. 4: user lines say their promptId. 5: the
// user's name is a custom-title line. 6: a prompt's promptId derives from
// its turn, and what hooks add carries the promptId of the input before.
const format = 6

// flushBytes is how much converted text Sync gathers before writing it.
const flushBytes = 256 << 10

// Transcript is the Claude Code transcript of one open session log. Its
// methods are safe for concurrent use.
type Transcript struct {
	mu      sync.Mutex
	log     *session.Log
	path    string
	version string
	prices  Prices
	st      state
	loaded  bool // st holds the saved state, or a fresh start
	// written says a Sync of this process left the file holding the
	// lines of st exactly.
	written bool
}

// Prices are the models whose price a reply's costUSD is reckoned at
// (an *llm.Catalog).
type Prices interface {
	Lookup(ref string) (llm.Model, bool)
}

// New is the transcript of log, its lines naming version as the version
// that wrote them and the cost of each reply on a model prices knows
// (none with nil prices). It touches no file until Sync.
func New(log *session.Log, version string, prices Prices) *Transcript {
	return &Transcript{log: log, path: Path(log.Path(), log.Header()), version: version, prices: prices}
}

// Path is where the transcript of the session logged at logPath, with
// header h, is kept: in the session's directory beside its log, under
// claude/, named for the session as Claude Code names its files. A
// subagent's is kept under its parent's, where Claude Code keeps them:
// <parent>/subagents/agent-<id>.jsonl.
func Path(logPath string, h session.Header) string {
	dir := filepath.Dir(logPath)
	if h.Parent == "" {
		return filepath.Join(dir, h.ID, "claude", h.ID+".jsonl")
	}
	return filepath.Join(dir, h.Parent, "claude", h.Parent, "subagents", "agent-"+h.ID+".jsonl")
}

// Path is the transcript's file.
func (t *Transcript) Path() string { return t.path }

// PromptIDSince is the promptId of the latest input of the user's the
// transcript held after the last Sync, if that input's event is at seq
// from or after it: the prompt_id of the status line and of hooks, which
// name no input of an earlier process, as Claude Code's name none before
// the first input of its own. It is "" before then, and in a subagent's
// transcript.
func (t *Transcript) PromptIDSince(from int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.st.PromptSeq < from {
		return ""
	}
	return t.st.Prompt
}

// TurnPromptID is the promptId the prompt that starts turn carries:
// known before the prompt is logged, so that a UserPromptSubmit hook,
// which runs before, is told the id the prompt's lines then carry. It is
// "" in a subagent's transcript.
func (t *Transcript) TurnPromptID(turn int) string {
	if h := t.log.Header(); h.Parent == "" {
		return turnPromptID(h.ID, turn)
	}
	return ""
}

// Sync appends to the transcript the lines of the events logged since
// the last Sync, of this process or an earlier one. On an error the file
// holds the lines of the last Sync that succeeded, perhaps with part of
// a line after them that the next Sync cuts off as it tries again.
func (t *Transcript) Sync() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.loaded {
		t.st, t.loaded = t.load(), true
	}
	if t.written && t.st.Next >= t.log.NextSeq() {
		// Nothing new (the status line asks after every change). A
		// Sync that failed left events to convert, so the next one
		// cuts off what it wrote.
		return nil
	}
	st, err := t.append()
	if err == nil && !reflect.DeepEqual(st, t.st) {
		err = t.save(st)
	}
	if err != nil {
		return fmt.Errorf("bring the Claude Code transcript %s up to date: %w; hooks and the status line read it as it was, "+
			"and tack tries again at their next run (check that the directory is writable and the disk not full)", t.path, err)
	}
	t.st, t.written = st, true
	return nil
}

// append writes the lines of the events from t.st.Next on after the
// t.st.Size bytes that hold those before, and returns the state after.
func (t *Transcript) append() (state, error) {
	f, from, err := t.open(t.st)
	if err != nil {
		return t.st, err
	}
	defer f.Close()
	c := t.converter(from, false)
	next, size := max(from.Next, t.log.NextSeq()), from.Size
	flush := func() error {
		n, err := f.Write(c.out.Bytes())
		size += int64(n)
		c.out.Reset()
		return err
	}
	var werr error
	err = t.log.Scan(from.Next, eventTypes, func(e session.Event) bool {
		c.add(e)
		next = max(next, e.Seq+1)
		if c.out.Len() >= flushBytes && c.err == nil {
			werr = flush()
		}
		return c.err == nil && werr == nil
	})
	if err = errors.Join(err, c.err, werr); err == nil {
		err = flush()
	}
	c.st.Next, c.st.Size = next, size
	return c.st, err
}

// open opens the transcript to write the lines of the events from st.Next
// on after the st.Size bytes that hold those before, cutting off what
// follows them (the tail of a Sync that did not finish); or from the
// start, with st reset, where the file holds fewer (it was cut or removed
// behind tack's back).
func (t *Transcript) open(st state) (*os.File, state, error) {
	if err := os.MkdirAll(filepath.Dir(t.path), 0o700); err != nil {
		return nil, st, err
	}
	f, err := os.OpenFile(t.path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, st, err
	}
	info, err := f.Stat()
	if err == nil && info.Size() < st.Size {
		st = state{}
	}
	if err == nil {
		err = f.Truncate(st.Size)
	}
	if err == nil {
		_, err = f.Seek(st.Size, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, st, err
	}
	return f, st, nil
}

// converter converts the log's events from st on; dry ones encode
// nothing.
func (t *Transcript) converter(st state, dry bool) *converter {
	c := newConverter(t.log.Header(), t.version, st, dry, t.replay)
	c.prices = t.prices
	return c
}

// replay is the head of the conversation as it stood just before the
// event at seq before: where a rewind takes it back to.
func (t *Transcript) replay(before int64) (string, error) {
	c := t.converter(state{}, true)
	err := t.log.Scan(0, eventTypes, func(e session.Event) bool {
		if e.Seq >= before {
			return false
		}
		c.add(e)
		return c.err == nil
	})
	return c.st.Head, errors.Join(err, c.err)
}

// saved is the state kept beside the transcript.
type saved struct {
	Format  int    `json:"format"`
	Session string `json:"session"`
	state
}

// statePath is the file of the saved state.
func (t *Transcript) statePath() string { return t.path + ".state" }

// load is the state an earlier Sync saved, or a fresh start where there
// is none that fits: lost, from another version, describing more than the
// file holds, or more events than the log does (a crash lost the end of
// the log after the transcript had its lines).
func (t *Transcript) load() state {
	b, err := os.ReadFile(t.statePath())
	if err != nil {
		return state{}
	}
	var s saved
	if json.Unmarshal(b, &s) != nil || s.Format != format || s.Session != t.log.Header().ID || s.Next > t.log.NextSeq() {
		return state{}
	}
	info, err := os.Stat(t.path)
	if err != nil || info.Size() < s.Size {
		return state{}
	}
	return s.state
}

// save keeps st beside the transcript, replacing the file whole so a
// crash leaves the old state or the new one.
func (t *Transcript) save(st state) error {
	b, err := json.Marshal(saved{Format: format, Session: t.log.Header().ID, state: st})
	if err != nil {
		return err
	}
	tmp := t.statePath() + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, t.statePath())
}
