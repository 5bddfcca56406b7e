package workspace

import "bytes"

// SniffLen is how much of the start of a file decides whether it is
// binary.
const SniffLen = 8 << 10

// Binary reports whether head, the start of a file, marks the file as
// binary: a NUL byte in its first SniffLen bytes, the test git and
// ripgrep use.
func Binary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), SniffLen)], 0) >= 0
}
