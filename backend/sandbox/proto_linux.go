package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// tack and its helper talk over a unix stream socket: one JSON object per
// line. A start request carries the command's stdout and stderr as two
// descriptors (SCM_RIGHTS) sent with its first byte; the receiver queues
// descriptors as they arrive, and since the kernel never merges bytes across
// a message that carries descriptors, a request's two are queued by the time
// its line is complete.

// request is what tack asks of the helper.
type request struct {
	Op string `json:"op"` // "setup", "start", "signal", "release"
	ID uint64 `json:"id,omitempty"`
	// setup
	Setup *setup `json:"setup,omitempty"`
	// start
	Path string   `json:"path,omitempty"`
	Args []string `json:"args,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	Env  []string `json:"env,omitempty"`
	// signal
	Signal int `json:"signal,omitempty"`
}

// setup is the sandbox the helper builds around itself before serving.
type setup struct {
	Layout      Layout      `json:"layout"`
	Confinement Confinement `json:"confinement"`
	// Unconfined makes a supervisor instead: no sandbox, only the
	// guarantee that the commands die with tack.
	Unconfined bool `json:"unconfined,omitempty"`
}

// reply is what the helper tells tack.
type reply struct {
	Op string `json:"op"` // "ready", "failed", "started", "signalled", "exit"
	ID uint64 `json:"id,omitempty"`
	// failed, started (with an error)
	Error string `json:"error,omitempty"`
	// ready
	Mechanism string `json:"mechanism,omitempty"`
	// signalled
	Alive bool `json:"alive,omitempty"`
	// exit
	Code   int `json:"code,omitempty"`
	Signal int `json:"signal,omitempty"`
}

// maxLine bounds one message: a command line and its environment fit in
// execve's own limit, far below this.
const maxLine = 16 << 20

// conn is one end of the socket, reading lines and the descriptors sent
// with them.
type conn struct {
	uc  *net.UnixConn
	buf []byte
	fds []int
}

func newConn(f *os.File) (*conn, error) {
	c, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return nil, errors.New("sandbox socket is not a unix socket")
	}
	return &conn{uc: uc}, nil
}

// send writes v as one line, with files passed along.
func (c *conn) send(v any, files ...*os.File) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	for len(b) > 0 {
		n, _, err := c.uc.WriteMsgUnix(b, oob, nil)
		if err != nil {
			return err
		}
		b, oob = b[n:], nil
	}
	return nil
}

// receive reads the next line into v.
func (c *conn) receive(v any) error {
	for {
		if i := bytes.IndexByte(c.buf, '\n'); i >= 0 {
			line := c.buf[:i]
			c.buf = c.buf[i+1:]
			return json.Unmarshal(line, v)
		}
		if len(c.buf) > maxLine {
			return fmt.Errorf("sandbox message over %d bytes", maxLine)
		}
		chunk := make([]byte, 64<<10)
		oob := make([]byte, syscall.CmsgSpace(4*8))
		n, oobn, _, _, err := c.uc.ReadMsgUnix(chunk, oob)
		if oobn > 0 && oobn <= len(oob) {
			c.fds = append(c.fds, parseRights(oob[:oobn])...)
		}
		if n > 0 {
			c.buf = append(c.buf, chunk[:n]...)
		}
		if err != nil {
			return err
		}
	}
}

// takeFiles removes n received descriptors from the queue, as files.
func (c *conn) takeFiles(n int) ([]*os.File, error) {
	if len(c.fds) < n {
		return nil, fmt.Errorf("want %d descriptors with the request, got %d", n, len(c.fds))
	}
	out := make([]*os.File, n)
	for i, fd := range c.fds[:n] {
		syscall.CloseOnExec(fd)
		out[i] = os.NewFile(uintptr(fd), "sandbox-fd")
	}
	c.fds = c.fds[n:]
	return out, nil
}

func (c *conn) close() error { return c.uc.Close() }

func parseRights(oob []byte) []int {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil
	}
	var fds []int
	for _, m := range msgs {
		if r, err := syscall.ParseUnixRights(&m); err == nil {
			fds = append(fds, r...)
		}
	}
	return fds
}
