//go:build linux && (amd64 || arm64)

package sandbox

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Without network a command lives in an empty network namespace, which
// isolates internet sockets and abstract unix sockets but not unix sockets
// bound in the file system: the host's ssh-agent, docker or D-Bus socket
// would be one connect away, and Landlock (before ABI 9) does not govern
// connecting to them. The seccomp filter therefore refuses to create any
// socket other than internet (the namespace's own loopback still works for
// tests that start local servers) and netlink ones. io_uring is refused
// too, since it can create sockets without the socket system call, and so
// are system calls of a foreign architecture (int 0x80 on amd64, x32).

// filterSockets installs the filter on every thread of this process, so the
// commands it starts inherit it. It reports whether a filter was installed.
func filterSockets() (bool, error) {
	prog := socketFilter()
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return false, errno
	}
	return true, nil
}

// socketFilter is the BPF program. Jumps name the return they lead to;
// an empty name falls through to the next instruction.
func socketFilter() []unix.SockFilter {
	const (
		archOffset = 4
		nrOffset   = 0
		arg0Offset = 16 // low 32 bits of args[0] on little-endian machines
	)
	type insn struct {
		code   uint16
		k      uint32
		jt, jf string
	}
	ld := func(off uint32) insn { return insn{code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, k: off} }
	jeq := func(k uint32, jt, jf string) insn { return insn{unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, k, jt, jf} }
	prog := []insn{
		ld(archOffset),
		jeq(auditArch, "", "enosys"),
		ld(nrOffset),
	}
	if foreignSyscallBit != 0 {
		prog = append(prog, insn{unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, foreignSyscallBit, "enosys", ""})
	}
	prog = append(prog,
		jeq(unix.SYS_IO_URING_SETUP, "eacces", ""),
		jeq(unix.SYS_SOCKET, "", "allow"),
		ld(arg0Offset),
		jeq(unix.AF_INET, "allow", ""),
		jeq(unix.AF_INET6, "allow", ""),
		jeq(unix.AF_NETLINK, "allow", "eacces"),
	)
	returns := []struct {
		name string
		k    uint32
	}{
		{"allow", unix.SECCOMP_RET_ALLOW},
		{"eacces", unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
		{"enosys", unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)},
	}
	out := make([]unix.SockFilter, 0, len(prog)+len(returns))
	offset := func(at int, name string) uint8 {
		for j, r := range returns {
			if r.name == name {
				return uint8(len(prog) + j - at - 1)
			}
		}
		return 0
	}
	for i, in := range prog {
		out = append(out, unix.SockFilter{Code: in.code, K: in.k, Jt: offset(i, in.jt), Jf: offset(i, in.jf)})
	}
	for _, r := range returns {
		out = append(out, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: r.k})
	}
	return out
}
