package mcptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Environment variables of the recording relay.
const (
	// EnvRecord names the file a recording is written to: the process
	// runs the server EnvRecordCommand names and relays its stdio,
	// writing every message either way as an Exchange.
	EnvRecord = "MCPTEST_RECORD"
	// EnvRecordCommand is the server's command line, a JSON array.
	EnvRecordCommand = "MCPTEST_RECORD_COMMAND"
	// EnvRecordNote is the recording's first line, a comment saying what
	// was recorded and how.
	EnvRecordNote = "MCPTEST_RECORD_NOTE"
	// EnvRecordClaim is client capabilities (a JSON object) the relay adds
	// to the client's initialize request, so that the server asks what the
	// client would refuse (sampling, elicitation) and the recording keeps
	// the refusal and what the server made of it.
	EnvRecordClaim = "MCPTEST_RECORD_CLAIM"
)

// RecordCommand is how to run the server command (its arguments in
// args) with its messages recorded to path under note: this test binary,
// which must call RunIfServer from TestMain.
func RecordCommand(path, note, command string, args ...string) (string, []string, []string) {
	line, _ := json.Marshal(append([]string{command}, args...))
	return os.Args[0], []string{"-test.run=^$"},
		[]string{EnvRecord + "=" + path, EnvRecordCommand + "=" + string(line), EnvRecordNote + "=" + note}
}

// record relays stdio between the client and the server, writing the
// messages to path, and exits with the server.
func record(path string) {
	var argv []string
	if err := json.Unmarshal([]byte(os.Getenv(EnvRecordCommand)), &argv); err != nil || len(argv) == 0 {
		fail(EnvRecordCommand + " is not a JSON array naming a command")
	}
	f, err := os.Create(path)
	if err != nil {
		fail(err.Error())
	}
	io.WriteString(f, "# "+os.Getenv(EnvRecordNote)+"\n")
	var mu sync.Mutex
	last := time.Now()
	write := func(dir string, line []byte) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		gap := now.Sub(last).Milliseconds()
		last = now
		msg := json.RawMessage(line)
		if !json.Valid(msg) {
			msg, _ = json.Marshal(string(line))
		}
		b, _ := json.Marshal(Exchange{Dir: dir, Msg: msg, After: gap})
		f.Write(append(b, '\n'))
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	toServer, _ := cmd.StdinPipe()
	fromServer, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fail(err.Error())
	}
	claim := json.RawMessage(os.Getenv(EnvRecordClaim))
	go func() {
		relayLines(os.Stdin, toServer, func(l []byte) []byte {
			l = claimed(l, claim)
			write("c2s", l)
			return l
		})
		toServer.Close()
	}()
	relayLines(fromServer, os.Stdout, func(l []byte) []byte { write("s2c", l); return l })
	err = cmd.Wait()
	f.Close()
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// relayLines copies r to w a line at a time, as pass makes each line.
func relayLines(r io.Reader, w io.Writer, pass func([]byte) []byte) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			w.Write(append(pass(bytes.TrimSuffix(line, []byte("\n"))), '\n'))
		}
		if err != nil {
			return
		}
	}
}

// claimed is an initialize request with the capabilities in claim added
// to the client's; any other line as it is.
func claimed(line []byte, claim json.RawMessage) []byte {
	var msg, params, caps, extra map[string]json.RawMessage
	if len(claim) == 0 || json.Unmarshal(line, &msg) != nil || string(msg["method"]) != `"initialize"` ||
		json.Unmarshal(msg["params"], &params) != nil || json.Unmarshal(claim, &extra) != nil {
		return line
	}
	if json.Unmarshal(params["capabilities"], &caps) != nil || caps == nil {
		caps = map[string]json.RawMessage{}
	}
	maps.Copy(caps, extra)
	params["capabilities"], _ = json.Marshal(caps)
	msg["params"], _ = json.Marshal(params)
	out, _ := json.Marshal(msg)
	return out
}
