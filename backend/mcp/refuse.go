package mcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// refused are the requests a server may make of its client that tack
// does not serve: sampling (tack lends its model to no server, as Claude
// Code does not). tack does not advertise it; a server that asks anyway
// is told at once with JSON-RPC's "method not found", as clients on the
// TypeScript SDK answer, rather than the Go SDK's codes of its own
// (-31001, and -32602 as if the request were malformed).
var refused = map[string]bool{"sampling/createMessage": true}

// refuseUnsupported answers the refused requests before the SDK does.
func refuseUnsupported(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if refused[method] {
			// The SDK words the message: method not found: "<method>".
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
		}
		return next(ctx, method, req)
	}
}
