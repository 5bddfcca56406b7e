package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Relay carries one JSON-RPC message to a server that lives in the
// program driving tack through an Agent SDK ("type": "sdk"), and returns
// what the server answered: the response to a request, anything (which
// is not read) to a notification.
type Relay func(ctx context.Context, server string, message json.RawMessage) (json.RawMessage, error)

// SDKServer is the in-process server an Agent SDK hosts under name,
// which origin names for messages. It is the program's (Server.Program).
func SDKServer(name, origin string) Server {
	return Server{Name: name, Origin: origin, SDK: true, Program: true, StartupTimeout: DefaultStartupTimeout,
		ToolTimeout: DefaultToolTimeout}
}

// errNoRelay is the dial error of an SDK server where nothing relays.
var errNoRelay = errors.New("an Agent SDK's in-process server is reached through the SDK that runs tack (print mode, " +
	"--input-format stream-json); nothing here relays to it")

// relayTransport reaches server through relay.
type relayTransport struct {
	server string
	relay  Relay
}

func (t relayTransport) Connect(context.Context) (sdk.Connection, error) {
	if t.relay == nil {
		return nil, errNoRelay
	}
	return &relayConn{t: t, in: make(chan jsonrpc.Message, 8), done: make(chan struct{})}, nil
}

// relayConn hands each message written to the relay, on its own, and
// queues the responses to requests for Read.
type relayConn struct {
	t    relayTransport
	in   chan jsonrpc.Message
	done chan struct{}
	once sync.Once
}

func (c *relayConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *relayConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, isCall := msg.(*jsonrpc.Request)
	isCall = isCall && req.IsCall()
	go func() {
		answer, err := c.t.relay(context.WithoutCancel(ctx), c.t.server, data)
		if !isCall {
			return
		}
		var resp jsonrpc.Message
		if err == nil {
			resp, err = jsonrpc.DecodeMessage(answer)
		}
		if err != nil {
			resp = &jsonrpc.Response{ID: req.ID, Error: err}
		}
		select {
		case c.in <- resp:
		case <-c.done:
		}
	}()
	return nil
}

func (c *relayConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

func (c *relayConn) SessionID() string { return "" }
