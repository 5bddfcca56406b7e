package mcptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

// Environment variables of the replaying server.
const (
	// EnvReplay names a recording (Record's JSONL) to replay to the
	// client: the process plays the real server's side of it.
	EnvReplay = "MCPTEST_REPLAY"
	// EnvReplayLog names a file every message the client sent is
	// appended to, one line each, for the test to judge.
	EnvReplayLog = "MCPTEST_REPLAY_LOG"
)

// replayWait bounds the wait for a message the recording says the client
// sends next; a client that never sends it fails the test instead of
// hanging it.
const replayWait = 20 * time.Second

// Exchange is one line of a recording: a message and who sent it,
// "c2s" (the client) or "s2c" (the server).
type Exchange struct {
	Dir string          `json:"dir"`
	Msg json.RawMessage `json:"msg"`
	// After is how many milliseconds after the message before it this
	// one came; a replay waits as long before a server's message (up to
	// maxGap), so a server that took its time still does.
	After int64 `json:"after,omitempty"`
}

// maxGap bounds a replay's wait before one message.
const maxGap = 5 * time.Second

// header is what Replay needs of a message to match and answer it.
type header struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params struct {
		// ProgressToken is a progress notification's.
		ProgressToken json.RawMessage `json:"progressToken,omitempty"`
		// Meta.ProgressToken is a request's that asks for progress.
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken,omitempty"`
		} `json:"_meta"`
	} `json:"params"`
}

// kind is what a client message must match: its method, or for a
// response the id it answers.
func (h header) kind() string {
	if h.Method != "" {
		return h.Method
	}
	return "response " + string(h.ID)
}

// ReadRecording reads a recording: lines starting with '#' are comments.
func ReadRecording(path string) ([]Exchange, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Exchange
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 || line[0] == '#' {
			continue
		}
		var e Exchange
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// replay plays the server's side of a recording on stdin and stdout:
// each server message is written once the client messages recorded
// before it arrived (matched by method, in any order) and as long after
// as it came then, with the ids of responses and the tokens of progress
// notifications changed to those of the client's own requests. It exits when
// stdin ends, 1 when the client left out a message the recording has.
func replay(path, logPath string) {
	exchanges, err := ReadRecording(path)
	if err != nil {
		fail(err.Error())
	}
	var log io.Writer = io.Discard
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fail(err.Error())
		}
		log = f
	}
	in := make(chan []byte)
	go func() {
		r := bufio.NewReaderSize(os.Stdin, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				log.Write(line)
				in <- line
			}
			if err != nil {
				close(in)
				return
			}
		}
	}()
	out := bufio.NewWriter(os.Stdout)
	ids := map[string]json.RawMessage{}    // recorded request id → the client's
	tokens := map[string]json.RawMessage{} // recorded progress token → the client's
	var early []header                     // client messages that came before the recording has them
	for _, e := range exchanges {
		var h header
		if err := json.Unmarshal(e.Msg, &h); err != nil {
			fail(err.Error())
		}
		if e.Dir == "c2s" {
			got := awaitClient(in, &early, h.kind())
			if h.Method != "" && h.ID != nil {
				ids[string(h.ID)] = got.ID
			}
			if h.Params.Meta.ProgressToken != nil {
				tokens[string(h.Params.Meta.ProgressToken)] = got.Params.Meta.ProgressToken
			}
			continue
		}
		time.Sleep(min(time.Duration(e.After)*time.Millisecond, maxGap))
		msg := e.Msg
		switch {
		case h.Method == "" && h.ID != nil:
			msg = withField(msg, ids[string(h.ID)], "id")
		case h.Method == "notifications/progress":
			token := tokens[string(h.Params.ProgressToken)]
			if token == nil {
				continue // the client did not ask for progress: the server would not send it
			}
			msg = withField(msg, token, "params", "progressToken")
		}
		out.Write(msg)
		out.WriteByte('\n')
		out.Flush()
	}
	for range in {
	}
	os.Exit(0)
}

// awaitClient returns the first client message of the kind, from those
// that came early or the next to come.
func awaitClient(in <-chan []byte, early *[]header, kind string) header {
	for i, h := range *early {
		if h.kind() == kind {
			*early = append((*early)[:i], (*early)[i+1:]...)
			return h
		}
	}
	timeout := time.After(replayWait)
	for {
		select {
		case line, ok := <-in:
			if !ok {
				fail("the client left before sending " + kind)
			}
			var h header
			if json.Unmarshal(line, &h) != nil {
				fail("the client sent a line that is not JSON: " + string(line))
			}
			if h.kind() == kind {
				return h
			}
			*early = append(*early, h)
		case <-timeout:
			fail(fmt.Sprintf("the client did not send %s within %s", kind, replayWait))
		}
	}
}

// withField is msg with the field at path set to v; msg as it is when
// v is nil (nothing to change it to).
func withField(msg, v json.RawMessage, path ...string) json.RawMessage {
	if v == nil {
		return msg
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	if len(path) > 1 {
		v = withField(m[path[0]], v, path[1:]...)
	}
	m[path[0]] = v
	b, _ := json.Marshal(m)
	return b
}

func fail(why string) {
	fmt.Fprintln(os.Stderr, "replaying MCP server: "+why)
	os.Exit(1)
}

// ReplayCommand is how to start a server that replays the recording at
// path, appending what the client sends to logPath: this test binary,
// which must call RunIfServer from TestMain.
func ReplayCommand(path, logPath string) (string, []string, []string) {
	return os.Args[0], []string{"-test.run=^$"}, []string{EnvReplay + "=" + path, EnvReplayLog + "=" + logPath}
}
