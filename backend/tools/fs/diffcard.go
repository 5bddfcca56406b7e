package fs

import "github.com/tack-agent/tack/backend/card"

// FileDiff is one file's change from before to after as write and edit
// cards show it, for other diff cards (/diff) to look the same.
func FileDiff(name, before, after string, created bool) card.FileDiff {
	return fileDiff(name, before, after, created)
}

// Binary reports whether data is not UTF-8 text, as read and edit judge.
func Binary(data []byte) bool {
	return looksBinary(data[:min(len(data), sniffLen)], len(data) > sniffLen)
}
