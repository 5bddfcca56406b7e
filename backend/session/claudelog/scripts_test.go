//go:build unix

package claudelog

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/session/sessiontest"
)

// journeys holds sessions recorded by tack's journey tests: real logs of
// real tools under a scripted model.
const journeys = "../../../snapshots/journeys/testdata"

// recorded brings up the transcript of the recorded session name and
// returns the input a hook reads about it.
func recorded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(journeys, name, "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(logPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := session.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return synced(t, l)
}

// synced brings the transcript of l up to date and returns the input a
// hook reads about it.
func synced(t *testing.T, l *session.Log) []byte {
	t.Helper()
	tr := New(l, "test", nil)
	if err := tr.Sync(); err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]string{"session_id": l.Header().ID, "transcript_path": tr.Path(), "hook_event_name": "Stop", "cwd": "/workspace/project"})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// script is a hook or status line command written for Claude Code, the
// programs it needs, and what it must print about a session.
type script struct {
	name, command string
	needs         []string
	session, want string
}

// check runs s's command as tack runs a hook's, with the hook input on
// stdin, and fails unless it prints s.want.
func check(t *testing.T, s script, input []byte) {
	t.Helper()
	for _, tool := range s.needs {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (.ci/run installs jq with apt-get; python3 and node come with the CI image)", tool)
		}
	}
	cmd := exec.Command("sh", "-c", s.command)
	cmd.Stdin = strings.NewReader(string(input))
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s failed: %v\n%s", s.command, err, stderr)
	}
	if got := strings.TrimRight(string(out), "\n"); got != s.want {
		t.Fatalf("%s on the %s session printed\n%s\nwant\n%s", s.name, s.session, got, s.want)
	}
}

// Scripts written for Claude Code's transcripts, run on transcripts of
// recorded tack sessions, print what the session shows: they are the
// oracle of the format. Each is a real script (source and licence in its
// file) or, where the script's licence does not allow a copy, a faithful
// re-creation of what it does with the file, named after it.
func TestClaudeCodeScriptsReadRecordedSessions(t *testing.T) {
	const (
		// Stop hooks that speak or post the last answer (the
		// thopter-swarm hook below, notification and TTS hooks) take
		// the text blocks of the last assistant line.
		thopter = `T=$(jq -r '.transcript_path // empty'); node testdata/scripts/thopter-last-message.mjs "$T"`
		// Hooks that audit commands or edits take the last tool_use of
		// a name from the assistant lines.
		lastBash   = `jq -r '.transcript_path' | xargs jq -r 'select(.type == "assistant") | .message.content[]? | select(.type == "tool_use" and .name == "Bash") | .input.command' | tail -n 1`
		editedFile = `jq -r '.transcript_path' | xargs jq -r 'select(.type == "assistant") | .message.content[]? | select(.type == "tool_use" and (.name == "Edit" or .name == "Write" or .name == "MultiEdit")) | .input.file_path' | sort -u`
		// Token counters sum message.usage over the file.
		outputTokens = `jq -r '.transcript_path' | xargs jq -s '[.[] | .message.usage.output_tokens? // 0] | add'`
		// disler/claude-code-hooks-mastery's stop.py --chat loads every
		// line with json.loads into logs/chat.json (a re-creation: the
		// repository has no licence).
		chatJSON = `python3 -c 'import json,sys; p=json.load(sys.stdin)["transcript_path"]; print(len([json.loads(l) for l in open(p) if l.strip()]))'`
		// Its pre_compact.py --backup names the backup after
		// Path(transcript_path).stem, which with Claude Code's files is
		// the session id.
		backupName = `python3 -c 'import json,sys,pathlib; d=json.load(sys.stdin); print(pathlib.Path(d["transcript_path"]).stem == d["session_id"])'`
		// Status lines that show the session's name take the latest
		// ai-title line, the title the model gave it.
		aiTitle = `jq -r '.transcript_path' | xargs jq -r 'select(.type == "ai-title") | .aiTitle' | tail -n 1`
		// Hooks that review what the latest prompt did gather the
		// tool results of its promptId.
		lastPrompt = `jq -r '.transcript_path' | xargs jq -rs '(map(select(.type == "user")) | last.promptId) as $p | map(select(.promptId == $p and .toolUseResult != null)) | length'`
		tokens     = `python3 testdata/scripts/ccstatusline_tokens.py`
		chain      = `python3 testdata/scripts/chain.py`
	)
	for _, s := range []script{
		{"last answer, thopter-swarm", thopter, []string{"jq", "node"}, "bash-card", "A README and `notes.txt`, which lists two things: *buy milk* and *write tests*."},
		{"last answer after edits, thopter-swarm", thopter, []string{"jq", "node"}, "edit-diff", "Done: `main` now greets `os.Args[1]`."},
		{"last Bash command", lastBash, []string{"jq"}, "bash-card", "cat notes.txt"},
		{"edited files", editedFile, []string{"jq"}, "edit-diff", "/workspace/project/main.go"},
		{"output tokens", outputTokens, []string{"jq"}, "multi-turn-conversation", "206"},
		{"chat.json, hooks-mastery", chatJSON, []string{"python3"}, "resumed-session", "5"},
		{"backup name, hooks-mastery", backupName, []string{"python3"}, "resumed-session", "True"},
		{"token widgets, ccstatusline", tokens, []string{"python3"}, "bash-card", "970 75 1826 0 2871 900 0"},
		{"token widgets after compaction, ccstatusline", tokens, []string{"python3"}, "compaction", "1000 230 0 0 1230 300 1"},
		{"session name", aiTitle, []string{"jq"}, "multi-turn-conversation", "Scripted session"},
		{"tool results of the last input", lastPrompt, []string{"jq"}, "steering", "1"},
		{"conversation chain", chain, []string{"python3"}, "steering", "Count the lines of notes.txt\nAlso show its first line"},
	} {
		t.Run(s.name, func(t *testing.T) {
			check(t, s, recorded(t, s.session))
		})
	}
}

// ccstatusline's context widget takes the newest request by timestamp
// (the first of those with the newest, which in the recorded sessions,
// logged on a frozen clock, is the first of all): in a session logged
// over time it is the last request's prompt.
func TestContextWidgetReadsTheLastRequest(t *testing.T) {
	l := newLog(t, session.Header{})
	for i, d := range slices.Concat(sessiontest.Turn(1, "/w", "m", false), sessiontest.Turn(2, "/w", "m", true)) {
		if _, err := l.Append(t0.Add(time.Duration(i)*time.Second), d); err != nil {
			t.Fatal(err)
		}
	}
	// Four requests of 200 uncached and 12,000 cached input tokens and
	// 150 output tokens each.
	check(t, script{name: "token widgets, ccstatusline", command: `python3 testdata/scripts/ccstatusline_tokens.py`, needs: []string{"python3"},
		session: "two-turn", want: "800 600 48000 0 49400 12200 0"}, synced(t, l))
}

// Read back as Claude Code reads a transcript, by its parentUuid chain
// from the newest line, a rewound session is the conversation the user
// went on with: the rewound turn stays in the file, off the chain.
func TestChainOfARewoundSessionLeavesTheRewoundTurnOut(t *testing.T) {
	l := newLog(t, session.Header{})
	appendAll(t, l, sessiontest.Turn(1, "/w", "m", false)...)
	back := appendAll(t, l, sessiontest.Turn(2, "/w", "m", false)...)
	appendAll(t, l, session.Rewind{Turn: 2, Conversation: true, Back: back})
	appendAll(t, l, sessiontest.Turn(3, "/w", "m", true)...)
	check(t, script{name: "conversation chain", command: `python3 testdata/scripts/chain.py`, needs: []string{"python3"},
		session: "rewound", want: "Fix failing test 1 in the parser\nFix failing test 3 in the parser"}, synced(t, l))
}
