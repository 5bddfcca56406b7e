//go:build !linux && !darwin

package linemode

import "errors"

// signalKeysOn cannot read the terminal mode here.
func signalKeysOn(int) (bool, error) {
	return false, errors.New("the terminal mode cannot be read on this system")
}
