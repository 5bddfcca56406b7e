package bash

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// bashArgs are the validated arguments of a bash call.
type bashArgs struct {
	Command     string
	Description string
	// Timeout is zero when the model gave none.
	Timeout    time.Duration
	Workdir    string
	Background bool
}

// fields splits an arguments object into its raw members.
func fields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errors.New("invalid arguments: expected a JSON object")
	}
	return m, nil
}

func parseBashArgs(raw json.RawMessage) (bashArgs, error) {
	m, err := fields(raw)
	if err != nil {
		return bashArgs{}, err
	}
	var a bashArgs
	if a.Command, err = nonEmpty(m, "command"); err != nil {
		return a, err
	}
	if a.Description, err = nonEmpty(m, "description"); err != nil {
		return a, err
	}
	if a.Timeout, err = timeout(m["timeoutMs"]); err != nil {
		return a, err
	}
	if v, ok := m["workdir"]; ok && !isNull(v) {
		if json.Unmarshal(v, &a.Workdir) != nil {
			return a, errors.New("invalid workdir: expected a string")
		}
	}
	if v, ok := m["run_in_background"]; ok && !isNull(v) {
		if json.Unmarshal(v, &a.Background) != nil {
			return a, errors.New("invalid run_in_background: expected a boolean")
		}
	}
	return a, nil
}

// parseTaskID reads the task_id argument of bash_output and bash_kill.
func parseTaskID(raw json.RawMessage) (string, error) {
	m, err := fields(raw)
	if err != nil {
		return "", err
	}
	return nonEmpty(m, "task_id")
}

func nonEmpty(m map[string]json.RawMessage, name string) (string, error) {
	var s string
	if json.Unmarshal(m[name], &s) != nil || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("invalid %s: expected a non-empty string", name)
	}
	return s, nil
}

// timeout reads timeoutMs: absent or null is zero; otherwise a positive
// number of milliseconds, rounded up.
func timeout(v json.RawMessage) (time.Duration, error) {
	if v == nil || isNull(v) {
		return 0, nil
	}
	var ms float64
	if json.Unmarshal(v, &ms) != nil || math.IsNaN(ms) || ms <= 0 {
		return 0, fmt.Errorf("invalid timeoutMs: expected a positive number, got %s", bytes.TrimSpace(v))
	}
	if ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		ms = float64(math.MaxInt64 / int64(time.Millisecond))
	}
	return time.Duration(math.Ceil(ms)) * time.Millisecond, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }
