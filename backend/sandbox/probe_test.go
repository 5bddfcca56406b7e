package sandbox

import "testing"

// New starts no process (the probe forks one, which would compete with a
// front door's first frame): the probe waits for Probe, or for the first
// Status, and both bring it once.
func TestTheProbeWaitsForProbeOrStatus(t *testing.T) {
	for _, ask := range []struct {
		name string
		do   func(*Sandbox)
	}{
		{"Probe", func(s *Sandbox) { s.Probe(); s.Probe(); <-s.Probed() }},
		{"Status", func(s *Sandbox) { s.Status() }},
	} {
		sb := New(Options{Workspace: t.TempDir(), TempDir: t.TempDir()})
		select {
		case <-sb.Probed():
			t.Fatalf("%s: want no probe before it is asked for", ask.name)
		default:
		}
		ask.do(sb)
		select {
		case <-sb.Probed():
		default:
			t.Errorf("%s: want the probe answered", ask.name)
		}
		sb.Close()
	}
}
