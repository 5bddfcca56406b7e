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
// (once the keys typed as it appeared pause, see screen.Options.Settled),
// with a collection of its own: left to the runtime, the first collection
// started at the first allocation after the hold, 150 ms in, as keys are
// typed and the session's background work starts, and its stop-the-world
// phases (3–4.6 ms on a loaded 2-core machine) delayed the echo of a key
// by as much.
const (
	// startupGCHold is how long the collector waits when nothing ends the
	// wait earlier (line mode, a start that fails): the room the first
	// frame has, when the session's background work starts.
	startupGCHold = 150 * time.Millisecond
	// screenGCHold bounds the full screen's wait for its start to settle,
	// which comes within 3 s of the first frame (screen.Options.Settled).
	screenGCHold = 5 * time.Second
	// startupHeapLimit makes the collector run during the hold all the
	// same once the Go heap reaches it (a resumed session that must be
	// read whole, a paste right away).
	startupHeapLimit = 32 << 20
)

// endStartupGC ends the collector's start-up hold, and extendStartupGC
// makes it end d from now unless it ends before; main sets them to what
// holdGC returns, and the full screen extends the hold to screenGCHold
// and ends it once its start settled.
var (
	endStartupGC    = func() {}
	extendStartupGC = func(time.Duration) {}
)

// holdGC turns the garbage collector off until after hold (or after the
// time extend sets), or until the returned release is called, then
// restores the GOGC and GOMEMLIMIT in force before and, unless GOGC is
// off, has collect (runtime.GC when nil) run in a goroutine of its own:
// what the start left behind is collected and swept then, not at a moment
// the runtime picks.
func holdGC(hold time.Duration, collect func()) (release func(), extend func(time.Duration)) {
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
	timer := time.AfterFunc(hold, release)
	return release, func(d time.Duration) { timer.Reset(d) }
}
