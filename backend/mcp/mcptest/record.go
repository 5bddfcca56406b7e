package mcptest

import (
	"bufio"
	"encoding/json"
	"io"
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
	go func() {
		relayLines(os.Stdin, toServer, func(l []byte) { write("c2s", l) })
		toServer.Close()
	}()
	relayLines(fromServer, os.Stdout, func(l []byte) { write("s2c", l) })
	err = cmd.Wait()
	f.Close()
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// relayLines copies r to w a line at a time, showing each line to seen.
func relayLines(r io.Reader, w io.Writer, seen func([]byte)) {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] == '\n' {
				seen(line[:len(line)-1])
			} else {
				seen(line)
			}
			w.Write(line)
		}
		if err != nil {
			return
		}
	}
}
