package mcp

import (
	"bufio"
	"bytes"
	"io"
)

// jsonLines passes on the lines of a stdio server's output that can be
// JSON-RPC messages (those starting with '{' or '[') and writes the others
// (banners and log lines some servers print on stdout) to junk, so a stray
// line is shown with the server's stderr instead of breaking the
// connection. A line too long to buffer is judged by its start.
type jsonLines struct {
	r       *bufio.Reader
	closer  io.Closer
	junk    io.Writer
	pending []byte
	inLine  bool // inside a line whose start was judged
	pass    bool
	err     error
}

func newJSONLines(rc io.ReadCloser, junk io.Writer) *jsonLines {
	return &jsonLines{r: bufio.NewReaderSize(rc, 64<<10), closer: rc, junk: junk}
}

func (j *jsonLines) Read(p []byte) (int, error) {
	for {
		if len(j.pending) > 0 {
			n := copy(p, j.pending)
			j.pending = j.pending[n:]
			return n, nil
		}
		if j.err != nil {
			return 0, j.err
		}
		chunk, err := j.r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			j.err = err
		}
		if len(chunk) == 0 {
			continue
		}
		if !j.inLine {
			t := bytes.TrimLeft(chunk, " \t\r")
			j.pass = len(t) == 0 || t[0] == '{' || t[0] == '[' || t[0] == '\n'
		}
		j.inLine = chunk[len(chunk)-1] != '\n'
		if j.pass {
			j.pending = append(j.pending[:0], chunk...)
		} else {
			// One write per line: the server's stderr goes to junk too,
			// from another goroutine, and must not land mid-line.
			line := append([]byte("stdout: "), chunk...)
			if j.inLine {
				line = append(line, '\n')
			}
			j.junk.Write(line)
		}
	}
}

func (j *jsonLines) Close() error { return j.closer.Close() }
