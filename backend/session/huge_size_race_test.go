//go:build race

package session

// hugeBytes is smaller under the race detector, which slows folding a log
// tenfold; the behaviour at 100 MB is tested without it.
const hugeBytes = 10 << 20
