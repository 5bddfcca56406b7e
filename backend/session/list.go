package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// listWindow is how much of each end of a log List reads.
const listWindow = 64 << 10

// Summary describes one session for pickers, read from the ends of its log.
type Summary struct {
	ID    string
	Path  string
	Cwd   string
	Title string // "" when the log has neither a title nor a prompt near its ends
	// FirstPrompt is the first line of the session's first prompt, ""
	// when its first 64 KB hold none.
	FirstPrompt string
	// Branch is the git branch the session was started on (Header.Branch).
	Branch string
	// Turns is how many turns (prompts) the session had, read from the
	// last event that names its turn; 0 when none does.
	Turns int
	// Messages is how many messages it logged (Totals.Messages), from its
	// index and the lines after it, or from the whole log when it has no
	// current index (one killed before it wrote its first, or indexed by
	// an older tack) and is short enough (counter.messageCount); -1 when
	// that is unknown, until opening the session rebuilds its index.
	Messages int
	Created  time.Time
	// LastActive is the time of the last complete event, else the file's
	// modification time.
	LastActive time.Time
	Size       int64
	// OpenPID is the process holding the session open: 0 when none, -1
	// when the holder is unknown.
	OpenPID int
	// Parent is the session a subagent's session was started by.
	Parent string
	// Err says why the log cannot be read; the other fields are partial.
	Err error
}

// List summarizes the sessions of workspace cwd, or of every workspace when
// all is set, newest activity first. It reads only the first and last
// 64 KB of each log, and the head of its index and what that does not
// cover, so its cost does not grow with session length.
func List(home, cwd string, all bool) ([]Summary, error) { return listSessions(home, cwd, all, true) }

// listSessions is List, leaving message counts unknown unless counted is set.
func listSessions(home, cwd string, all, counted bool) ([]Summary, error) {
	dirs := []string{Dir(home, cwd)}
	if all {
		entries, err := os.ReadDir(sessionsRoot(home))
		if err != nil && !isNotExist(err) {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		dirs = dirs[:0]
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(sessionsRoot(home), e.Name()))
			}
		}
	}
	var out []Summary
	buf := make([]byte, 2*listWindow)
	var c *counter
	if counted {
		c = newCounter()
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil && !isNotExist(err) {
			return nil, fmt.Errorf("list sessions in %s: %w", dir, err)
		}
		// Newest first (ids start with their creation time), so the
		// sessions a counting budget reaches are the ones on top.
		for _, e := range slices.Backward(entries) {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), logExt) {
				out = append(out, summarize(filepath.Join(dir, e.Name()), buf, c))
			}
		}
	}
	slices.SortFunc(out, func(a, b Summary) int {
		if c := b.LastActive.Compare(a.LastActive); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

// summarize reads the ends of one log into buf, which must hold two
// windows, and, when c is not nil, its message count with it
// (counter.messageCount).
func summarize(path string, buf []byte, c *counter) Summary {
	s := Summary{ID: idFromPath(path), Path: path, Messages: -1}
	f, err := os.Open(path)
	if err != nil {
		s.Err = err
		return s
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		s.Err = err
		return s
	}
	s.Size, s.LastActive = info.Size(), info.ModTime()
	head, tail, err := readEnds(f, s.Size, buf)
	if err != nil {
		s.Err = fmt.Errorf("read session log %s: %w", path, err)
		return s
	}
	nl := bytes.IndexByte(head, '\n')
	if nl < 0 {
		s.Err = fmt.Errorf("%w: %s has no complete header line", ErrCorrupt, path)
		return s
	}
	h, err := decodeHeader(head[:nl])
	if err != nil {
		s.Err = fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
		return s
	}
	s.Cwd, s.Created, s.Parent, s.Branch = h.Cwd, h.Created, h.Parent, h.Branch
	if c != nil {
		if n, ok := c.messageCount(path, f, s.Size, h, head[:nl+1]); ok {
			s.Messages = n
		}
	}
	head = head[nl+1:]
	if tail == nil {
		tail = head
	}
	if t, ok := lastEventTime(tail); ok {
		s.LastActive = t
	}
	s.Title = lastTitle(tail)
	if s.Title == "" {
		s.Title = lastTitle(head)
	}
	s.FirstPrompt = firstPromptTitle(head)
	if s.Title == "" {
		s.Title = s.FirstPrompt
	}
	if s.Turns = lastTurn(tail); s.Turns == 0 {
		s.Turns = lastTurn(head)
	}
	s.OpenPID = lockHolder(path)
	return s
}

// readEnds returns the first window of the file and, when the file is
// longer than one window, its last window starting at a line boundary
// (nil otherwise).
func readEnds(f *os.File, size int64, buf []byte) (head, tail []byte, err error) {
	n, err := f.ReadAt(buf[:min(size, listWindow)], 0)
	if err != nil && err != io.EOF {
		return nil, nil, err
	}
	head = buf[:n]
	if size <= listWindow {
		return head, nil, nil
	}
	start := max(size-listWindow, int64(n))
	m, err := f.ReadAt(buf[listWindow:listWindow+(size-start)], start)
	if err != nil && err != io.EOF {
		return nil, nil, err
	}
	tail = buf[listWindow : listWindow+m]
	if start > int64(n) || head[n-1] != '\n' {
		// The window may begin mid-line: drop up to the first newline.
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		} else {
			tail = tail[:0]
		}
	}
	return head, tail, nil
}

// completeLines cuts a trailing partial line off chunk.
func completeLines(chunk []byte) []byte {
	return chunk[:bytes.LastIndexByte(chunk, '\n')+1]
}

// lastEventTime is the time of the last complete line of chunk.
func lastEventTime(chunk []byte) (time.Time, bool) {
	chunk = completeLines(chunk)
	for len(chunk) > 0 {
		line := chunk[bytes.LastIndexByte(chunk[:len(chunk)-1], '\n')+1:]
		chunk = chunk[:len(chunk)-len(line)]
		var env struct {
			Time *int64 `json:"time"`
		}
		if json.Unmarshal(line, &env) == nil && env.Time != nil {
			return time.UnixMilli(*env.Time), true
		}
	}
	return time.Time{}, false
}

// lastTurn is the turn number of the last complete line of chunk that
// names one first in its data, as every event of a turn is encoded: it is
// the session's turn count when the log ends inside or after its last
// turn. It reads the digits where they stand rather than decoding lines,
// which may be a tool's whole output.
func lastTurn(chunk []byte) int {
	chunk = completeLines(chunk)
	needle := []byte(`"data":{"turn":`)
	for len(chunk) > 0 {
		line := chunk[bytes.LastIndexByte(chunk[:len(chunk)-1], '\n')+1:]
		chunk = chunk[:len(chunk)-len(line)]
		i := bytes.Index(line, needle)
		if i < 0 {
			continue
		}
		digits := line[i+len(needle):]
		end := 0
		for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
			end++
		}
		if n, err := strconv.Atoi(string(digits[:end])); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// lastTitle is the title of the last complete session/title event in
// chunk, or of the last the user gave (/rename), which the titles tack
// makes do not replace.
func lastTitle(chunk []byte) string {
	chunk = completeLines(chunk)
	needle := []byte(`"session/title"`)
	var text textArena
	last := ""
	for {
		i := bytes.LastIndex(chunk, needle)
		if i < 0 {
			return last
		}
		start := bytes.LastIndexByte(chunk[:i], '\n') + 1
		end := i + bytes.IndexByte(chunk[i:], '\n')
		if d, err := decodeEvent(chunk[start:end], &text); err == nil {
			if t, ok := d.event.Data.(Title); ok && t.Title != "" {
				if t.Source == TitleUser {
					return t.Title
				}
				if last == "" {
					last = t.Title
				}
			}
		}
		chunk = chunk[:start]
	}
}

// firstPromptTitle is the title made from the first prompt in chunk.
func firstPromptTitle(chunk []byte) string {
	chunk = completeLines(chunk)
	needle := []byte(`"user/message"`)
	var text textArena
	for {
		i := bytes.Index(chunk, needle)
		if i < 0 {
			return ""
		}
		start := bytes.LastIndexByte(chunk[:i], '\n') + 1
		end := i + bytes.IndexByte(chunk[i:], '\n')
		if d, err := decodeEvent(chunk[start:end], &text); err == nil {
			if m, ok := d.event.Data.(UserMessage); ok && m.Kind == KindPrompt && m.Replace == nil {
				return promptTitle(m.Input())
			}
		}
		chunk = chunk[end+1:]
	}
}

// Nest orders list so that each subagent's session follows its parent's,
// children in the order they had. A child whose parent is not in list
// stays where it was.
func Nest(list []Summary) []Summary {
	present := map[string]bool{}
	for _, s := range list {
		present[s.ID] = true
	}
	top := func(s Summary) bool { return s.Parent == "" || s.Parent == s.ID || !present[s.Parent] }
	children := map[string][]Summary{}
	for _, s := range list {
		if !top(s) {
			children[s.Parent] = append(children[s.Parent], s)
		}
	}
	out := make([]Summary, 0, len(list))
	seen := map[string]bool{}
	var walk func(s Summary)
	walk = func(s Summary) {
		if seen[s.ID] {
			return
		}
		seen[s.ID] = true
		out = append(out, s)
		for _, c := range children[s.ID] {
			walk(c)
		}
	}
	for _, s := range list {
		if top(s) {
			walk(s)
		}
	}
	return out
}
