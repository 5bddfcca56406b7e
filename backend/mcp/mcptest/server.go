// Package mcptest is a small MCP server for tests, written against the
// protocol itself (newline-delimited JSON-RPC 2.0 on stdio, JSON-RPC over
// HTTP POST for streamable HTTP) rather than with the SDK tack's client
// uses, so the client is checked against an independent reading of the
// protocol. A test binary becomes the server when it calls RunIfServer
// from TestMain and is started with Command's environment. Better still,
// it replays what a real server sent (ReplayCommand), recorded by relaying
// that server's stdio (RecordCommand).
package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Environment variables that make a process the fake server and shape it.
const (
	EnvServe = "MCPTEST_SERVE" // set to "1" to serve on stdio
	// EnvDelay delays the answer to initialize, in milliseconds.
	EnvDelay = "MCPTEST_DELAY_MS"
	// EnvLog names a file every tools/call is appended to, one line each.
	EnvLog = "MCPTEST_LOG"
	// EnvGarbage makes the server write a line that is not JSON-RPC before
	// answering initialize.
	EnvGarbage = "MCPTEST_GARBAGE"
	// EnvPrefix is put before every tool name, so servers differ.
	EnvPrefix = "MCPTEST_PREFIX"
	// EnvBadJSON makes the server write a broken JSON object before
	// answering initialize: invalid JSON-RPC.
	EnvBadJSON = "MCPTEST_BAD_JSON"
	// EnvLeak names a variable whose value the server writes to stderr at
	// start and when it crashes, as a careless server prints its token.
	EnvLeak = "MCPTEST_LEAK"
)

// RunIfServer serves MCP on stdin and stdout and exits when the
// environment asks this process to be the fake server, to replay a
// recording or to record a real server; otherwise it returns at once. Call it first thing in TestMain (or main).
func RunIfServer() {
	switch {
	case os.Getenv(EnvReplay) != "":
		replay(os.Getenv(EnvReplay), os.Getenv(EnvReplayLog))
	case os.Getenv(EnvRecord) != "":
		record(os.Getenv(EnvRecord))
	case os.Getenv(EnvServe) == "1":
		Serve()
	}
}

// Serve serves MCP on stdin and stdout until stdin ends, then exits, shaped
// by the EnvDelay, EnvLog, EnvGarbage and EnvPrefix variables.
func Serve() {
	fmt.Fprintln(os.Stderr, "fake MCP server starting"+leak())
	s := &stdioServer{out: bufio.NewWriter(os.Stdout), core: newCore(os.Getenv(EnvPrefix), os.Getenv(EnvLog))}
	if os.Getenv(EnvGarbage) == "1" {
		s.write([]byte("this is not JSON-RPC"))
	}
	if os.Getenv(EnvBadJSON) == "1" {
		s.write([]byte(`{"jsonrpc" "2.0"}`))
	}
	s.serve(os.Stdin)
	os.Exit(0)
}

// leak is the text that shows the variable EnvLeak names, if any.
func leak() string {
	if name := os.Getenv(EnvLeak); name != "" {
		return " with " + name + "=" + os.Getenv(name)
	}
	return ""
}

// Command is how to start the fake server: this test binary with the
// environment that makes it serve, plus extra variables.
func Command(extra ...string) (string, []string, []string) {
	return os.Args[0], []string{"-test.run=^$"}, append([]string{EnvServe + "=1"}, extra...)
}

// message is a JSON-RPC request, notification or response.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// core answers requests; transports carry them.
type core struct {
	prefix string
	log    string

	mu     sync.Mutex
	added  bool // the "change" tool added a tool
	notify func(method string)
}

func newCore(prefix, log string) *core { return &core{prefix: prefix, log: log} }

// handle answers one request; notifications get nil.
func (c *core) handle(m message) *message {
	if len(m.ID) == 0 {
		return nil
	}
	res, rerr := c.dispatch(m)
	out := &message{JSONRPC: "2.0", ID: m.ID}
	if rerr != nil {
		out.Error = rerr
	} else {
		out.Result = res
	}
	return out
}

func (c *core) dispatch(m message) (any, *rpcError) {
	switch m.Method {
	case "initialize":
		if ms := os.Getenv(EnvDelay); ms != "" {
			var d int
			fmt.Sscan(ms, &d)
			time.Sleep(time.Duration(d) * time.Millisecond)
		}
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		json.Unmarshal(m.Params, &p)
		version := "2025-06-18"
		if p.ProtocolVersion == "2025-03-26" || p.ProtocolVersion == "2025-11-25" {
			version = p.ProtocolVersion
		}
		return map[string]any{
			"protocolVersion": version,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
			"serverInfo":      map[string]any{"name": "mcptest", "version": "1.0.0"},
		}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		return map[string]any{"tools": c.tools()}, nil
	case "tools/call":
		return c.call(m.Params)
	}
	return nil, &rpcError{Code: -32601, Message: "method not found: " + m.Method}
}

func (c *core) tools() []map[string]any {
	obj := func(props map[string]any, required ...string) map[string]any {
		s := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			s["required"] = required
		}
		return s
	}
	text := map[string]any{"text": map[string]any{"type": "string", "description": "what to echo"}}
	list := []map[string]any{
		{"name": c.prefix + "echo", "description": "Echo the text back.", "inputSchema": obj(text, "text"),
			"annotations": map[string]any{"readOnlyHint": true, "title": "Echo"}},
		{"name": c.prefix + "crash", "description": "Exit in the middle of the call.", "inputSchema": obj(nil)},
		{"name": c.prefix + "hang", "description": "Never answer.", "inputSchema": obj(nil)},
		{"name": c.prefix + "image", "description": "Return a tiny PNG.", "inputSchema": obj(nil)},
		{"name": c.prefix + "big", "description": "Return 200 KB of text.", "inputSchema": obj(nil)},
		{"name": c.prefix + "change", "description": "Add a tool and say the list changed.", "inputSchema": obj(nil)},
		{"name": c.prefix + "fail", "description": "Answer with an error result.", "inputSchema": obj(nil)},
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.added {
		list = append(list, map[string]any{"name": c.prefix + "added", "description": "Added by change.", "inputSchema": obj(nil)})
	}
	return list
}

// tinyPNG is a 1x1 transparent PNG.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

func (c *core) call(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &rpcError{Code: -32602, Message: err.Error()}
	}
	c.record(p.Name, p.Arguments)
	textResult := func(s string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
	}
	switch strings.TrimPrefix(p.Name, c.prefix) {
	case "echo", "added":
		return textResult(fmt.Sprintf("echo: %v", p.Arguments["text"])), nil
	case "crash":
		fmt.Fprintln(os.Stderr, "fake MCP server: crashing on purpose"+leak())
		os.Exit(3)
	case "hang":
		select {}
	case "image":
		return map[string]any{"content": []any{
			map[string]any{"type": "text", "text": "a pixel:"},
			map[string]any{"type": "image", "mimeType": "image/png", "data": tinyPNG},
			map[string]any{"type": "resource_link", "uri": "file:///tmp/pixel.png", "name": "pixel", "mimeType": "image/png"},
		}}, nil
	case "big":
		return textResult(strings.Repeat("0123456789abcdef\n", 200<<10/17)), nil
	case "change":
		c.mu.Lock()
		c.added = true
		notify := c.notify
		c.mu.Unlock()
		if notify != nil {
			notify("notifications/tools/list_changed") // before the answer, as a server whose call changed its tools would
		}
		return textResult("added a tool"), nil
	case "fail":
		r := textResult("it went wrong")
		r["isError"] = true
		return r, nil
	}
	return nil, &rpcError{Code: -32602, Message: "unknown tool " + p.Name}
}

func (c *core) record(name string, args map[string]any) {
	if c.log == "" {
		return
	}
	b, _ := json.Marshal(map[string]any{"tool": name, "arguments": args})
	f, err := os.OpenFile(c.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// stdioServer carries the core over newline-delimited JSON on stdio.
type stdioServer struct {
	mu   sync.Mutex
	out  *bufio.Writer
	core *core
}

func (s *stdioServer) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(b, '\n'))
	s.out.Flush()
}

func (s *stdioServer) serve(r io.Reader) {
	s.core.notify = func(method string) {
		b, _ := json.Marshal(message{JSONRPC: "2.0", Method: method})
		s.write(b)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			b, _ := json.Marshal(message{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{Code: -32700, Message: "parse error"}})
			s.write(b)
			continue
		}
		go func() {
			if out := s.core.handle(m); out != nil {
				b, _ := json.Marshal(out)
				s.write(b)
			}
		}()
	}
}
