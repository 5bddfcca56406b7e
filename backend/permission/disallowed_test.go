package permission

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/tools"
)

func TestDisallowedToolsMatchNamesAndEveryCommandOfALine(t *testing.T) {
	cases := []struct {
		disallowed []string
		tool       string
		command    string
		want       string
	}{
		{[]string{"Write"}, "write", "", "Write"},
		{[]string{"write"}, "write", "", "write"},
		{[]string{"Write"}, "edit", "", ""},
		{[]string{"Bash"}, "bash", "ls", "Bash"},
		{[]string{"Bash(rm:*)"}, "bash", "rm -rf build", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "ls && rm -rf build", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "echo $(rm x)", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "/bin/rm x", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "$tool x", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "ls 'unterminated", "Bash(rm:*)"},
		{[]string{"Bash(rm:*)"}, "bash", "ls -la; echo rm", ""},
		{[]string{"Bash(git push:*)"}, "bash", "git push origin main", "Bash(git push:*)"},
		{[]string{"Bash(git push:*)"}, "bash", "git status", ""},
		{[]string{"Bash(git push)"}, "bash", "git pull", ""},
	}
	for _, c := range cases {
		if got := refusing(c.disallowed, subject{tool: c.tool, command: c.command}); got != c.want {
			t.Errorf("%v refusing %s %q: got %q, want %q", c.disallowed, c.tool, c.command, got, c.want)
		}
	}
}

// testAnchors put the working directory at /w and home at /h.
var testAnchors = anchors{cwd: "/w", home: "/h", root: "/w"}

// refusing is the first entry of list that refuses s, or "".
func refusing(list []string, s subject) string {
	return first(list, func(e entry) bool { return e.refuses(s, testAnchors) })
}

// allowing is the first entry of list that allows s, or all of them when
// they allow it together, or "".
func allowing(list []string, s subject) string {
	if e := first(list, func(e entry) bool { return e.allows(s, testAnchors) }); e != "" {
		return e
	}
	var es []entry
	for _, text := range list {
		es = append(es, parseEntry(text))
	}
	if together(es, s) {
		return strings.Join(list, " + ")
	}
	return ""
}

func first(list []string, match func(entry) bool) string {
	for _, text := range list {
		if match(parseEntry(text)) {
			return text
		}
	}
	return ""
}

func TestDisallowedToolsAreRefusedBeforeAnythingElse(t *testing.T) {
	var l log
	env := &tools.Env{Record: l.record, Allowed: []string{"Bash"}, Disallowed: []string{"Read", "Bash(rm:*)"}}
	call := func(args string) tools.Call { return tools.Call{ID: "c", Args: json.RawMessage(args), Env: env} }
	p := newPolicy(FullAccess, nil)
	_, err := p.Authorize(context.Background(), readTool, call(`{}`))
	if err == nil || !strings.Contains(err.Error(), "--disallowed-tools Read") {
		t.Errorf("want a read refused by --disallowed-tools Read even in full-access, got %v", err)
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(`{"command":"rm -rf /tmp/x"}`)); err == nil {
		t.Error("want rm refused by Bash(rm:*) though Bash is allowed and the mode is full-access")
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(`{"command":"ls"}`)); err != nil {
		t.Errorf("want ls to run, got %v", err)
	}
}
