package main

import (
	"runtime/debug"
	"testing"
	"time"
)

// gcSettings reads GOGC and GOMEMLIMIT as they are in force.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestHoldGCTurnsTheCollectorOffAndRestoresWhatWasSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		name          string
		percent       int
		limit, during int64
	}{
		{"defaults", 100, 1<<63 - 1, startupHeapLimit},
		{"GOGC=300 and a GOMEMLIMIT below the start's", 300, 16 << 20, 16 << 20},
		{"GOGC=off", -1, 1 << 30, startupHeapLimit},
	} {
		debug.SetGCPercent(c.percent)
		debug.SetMemoryLimit(c.limit)
		collected := make(chan struct{}, 2)
		release, _ := holdGC(time.Hour, func() { collected <- struct{}{} })
		if p, l := gcSettings(); p != -1 || l != c.during {
			t.Errorf("%s: want the collector off with a limit of %d during the hold, got GOGC %d, limit %d", c.name, c.during, p, l)
		}
		release()
		release()
		if p, l := gcSettings(); p != c.percent || l != c.limit {
			t.Errorf("%s: want GOGC %d and limit %d back after the hold, got %d and %d", c.name, c.percent, c.limit, p, l)
		}
		if c.percent >= 0 {
			select {
			case <-collected:
			case <-time.After(30 * time.Second): // against a hang only
				t.Errorf("%s: want a collection once the hold is released, got none", c.name)
			}
		}
		select {
		case <-collected:
			t.Errorf("%s: want at most one collection after the hold, got a second", c.name)
		default:
		}
	}
}

// The full screen moves the hold's end (to the end of its start's
// settle); the hold then ends then without release.
func TestHoldGCEndsWhenExtendSays(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1<<63 - 1))
	collected := make(chan struct{}, 1)
	_, extend := holdGC(time.Hour, func() { collected <- struct{}{} })
	extend(0)
	select {
	case <-collected:
	case <-time.After(30 * time.Second): // against a hang only
		t.Fatal("want the hold over, and a collection, when extend moved its end to now")
	}
	if p, _ := gcSettings(); p != 100 {
		t.Errorf("want GOGC 100 back after the hold, got %d", p)
	}
}
