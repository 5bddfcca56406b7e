//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"runtime"
)

type platform struct{}

func probe(Options) Status {
	return Status{Reason: "tack has no sandbox for " + runtime.GOOS}
}

// Prewarm does nothing where there is no sandbox.
func (s *Sandbox) Prewarm() {}

// Close does nothing where there is no sandbox.
func (s *Sandbox) Close() {}

func (s *Sandbox) start(Command, Layout) (Process, error) {
	return nil, errors.New("no sandbox on " + runtime.GOOS)
}

// serveHelper has nothing to serve: no helper is started here.
func serveHelper() int { return 1 }

// StartUnconfined has no supervisor to offer here.
func (s *Sandbox) StartUnconfined(Command) (Process, error) {
	return nil, errors.New("no supervisor for unconfined commands on " + runtime.GOOS)
}
