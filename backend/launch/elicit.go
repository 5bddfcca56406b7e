package launch

import (
	"context"

	"github.com/tack-agent/tack/backend/elicit"
)

// elicit puts an MCP server's form to the user through the broker. In
// print mode nobody answers: the form is cancelled at once, as Claude
// Code answers a form it cannot show, and the tool call goes on with the
// server deciding what that means.
func (s *Session) elicit(o Options) func(context.Context, elicit.Request) elicit.Result {
	return func(ctx context.Context, r elicit.Request) elicit.Result {
		if o.Unattended {
			return elicit.Result{Action: elicit.Cancel}
		}
		return elicit.Ask(ctx, s.Broker, r)
	}
}
