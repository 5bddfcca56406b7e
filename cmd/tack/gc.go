package main

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// The collector waits while tack starts: the start allocates a few
// megabytes that mostly stay live (the session, the tools, the screen), so
// a collection before the first frame would take CPU from it for little
// memory back. The full screen ends the wait once its start has settled
// (just after the echo of the first key, or 100 ms after the first frame
// if no key came), with a collection of its own: left to the runtime, the
// first collection started at the first allocation after the hold, 150 ms
// in, as keys are typed and the session's background work starts, and its
// stop-the-world phases (3–4.6 ms on a loaded 2-core machine) delayed the
// echo of a key by as much.
const (
	// startupGCHold is how long the collector waits when nothing ends the
	// wait earlier (line mode, a start that fails): the room the first
	// frame has, when the session's background work starts.
	startupGCHold = 150 * time.Millisecond
	// startupHeapLimit makes the collector run during the hold all the
	// same once the Go heap reaches it (a resumed session that must be
	// read whole, a paste right away).
	startupHeapLimit = 32 << 20
)

// endStartupGC ends the collector's start-up hold; main sets it to what
// holdGC returns, and the full screen calls it once its start settled.
var endStartupGC = func() {}

// holdGC turns the garbage collector off until after hold, or until the
// returned release is called, then restores the GOGC and GOMEMLIMIT in
// force before and, unless GOGC is off, has collect (runtime.GC when nil)
// run in a goroutine of its own: what the start left behind is collected
// and swept then, not at a moment the runtime picks.
func holdGC(hold time.Duration, collect func()) (release func()) {
	if collect == nil {
		collect = runtime.GC
	}
	limit := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, startupHeapLimit))
	var once sync.Once
	release = func() {
		once.Do(func() {
			debug.SetMemoryLimit(limit)
			debug.SetGCPercent(percent)
			if percent >= 0 {
				go collect()
			}
		})
	}
	time.AfterFunc(hold, release)
	return release
}
