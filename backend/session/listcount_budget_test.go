//go:build unix

package session

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// TestListCountsLogsWithoutAnIndexWithinItsBudget: a List counts whole
// logs without an index, newest first, until it has read unindexedBudget;
// the older ones are unknown rather than slow. The logs are sparse: a
// head, a hole and a tail of a few messages each.
func TestListCountsLogsWithoutAnIndexWithinItsBudget(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	if err := os.MkdirAll(Dir(home, cwd), 0o700); err != nil {
		t.Fatal(err)
	}
	const size = maxUnindexedCount
	n := int(unindexedBudget/size) + 3
	tail := completedTurn(2, "the last turn")
	for i := range n {
		h := testHeader(fmt.Sprintf("20261130-%06d-abcdef", i))
		h.Created = t0.Add(time.Duration(i) * time.Hour)
		writeSparseLog(t, PathFor(home, cwd, h.ID), h, tail, size)
	}
	list, err := List(home, cwd, false)
	if err != nil || len(list) != n {
		t.Fatalf("want %d sessions, got %d (%v)", n, len(list), err)
	}
	// the head's prompt; the tail turn's prompt, two answers and a result
	want := 5
	counted := int(unindexedBudget / (size - int64(len(headerLine(t, list[0].Path)))))
	for i, s := range list {
		if i < counted && s.Messages != want {
			t.Errorf("session %d (%s), within the budget: want %d messages, got %d", i, s.ID, want, s.Messages)
		}
		if i >= counted && s.Messages != -1 {
			t.Errorf("session %d (%s), past the budget: want an unknown count, got %d", i, s.ID, s.Messages)
		}
	}
}
