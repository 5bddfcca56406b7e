package jsonscan

import "strings"

// An Arena's allocations grow from minTextChunk to textChunk bytes, so
// that decoding a few documents takes little.
const minTextChunk, textChunk = 1 << 10, 64 << 10

// Arena holds the decoded strings of many documents in a few large
// allocations, which are cheaper to make and for the collector to track
// than a string each. A string keeps its whole chunk alive, which costs
// nothing when, as on loading a session, all the strings are kept. The
// zero Arena is ready to use.
type Arena struct {
	cur  *strings.Builder
	next int // the size of the next chunk
}

// room returns the chunk to write a string of at most n bytes to. The
// strings are slices of the chunk's String; writes only append, so earlier
// ones never change.
func (a *Arena) room(n int) *strings.Builder {
	if a.cur == nil || a.cur.Cap()-a.cur.Len() < n {
		a.next = min(max(2*a.next, minTextChunk), textChunk)
		a.cur = new(strings.Builder)
		a.cur.Grow(max(n, a.next))
	}
	return a.cur
}
