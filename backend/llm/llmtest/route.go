package llmtest

// A route answers the chat requests a predicate picks from a script of its
// own, ahead of the main script. Tests of concurrent conversations (parallel
// subagents) use one route per conversation, so each gets its own replies
// whatever order their requests arrive in.

type route struct {
	match   func(Request) bool
	replies []Response
}

// Route answers requests for which match is true with replies, in order,
// instead of the main script. Once its replies are used up a matching
// request falls through to the main script.
func (s *Server) Route(match func(Request) bool, replies ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = append(s.routes, &route{match: match, replies: replies})
}

// FirstUserMessage matches requests whose first user message is text.
func FirstUserMessage(text string) func(Request) bool {
	return func(r Request) bool {
		for _, m := range r.Messages {
			if m.Role == "user" {
				return m.Content == text
			}
		}
		return false
	}
}

// routedLocked takes the next reply of the first route that matches req.
func (s *Server) routedLocked(req *Request) (Response, bool) {
	for _, rt := range s.routes {
		if len(rt.replies) > 0 && rt.match(*req) {
			r := rt.replies[0]
			rt.replies = rt.replies[1:]
			return r, true
		}
	}
	return Response{}, false
}

func (s *Server) routesRemainingLocked() int {
	n := 0
	for _, rt := range s.routes {
		n += len(rt.replies)
	}
	return n
}
