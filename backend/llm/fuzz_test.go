package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// streamKinds are the error kinds a stream over an in-memory body can end
// with; transport kinds need a failing connection.
var streamKinds = map[ErrorKind]bool{
	ErrStreamClosed: true, ErrMalformed: true, ErrServer: true, ErrModelStopped: true, ErrEmptyResponse: true,
}

// recordedBodies returns the SSE body of every recording, DeepSeek's and
// other servers'.
func recordedBodies(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, dir := range []string{fixtures, serverFixtures} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() == "README.md" {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, sseBody(e.Name(), raw))
		}
	}
	return out
}

// sseBody is a recording as a response body: a .sse file verbatim, a
// .chunks.jsonl file as one data event per line followed by [DONE].
func sseBody(name string, raw []byte) []byte {
	if strings.HasSuffix(name, ".sse") {
		return raw
	}
	var body bytes.Buffer
	for line := range bytes.Lines(raw) {
		if line = bytes.TrimSpace(line); len(line) > 0 && line[0] != '#' {
			body.WriteString("data: ")
			body.Write(line)
			body.WriteString("\n\n")
		}
	}
	body.WriteString("data: [DONE]\n\n")
	return body.Bytes()
}

// headAndTail keeps the first head and the last tail events of an SSE
// body. Small seeds keep the fuzzer fast: it spends up to
// -fuzzminimizetime shrinking every input that finds new coverage.
func headAndTail(body []byte, head, tail int) []byte {
	events := bytes.SplitAfter(body, []byte("\n\n"))
	if len(events) <= head+tail {
		return body
	}
	return bytes.Join(append(events[:head:head], events[len(events)-tail:]...), nil)
}

// FuzzStream feeds arbitrary bytes to the stream reader as a response body.
// Whatever arrives, the stream ends: with io.EOF right after exactly one
// finish chunk, or with an *Error of a kind a stream can report, which is
// then returned again on every later call.
func FuzzStream(f *testing.F) {
	for _, body := range recordedBodies(f) {
		f.Add(headAndTail(body, 10, 3))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s := newStream(memBody{bytes.NewReader(body)}, "req-1", "seed")
		var chunks []Chunk
		var err error
		for len(chunks) <= 2*len(body)+2 {
			var c Chunk
			if c, err = s.Next(); err != nil {
				break
			}
			chunks = append(chunks, c)
		}
		if err == nil {
			t.Fatalf("want the stream to end within %d chunks for a %d-byte body, got %d chunks and no end",
				2*len(body)+2, len(body), len(chunks))
		}
		checkChunks(t, chunks)
		if errors.Is(err, io.EOF) {
			if n := len(chunks); n == 0 || chunks[n-1].Kind != ChunkFinish {
				t.Fatalf("want io.EOF only after a finish chunk, got it after %d chunks", n)
			}
			return
		}
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("want an *llm.Error, got %T: %v", err, err)
		}
		if !streamKinds[e.Kind] || e.Message == "" || e.RequestID != "req-1" {
			t.Fatalf("want a stream error kind with a message and the request id, got %#v", e)
		}
		if _, again := s.Next(); again != err {
			t.Fatalf("want the same error on the next call, got %v", again)
		}
	})
}

// checkChunks pins the shape of a chunk sequence: no empty text, a tool
// call delta on tool call chunks, calls numbered in order each with a
// unique id on its first fragment, usage only right before the finish or
// the end, and the finish last.
func checkChunks(t *testing.T, chunks []Chunk) {
	t.Helper()
	ids := map[string]bool{}
	for i, c := range chunks {
		last := i == len(chunks)-1
		switch c.Kind {
		case ChunkText, ChunkReasoning, ChunkNote:
			if c.Text == "" {
				t.Fatalf("chunk %d: want text in a %v chunk, got none", i, c.Kind)
			}
		case ChunkToolCall:
			d := c.ToolCall
			switch {
			case d == nil:
				t.Fatalf("chunk %d: want a tool call delta, got nil", i)
			case d.Index > len(ids):
				t.Fatalf("chunk %d: want calls numbered in order, got index %d after %d calls", i, d.Index, len(ids))
			case d.Index == len(ids) && (d.ID == "" || ids[d.ID]):
				t.Fatalf("chunk %d: want a new, unique id on a call's first fragment, got %q (ids %v)", i, d.ID, ids)
			case d.Index == len(ids):
				ids[d.ID] = true
			case d.ID != "":
				t.Fatalf("chunk %d: want an id only on a call's first fragment, got %q", i, d.ID)
			}
		case ChunkUsage:
			// Usage also comes last when the end is an error: the tokens
			// were spent all the same.
			if c.Usage == nil || !last && chunks[i+1].Kind != ChunkFinish {
				t.Fatalf("chunk %d: want usage right before the finish or the error, got %+v", i, chunks[i:])
			}
		case ChunkFinish:
			if !last {
				t.Fatalf("chunk %d: want the finish last, got %d chunks after it", i, len(chunks)-1-i)
			}
		default:
			t.Fatalf("chunk %d: unknown kind %v", i, c.Kind)
		}
	}
}

// FuzzDecodeChunk checks the hand-written chunk scanner against
// encoding/json: it never panics, it refuses invalid JSON, and on valid
// JSON in the canonical form servers send (see canonicalChunk) both succeed
// or both fail, with equal results.
func FuzzDecodeChunk(f *testing.F) {
	for _, body := range recordedBodies(f) {
		for line := range bytes.Lines(body) {
			if data, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data: ")); ok {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got wireChunk
		gotErr := decodeChunk(data, &got)
		if !json.Valid(data) {
			if gotErr == nil {
				t.Fatalf("decodeChunk(%q): want an error for invalid JSON, got %+v", data, got)
			}
			return
		}
		if !canonicalChunk(data) {
			return
		}
		var want wireChunk
		wantErr := json.Unmarshal(data, &want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("decodeChunk(%q): want error %v as encoding/json, got %v", data, wantErr, gotErr)
		}
		if wantErr != nil {
			return
		}
		if len(want.Choices) == 0 {
			want.Choices = nil // an empty array and no array decode the same
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeChunk(%q):\nwant %+v\ngot  %+v", data, want, got)
		}
	})
}

// chunkKeys are the keys decodeChunk itself matches; encoding/json decodes
// the values below tool_calls, usage and error on both sides.
var chunkKeys = []string{"choices", "delta", "finish_reason", "usage", "error", "object", "message", "content", "reasoning_content", "reasoning", "tool_calls"}

// canonicalChunk reports whether valid JSON data is in the form the scanner
// promises to read like encoding/json: no key written with escapes, no key
// repeated in one object, and no key that matches a chunk key only when
// case is folded (encoding/json folds; servers never send such keys).
func canonicalChunk(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	return canonicalValue(dec, data) && dec.InputOffset() == int64(len(bytes.TrimRight(data, " \t\r\n")))
}

func canonicalValue(dec *json.Decoder, data []byte) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			start := dec.InputOffset()
			tok, err := dec.Token()
			key, ok := tok.(string)
			if err != nil || !ok || seen[key] || foldsToChunkKey(key) {
				return false
			}
			raw := data[start:dec.InputOffset()]
			if string(raw[bytes.IndexByte(raw, '"'):]) != `"`+key+`"` {
				return false
			}
			seen[key] = true
			if !canonicalValue(dec, data) {
				return false
			}
		}
	case json.Delim('['):
		for dec.More() {
			if !canonicalValue(dec, data) {
				return false
			}
		}
	default:
		return true
	}
	_, err = dec.Token()
	return err == nil
}

func foldsToChunkKey(key string) bool {
	for _, k := range chunkKeys {
		if key != k && strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}
