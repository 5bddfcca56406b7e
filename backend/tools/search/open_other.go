//go:build !unix

package search

import (
	"io"
	"os"
)

// openFile opens path for reading.
func openFile(path string) (io.ReadCloser, error) { return os.Open(path) }
