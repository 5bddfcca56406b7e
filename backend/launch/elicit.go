package launch

import (
	"context"

	"github.com/tack-agent/tack/backend/elicit"
)

// elicit answers an MCP server's form, or its web page to open (URL
// mode), as Claude Code does: the elicitation hooks first, which may
// answer in the user's place; else the user, through the broker, with
// browser to open the page at their word, and then the elicitation_result
// hooks, which may change the answer. In print mode the Agent SDK driving
// tack answers (Options.Elicit), or else nobody: the request is
// cancelled, as Claude Code answers one it cannot show, and the tool call
// goes on with the server deciding what that means.
func (s *Session) elicit(o Options, browser func(url string) error) func(context.Context, elicit.Request) elicit.Result {
	return func(ctx context.Context, r elicit.Request) elicit.Result {
		if action, content, ok := s.hooks.Elicit(ctx, r); ok {
			return elicit.Result{Action: action, Content: content}
		}
		var res elicit.Result
		switch {
		case !o.Unattended && r.Mode() == elicit.ModeURL:
			res = elicit.Visit(ctx, s.Broker, browser, r)
		case !o.Unattended:
			res = elicit.Ask(ctx, s.Broker, r)
		case o.Elicit != nil:
			res = o.Elicit(ctx, r)
		default:
			res.Action = elicit.Cancel
		}
		res.Action, res.Content = s.hooks.ElicitResult(ctx, r, res.Action, res.Content)
		return res
	}
}
