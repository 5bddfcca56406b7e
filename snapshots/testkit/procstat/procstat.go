// Package procstat holds what benchmarks report beside the wall clock:
// CPU time, which a machine shared with other builds does not inflate as
// it does the wall clock, and the peak heap of one run.
package procstat

import (
	"runtime/metrics"
	"time"
)

// CPUTime is the user and system CPU time the process has used; 0 where
// the system does not tell (benchmarks then report no CPU figure).
func CPUTime() time.Duration { return cpuTime(false) }

// ChildCPUTime is the user and system CPU time of the process's children
// that it waited for; 0 where the system does not tell.
func ChildCPUTime() time.Duration { return cpuTime(true) }

// HeapObjects is the heap the process holds in objects, in bytes.
func HeapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// PeakHeapAbove runs f and returns the most heap the process held in
// objects meanwhile, sampled every 200µs, above base, in MB.
func PeakHeapAbove(base uint64, f func()) float64 {
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			top = max(top, HeapObjects())
			select {
			case <-done:
				peak <- max(top, HeapObjects())
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	return float64(<-peak-base) / (1 << 20)
}
