package session

import "github.com/tack-agent/tack/backend/jsonscan"

// scanner decodes the JSON of event lines without reflection. It decodes
// only what it can decode exactly as encoding/json would and fails on
// anything else: a syntax error, an unknown key, a number that is not an
// integer, a null where encoding/json would leave a value alone. A failed
// line is decoded again with encoding/json, which also words the error.
type scanner struct {
	jsonscan.Scanner
	// fold is set when the event is decoded only to be folded into a
	// projection that keeps no message bodies (textArena.fold); measured
	// is then the size of the texts of its message that body left empty.
	fold     bool
	measured int
}

// body reads a text that a projection keeping no message bodies does not
// hold: the bodies of messages and cards. When folding it is validated
// but left empty, and its size is put in *size unless size is nil; a
// text of the event's message adds its size to measured once the object
// holding it is read, so that a repeated key counts once, as the last
// one wins.
func (s *scanner) body(size *int) string {
	if !s.fold {
		return s.Str()
	}
	if n := s.Len(); size != nil {
		*size = n
	}
	return ""
}

// textArena holds the decoded strings of many lines in a few large
// allocations, and the scanner that decodes them, reused line after line.
// With fold set, lines are decoded for Projection.fold: the texts body
// reads are measured, not decoded, which is most of a log's bytes.
type textArena struct {
	jsonscan.Arena
	sc   scanner
	fold bool
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
