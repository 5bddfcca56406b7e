package session

import "github.com/tack-agent/tack/backend/jsonscan"

// scanner decodes the JSON of event lines without reflection. It decodes
// only what it can decode exactly as encoding/json would and fails on
// anything else: a syntax error, an unknown key, a number that is not an
// integer, a null where encoding/json would leave a value alone. A failed
// line is decoded again with encoding/json, which also words the error.
type scanner struct {
	jsonscan.Scanner
}

// textArena holds the decoded strings of many lines in a few large
// allocations, and the scanner that decodes them, reused line after line.
type textArena struct {
	jsonscan.Arena
	sc scanner
}

// list decodes an array into *p, each element with decode. Like
// encoding/json, null sets *p to nil and [] to an empty slice. A second
// array for the same field fails: encoding/json would decode it into the
// first one's elements.
func list[T any](s *scanner, p *[]T, decode func(*T)) {
	if s.Null() {
		*p = nil
		return
	}
	if *p != nil {
		s.Fail()
		return
	}
	out := []T{}
	s.Array(func() {
		var v T
		decode(&v)
		out = append(out, v)
	})
	*p = out
}

// pointer decodes an object into **p with decode, allocating *p if it is
// nil; null sets *p to nil, as encoding/json does.
func pointer[T any](s *scanner, p **T, decode func(*T)) {
	if s.Null() {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(T)
	}
	decode(*p)
}
