//go:build !unix

package checkpoint

// lowerPriority does nothing where processes have no niceness to set.
func lowerPriority(int) {}
