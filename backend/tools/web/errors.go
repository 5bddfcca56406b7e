package web

import (
	"fmt"
	"net/netip"
)

// Error is a web failure worded for the model: what happened and what to
// do next. The tools return its text after "Error: ".
type Error struct {
	Message string
	// Status is the HTTP status behind it, 0 when none.
	Status int
}

func (e *Error) Error() string { return e.Message }

func errorf(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}

// parseIP reads host as an IP address; the zero Addr when it is a name.
func parseIP(host string) netip.Addr {
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return ip.Unmap()
}
