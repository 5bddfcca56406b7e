package config

import "fmt"

// Checkpoints configures the workspace checkpoints /rewind restores
// ([checkpoints]). Zero values mean the defaults.
type Checkpoints struct {
	// Enabled is true unless set to false.
	Enabled *bool `toml:"enabled"`
	// MaxFileBytes is the size above which a file is left out of
	// checkpoints, and listed (10 MiB).
	MaxFileBytes int64 `toml:"max_file_bytes"`
	// MaxFiles is the most files a workspace may have for checkpoints to be
	// taken (250,000).
	MaxFiles int `toml:"max_files"`
	// KeepTurns and KeepDays bound what is kept: checkpoints older than a
	// session's newest KeepTurns turns (100) or KeepDays days (30) are
	// pruned in the background.
	KeepTurns int `toml:"keep_turns"`
	KeepDays  int `toml:"keep_days"`
}

// Defaults of [checkpoints].
const (
	DefaultKeepTurns = 100
	DefaultKeepDays  = 30
)

// On reports whether checkpoints are taken.
func (c Checkpoints) On() bool { return c.Enabled == nil || *c.Enabled }

// Turns is KeepTurns or its default.
func (c Checkpoints) Turns() int {
	if c.KeepTurns > 0 {
		return c.KeepTurns
	}
	return DefaultKeepTurns
}

// Days is KeepDays or its default.
func (c Checkpoints) Days() int {
	if c.KeepDays > 0 {
		return c.KeepDays
	}
	return DefaultKeepDays
}

func (c Checkpoints) validate() error {
	for _, v := range []struct {
		name string
		n    int64
	}{{"max_file_bytes", c.MaxFileBytes}, {"max_files", int64(c.MaxFiles)}, {"keep_turns", int64(c.KeepTurns)}, {"keep_days", int64(c.KeepDays)}} {
		if v.n < 0 {
			return fmt.Errorf("[checkpoints] %s is %d; give a positive number, or leave it out for the default", v.name, v.n)
		}
	}
	return nil
}
