package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// The program that drives tack through an Agent SDK may replace, while
// the session runs, the set of MCP servers it manages (setMcpServers,
// the mcp_set_servers control request). The servers it names are its
// own: they wait for no approval, and the next set it gives removes those
// it leaves out. Servers configured in files and flags stay when left
// out, as Claude Code keeps them; one the program names is replaced by
// the program's and is the program's from then on.

// ProgramServers reads the servers of an Agent SDK's setMcpServers: each
// name's entry in Claude Code's shape (type "stdio", the default, "http",
// "sse", or "sdk" for a server in the program itself), with origin for
// messages. Values are taken as written, without ${VAR} expansion: the
// program has its environment at hand. A tool whose permission_policy is
// "always_deny" is never offered. An entry that cannot be read is an
// error under its name, and left out.
func ProgramServers(entries map[string]json.RawMessage, origin string) ([]Server, map[string]string) {
	var out []Server
	problems := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		s, err := projectEntry(name, entries[name], func(v string) string { return v })
		if err == nil {
			s.DisabledTools, err = deniedTools(entries[name])
		}
		if err != nil {
			problems[name] = err.Error() + "; fix the entry and set the servers again"
			continue
		}
		s.Origin, s.Program = origin, true
		out = append(out, s)
	}
	return out, problems
}

// deniedTools are the tools of an entry's per-tool policy (its "tools"
// list) that the program denies.
func deniedTools(raw json.RawMessage) ([]string, error) {
	var e struct {
		Tools []struct {
			Name   string `json:"name"`
			Policy string `json:"permission_policy"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	var denied []string
	for _, t := range e.Tools {
		if t.Policy == "always_deny" {
			denied = append(denied, t.Name)
		}
	}
	return denied, nil
}

// Replacement is what Replace did, in the shape of the Agent SDK's
// McpSetServersResult.
type Replacement struct {
	// Added are the servers started: new, or named again with another
	// configuration.
	Added []string
	// Removed are the program's servers it left out, now stopped.
	Removed []string
	// Errors are the servers that could not be started, with why.
	Errors map[string]string
}

// Replace makes servers the set of the program's servers: those it names
// with the configuration they run with already stay as they are, others
// it names start (in place of any server of that name, a configured one
// too), and the program's servers it leaves out stop, their processes
// ended before Replace returns. From the next step on the model is
// offered the tools of the set. Servers that started are still starting:
// Connected waits for them.
func (m *Manager) Replace(servers []Server) Replacement {
	m.replacing.Lock()
	defer m.replacing.Unlock()
	r := Replacement{Errors: map[string]string{}}
	m.mu.Lock()
	var keep, stop []*conn
	var start []Server
	for _, c := range m.servers {
		i := slices.IndexFunc(servers, func(s Server) bool { return s.Name == c.srv.Name })
		switch {
		case i >= 0 && reflect.DeepEqual(servers[i], c.srv):
			keep = append(keep, c)
		case i >= 0 || c.srv.Program:
			stop = append(stop, c)
		default:
			keep = append(keep, c)
		}
	}
	for _, s := range servers {
		if !slices.ContainsFunc(keep, func(c *conn) bool { return c.srv.Name == s.Name }) {
			start = append(start, s)
			r.Added = append(r.Added, s.Name)
		}
	}
	m.servers = m.join(keep, start, StateStarting)
	m.mu.Unlock()
	for _, c := range stop {
		if !slices.Contains(r.Added, c.srv.Name) {
			r.Removed = append(r.Removed, c.srv.Name)
		}
	}
	retireAll(stop)
	for _, c := range m.conns() {
		if slices.Contains(r.Added, c.srv.Name) {
			m.launch(c)
		}
	}
	m.notify()
	return r
}

// Connected waits until the servers r added are no longer starting, or
// until ctx ends or the manager closes, and moves those that failed from
// Added to Errors.
func (m *Manager) Connected(ctx context.Context, r Replacement) Replacement {
	for {
		m.mu.Lock()
		ch := m.changed
		m.mu.Unlock()
		if !slices.ContainsFunc(r.Added, m.starting) {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return r
		case <-m.ctx.Done():
			return r
		}
	}
	out := Replacement{Removed: r.Removed, Errors: maps.Clone(r.Errors)}
	for _, name := range r.Added {
		c := m.find(name)
		if c == nil { // a later Replace removed it
			continue
		}
		if st := c.status(); st.State == StateFailed {
			out.Errors[name] = strings.TrimPrefix(st.Error, "failed to start: ")
			continue
		}
		out.Added = append(out.Added, name)
	}
	return out
}

// starting reports whether the named server is starting.
func (m *Manager) starting(name string) bool {
	c := m.find(name)
	return c != nil && c.currentState() == StateStarting
}

// retireAll stops the servers for good, at once, and waits for them.
func retireAll(conns []*conn) {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() { defer wg.Done(); c.retire() }()
	}
	wg.Wait()
}
