//go:build linux

package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	// foreignSyscallBit marks x32 system calls, which the filter refuses.
	foreignSyscallBit = 0x40000000
)
