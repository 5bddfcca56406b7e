package llmtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Replay answers with a recorded stream. A .sse file is a raw SSE body and
// is sent verbatim. Any other file (.chunks.jsonl) holds one chunk JSON per
// line, sent as "data: <line>" events followed by [DONE]; blank lines and
// lines starting with # are skipped.
func Replay(path string) (Response, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Response{}, fmt.Errorf("replay recording: %w", err)
	}
	if strings.HasSuffix(path, ".sse") {
		return Response{Events: []Event{{Raw: string(b)}}}, nil
	}
	var events []Event
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		events = append(events, Event{Data: line})
	}
	if err := sc.Err(); err != nil {
		return Response{}, fmt.Errorf("replay recording %s: %w", path, err)
	}
	return Response{Events: append(events, Event{Data: "[DONE]"})}, nil
}

// MustReplay is Replay that fails t when the recording cannot be read.
func MustReplay(t testing.TB, path string) Response {
	t.Helper()
	r, err := Replay(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
