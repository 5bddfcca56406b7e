//go:build !race

package session

// hugeBytes is the size of the logs the fault tests at scale write.
const hugeBytes = 100 << 20
