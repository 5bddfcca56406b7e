package linemode

import (
	"syscall"
	"unsafe"
)

// signalKeysOn reports whether the terminal on fd turns Ctrl+C into
// SIGINT (ISIG is set).
func signalKeysOn(fd int) (bool, error) {
	var t syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&t))); errno != 0 {
		return false, errno
	}
	return t.Lflag&syscall.ISIG != 0, nil
}
