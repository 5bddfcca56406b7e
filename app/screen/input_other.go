//go:build !linux

package screen

import "os"

// openInput is nil: bubbletea reads the terminal (see input_linux.go).
func openInput(*os.File) *input { return nil }
