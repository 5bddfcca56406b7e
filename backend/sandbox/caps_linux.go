package sandbox

import (
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// dropInheritableCaps makes sure no command gains a capability: the helper
// holds the capabilities of its user namespace (it had to mount), and a
// command running as uid 0 there would get back at exec every capability
// in the bounding and inheritable sets. Both are emptied, and the ambient
// set with them, on every thread, since any thread may fork the next
// command. The helper keeps its own effective capabilities; Landlock
// already forbids it to mount, and they keep commands from tracing it.
func dropInheritableCaps() error {
	last := lastCap()
	for c := 0; c <= last; c++ {
		if _, _, errno := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0, 0); errno != 0 && errno != unix.EINVAL {
			return errno
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	if _, _, errno := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); errno != 0 {
		return errno
	}
	if _, _, errno := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

// lastCap is the highest capability number the kernel knows.
func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 63
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 63
	}
	return n
}
