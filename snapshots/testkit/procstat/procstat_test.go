package procstat

import (
	"runtime"
	"testing"
)

var kept []byte

func TestPeakHeapAboveSeesWhatARunHeld(t *testing.T) {
	runtime.GC()
	base := HeapObjects()
	peak := PeakHeapAbove(base, func() {
		kept = make([]byte, 8<<20)
		runtime.KeepAlive(kept)
	})
	kept = nil
	if peak < 7 {
		t.Errorf("want a peak of about 8 MB above the base, got %.1f MB", peak)
	}
}

func TestCPUTimeGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no CPU time on " + runtime.GOOS)
	}
	start := CPUTime()
	x := 0
	for i := 0; CPUTime() == start && i < 1e9; i++ {
		x += i
	}
	if CPUTime() <= start {
		t.Errorf("want CPU time to grow while the process works, stayed at %v", start)
	}
}
