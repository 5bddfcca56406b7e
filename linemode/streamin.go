package linemode

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// streamInput is one line of --input-format stream-json: a user message's
// text, or why the line is not one.
type streamInput struct {
	text string
	err  error
}

// maxStreamLine bounds one input line (a message with a pasted file).
const maxStreamLine = 16 << 20

// readStreamInput sends each user message of r on out until r ends or done
// closes, then closes out. A line is a `claude -p --input-format
// stream-json` user message: {"type":"user","message":{"role":"user",
// "content": "text" or [{"type":"text","text":"..."}]}}, or an Agent
// SDK's control message, which control takes at once. Blank lines are
// skipped.
func readStreamInput(r io.Reader, out chan<- streamInput, done <-chan struct{}, control func(line []byte)) {
	defer close(out)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxStreamLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if control != nil && strings.HasPrefix(controlType([]byte(line)), "control_") {
			control([]byte(line))
			continue
		}
		text, err := parseUserMessage(line)
		if err != nil {
			err = fmt.Errorf("stdin line %d: %w", n, err)
		}
		select {
		case out <- streamInput{text: text, err: err}:
		case <-done:
			return
		}
	}
	if err := sc.Err(); err != nil {
		select {
		case out <- streamInput{err: fmt.Errorf("read stdin: %w", err)}:
		case <-done:
		}
	}
}

// controlType is the type of a stdin line, "" when it is not JSON.
func controlType(line []byte) string {
	var m struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(line, &m)
	return m.Type
}

// parseUserMessage is the text of one stream-json user message.
func parseUserMessage(line string) (string, error) {
	var m struct {
		Type    string `json:"type"`
		Message struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return "", fmt.Errorf("not JSON (%v); send one user message per line, as {\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"...\"}}", err)
	}
	if m.Type != "user" {
		return "", fmt.Errorf("a %q message is not supported; only user messages are read", m.Type)
	}
	var text string
	if json.Unmarshal(m.Message.Content, &text) == nil {
		return nonEmpty(text)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Message.Content, &blocks); err != nil {
		return "", errors.New("message.content is neither a string nor a list of content blocks")
	}
	var parts []string
	for _, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Errorf("a %q content block is not supported; send text blocks", b.Type)
		}
		parts = append(parts, b.Text)
	}
	return nonEmpty(strings.Join(parts, "\n\n"))
}

func nonEmpty(text string) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", errors.New("the user message has no text")
	}
	return text, nil
}
