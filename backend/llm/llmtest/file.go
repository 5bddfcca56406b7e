package llmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// scriptFile is the JSON form of a script; see the package documentation.
type scriptFile struct {
	Responses []fileResponse `json:"responses"`
}

type fileResponse struct {
	Status     int            `json:"status"`
	Body       string         `json:"body"`
	RetryAfter string         `json:"retry_after"`
	Replay     string         `json:"replay"`
	KeepAlive  int            `json:"keep_alive"`
	DelayMS    int            `json:"delay_ms"`
	Chunk      int            `json:"chunk"`
	Reasoning  string         `json:"reasoning"`
	Text       string         `json:"text"`
	ToolCalls  []fileToolCall `json:"tool_calls"`
	Usage      *fileUsage     `json:"usage"`
	Finish     string         `json:"finish"`
	Malformed  bool           `json:"malformed"`
	Disconnect bool           `json:"disconnect"`
	Stall      bool           `json:"stall"`
	NoDone     bool           `json:"no_done"`
	// Data are raw data payloads sent before the reasoning: any shape.
	Data []string `json:"data"`
	// QueuedMS sends keep-alives every so many ms until the client leaves.
	QueuedMS int  `json:"queued_ms"`
	CR       bool `json:"cr"`
}

type fileToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type fileUsage struct {
	Hit       int `json:"hit"`
	Miss      int `json:"miss"`
	Output    int `json:"output"`
	Reasoning int `json:"reasoning"`
}

// LoadScript reads a JSON script file. Replay paths are relative to the
// file's directory.
func LoadScript(path string) ([]Response, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load script: %w", err)
	}
	var f scriptFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("load script %s: %w", path, err)
	}
	out := make([]Response, 0, len(f.Responses))
	for i, fr := range f.Responses {
		r, err := fr.response(filepath.Dir(path))
		if err != nil {
			return nil, fmt.Errorf("load script %s: response %d: %w", path, i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func (f fileResponse) response(dir string) (Response, error) {
	switch {
	case f.Status != 0 && f.Status != 200:
		r := Response{Status: f.Status, Body: f.Body}
		if f.Body == "" {
			r = HTTPError(f.Status, fmt.Sprintf("scripted HTTP %d", f.Status))
		}
		if f.RetryAfter != "" {
			r = r.WithHeader("Retry-After", f.RetryAfter)
		}
		return r, nil
	case f.Replay != "":
		if !filepath.IsAbs(f.Replay) {
			f.Replay = filepath.Join(dir, f.Replay)
		}
		return Replay(f.Replay)
	}
	r := Reply(f.parts()...)
	r.CR = f.CR
	return r, nil
}

// parts lays the reply out in a fixed order: keep-alives, reasoning, text,
// tool calls, then the fault, usage and finish.
func (f fileResponse) parts() []Part {
	parts := []Part{Pace(time.Duration(f.DelayMS) * time.Millisecond)}
	for range f.KeepAlive {
		parts = append(parts, KeepAlive())
	}
	if f.QueuedMS > 0 {
		return append(parts, Queued(time.Duration(f.QueuedMS)*time.Millisecond))
	}
	for _, d := range f.Data {
		parts = append(parts, Data(d))
	}
	if f.Reasoning != "" {
		parts = append(parts, Reasoning(f.Reasoning, f.Chunk))
	}
	if f.Text != "" {
		parts = append(parts, Text(f.Text, f.Chunk))
	}
	for _, tc := range f.ToolCalls {
		parts = append(parts, ToolCall(tc.ID, tc.Name, tc.Arguments, 3))
	}
	for _, fault := range []struct {
		on   bool
		part Part
	}{{f.Malformed, Malformed()}, {f.Disconnect, Disconnect()}, {f.Stall, Stall()}, {f.NoDone, NoDone()}} {
		if fault.on {
			parts = append(parts, fault.part)
		}
	}
	if u := f.Usage; u != nil {
		parts = append(parts, Usage(u.Hit, u.Miss, u.Output, u.Reasoning))
	}
	if f.Finish != "" {
		parts = append(parts, Finish(f.Finish))
	}
	return parts
}
