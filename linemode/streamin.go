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
// text and the uuid the program gave it (none when it gave none), or why
// the line is not one.
type streamInput struct {
	text, uuid string
	err        error
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
		msg := parseUserMessage(line)
		if msg.err != nil {
			msg.err = fmt.Errorf("stdin line %d: %w", n, msg.err)
		}
		select {
		case out <- msg:
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

// parseUserMessage is one stream-json user message: its text and uuid.
func parseUserMessage(line string) streamInput {
	var m struct {
		Type string `json:"type"`
		// UUID is the Agent SDKs' SDKUserMessage.uuid, which rewind_files
		// may name later.
		UUID    string `json:"uuid"`
		Message struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return streamInput{err: fmt.Errorf("not JSON (%v); send one user message per line, as {\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"...\"}}", err)}
	}
	if m.Type != "user" {
		return streamInput{err: fmt.Errorf("a %q message is not supported; only user messages are read", m.Type)}
	}
	text, err := messageText(m.Message.Content)
	return streamInput{text: text, uuid: m.UUID, err: err}
}

// messageText is the text of a user message's content: a string, or text
// blocks.
func messageText(content json.RawMessage) (string, error) {
	var text string
	if json.Unmarshal(content, &text) == nil {
		return nonEmpty(text)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(content, &blocks); err != nil {
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
