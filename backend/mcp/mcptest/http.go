package mcptest

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// HTTPServer is the fake server over streamable HTTP: JSON-RPC messages
// POSTed to it are answered with application/json bodies; a GET for a
// server-sent event stream is refused (405), as the transport allows.
type HTTPServer struct {
	core *core

	mu       sync.Mutex
	sessions int
	headers  []http.Header
}

// NewHTTP makes an HTTP fake server whose tools start with prefix.
func NewHTTP(prefix string) *HTTPServer { return &HTTPServer{core: newCore(prefix, "")} }

// Headers are the headers of every request it received.
func (h *HTTPServer) Headers() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.headers...)
}

func (h *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.headers = append(h.headers, r.Header.Clone())
	h.mu.Unlock()
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		w.WriteHeader(http.StatusOK)
		return
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var m message
	if err != nil || json.Unmarshal(body, &m) != nil {
		http.Error(w, "bad JSON-RPC", http.StatusBadRequest)
		return
	}
	out := h.core.handle(m)
	if out == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.Method == "initialize" {
		h.mu.Lock()
		h.sessions++
		h.mu.Unlock()
		w.Header().Set("Mcp-Session-Id", "fake-session")
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}
