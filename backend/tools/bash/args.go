package bash

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/tools"
)

// bashArgs are the validated arguments of a bash call.
type bashArgs struct {
	Command     string
	Description string
	// Timeout is zero when the model gave none.
	Timeout    time.Duration
	Workdir    string
	Background bool
	// Escalation is what the call asks for beyond the sandbox.
	Escalation tools.Escalation
}

// fields splits an arguments object into its raw members.
func fields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errors.New("invalid arguments: expected a JSON object")
	}
	return m, nil
}

// bashArgNames are the arguments bash takes. timeout is Claude Code's
// name for timeoutMs (also in milliseconds); description is optional, as
// there, though the schema asks for it; sandbox and justification ask to
// leave the sandbox, as Claude Code's dangerouslyDisableSandbox does
// (escalation.go).
var bashArgNames = []string{"command", "description", "timeoutMs", "timeout", "workdir", "run_in_background",
	"sandbox", "justification", "dangerouslyDisableSandbox"}

func parseBashArgs(raw json.RawMessage) (bashArgs, error) {
	m, err := fields(raw)
	if err != nil {
		return bashArgs{}, err
	}
	if err := onlyKnown(m, bashArgNames); err != nil {
		return bashArgs{}, err
	}
	var a bashArgs
	if a.Command, err = nonEmpty(m, "command"); err != nil {
		return a, err
	}
	if v, ok := m["description"]; ok && !isNull(v) {
		if json.Unmarshal(v, &a.Description) != nil {
			return a, errors.New("invalid description: expected a string")
		}
	}
	name := "timeoutMs"
	if _, ok := m[name]; !ok {
		name = "timeout"
	}
	if a.Timeout, err = timeout(name, m[name]); err != nil {
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
	a.Escalation, err = parseEscalation(m)
	return a, err
}

// taskIDNames are the names of bash_output's and bash_kill's one
// argument: task_id, or Claude Code's bash_id (BashOutput) and shell_id
// (KillShell).
var taskIDNames = []string{"task_id", "bash_id", "shell_id"}

// parseTaskID reads the task id argument of bash_output and bash_kill.
func parseTaskID(raw json.RawMessage) (string, error) {
	m, err := fields(raw)
	if err != nil {
		return "", err
	}
	if err := onlyKnown(m, taskIDNames); err != nil {
		return "", err
	}
	for _, name := range taskIDNames {
		if _, ok := m[name]; ok {
			return nonEmpty(m, name)
		}
	}
	return "", errors.New("invalid task_id: expected a non-empty string")
}

// onlyKnown refuses an argument not in names, naming those accepted.
func onlyKnown(m map[string]json.RawMessage, names []string) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(names, k) {
			return tools.UnknownArg(k, names...)
		}
	}
	return nil
}

func nonEmpty(m map[string]json.RawMessage, name string) (string, error) {
	var s string
	if json.Unmarshal(m[name], &s) != nil || strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("invalid %s: expected a non-empty string", name)
	}
	return s, nil
}

// timeout reads timeoutMs (or timeout, named so by name): absent or null
// is zero; otherwise a positive number of milliseconds, rounded up.
func timeout(name string, v json.RawMessage) (time.Duration, error) {
	if v == nil || isNull(v) {
		return 0, nil
	}
	var ms float64
	if json.Unmarshal(v, &ms) != nil || math.IsNaN(ms) || ms <= 0 {
		return 0, fmt.Errorf("invalid %s: expected a positive number of milliseconds, got %s", name, bytes.TrimSpace(v))
	}
	if ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		ms = float64(math.MaxInt64 / int64(time.Millisecond))
	}
	return time.Duration(math.Ceil(ms)) * time.Millisecond, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }
