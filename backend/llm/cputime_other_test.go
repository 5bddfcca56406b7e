//go:build !unix

package llm

import "time"

// cpuTime is unknown here; benchmarks then report no CPU figure.
func cpuTime() time.Duration { return 0 }
