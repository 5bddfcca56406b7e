package testkit

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEventuallyReturnsOnceTheConditionHolds(t *testing.T) {
	n := 0
	Eventually(t, "the third check", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Fatalf("want 3 checks, got %d", n)
	}
}

// fatalTB records Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestEventuallyFailsSayingWhatItAwaited(t *testing.T) {
	tb := &fatalTB{TB: t}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		EventuallyWithin(tb, 20*time.Millisecond, "the moon", func() bool { return false }, func() string { return "cheese" })
	}()
	wg.Wait()
	if !strings.Contains(tb.msg, "want the moon within 20ms, it did not happen; got:\ncheese") {
		t.Fatalf("want a failure naming what was awaited, got %q", tb.msg)
	}
}
