package main

import (
	"runtime/debug"
	"sync"
	"time"
)

// The collector waits while tack starts: the start allocates a few
// megabytes that mostly stay live (the session, the tools, the screen), so
// a collection before the first frame would take CPU from it for little
// memory back.
const (
	// startupGCHold is how long the collector waits: the room the first
	// frame has, when the session's background work starts.
	startupGCHold = 150 * time.Millisecond
	// startupHeapLimit makes the collector run during the hold all the
	// same once the Go heap reaches it (a resumed session that must be
	// read whole, a paste right away).
	startupHeapLimit = 32 << 20
)

// holdGC turns the garbage collector off until after hold, or until the
// returned release is called, then restores the GOGC and GOMEMLIMIT in
// force before.
func holdGC(hold time.Duration) (release func()) {
	limit := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, startupHeapLimit))
	var once sync.Once
	release = func() {
		once.Do(func() {
			debug.SetMemoryLimit(limit)
			debug.SetGCPercent(percent)
		})
	}
	time.AfterFunc(hold, release)
	return release
}
