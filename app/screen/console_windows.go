//go:build windows

package screen

import (
	"os"

	"golang.org/x/sys/windows"
)

// vtOutput makes a console output interpret escape sequences, as
// bubbletea does for its renderer, and returns the function that gives it
// its mode back.
func vtOutput(f *os.File) (restore func(), err error) {
	h := windows.Handle(f.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return func() {}, err
	}
	if err := windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING|windows.DISABLE_NEWLINE_AUTO_RETURN); err != nil {
		return func() {}, err
	}
	return func() { _ = windows.SetConsoleMode(h, mode) }, nil
}
