package sandbox

import (
	"errors"
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// devices are the character devices every program may write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// landlockABI is the kernel's Landlock ABI version, or an error saying why
// there is none.
func landlockABI() (int, error) {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return 0, errors.New("the kernel has no Landlock (Linux 5.13 or later with Landlock enabled is needed)")
	}
	return abi, nil
}

// landlockRestrict lets this process and its children read everything
// (what must stay unreadable is hidden by mounts), and write only in the
// writable directories, or in a read-only sandbox only in its private temp
// directory. Networking is left to the network namespace. It returns the
// ABI version in force.
//
// The ruleset is built and enforced here rather than with the library's
// best-effort Restrict, which enforces nothing at all when a rule cannot be
// expressed on the running kernel; a sandbox that silently does nothing is
// the one outcome this package exists to prevent.
func landlockRestrict(l Layout, c Confinement) (int, error) {
	abi, err := landlockABI()
	if err != nil {
		return 0, err
	}
	writable := l.Writable
	if c.ReadOnly {
		writable = nil
		if l.TempDir != "" {
			writable = []string{l.TempDir}
		}
	}
	if isDir(devShm) {
		writable = append(writable, devShm)
	}
	rw := landlock.RWDirs(writable...)
	if abi >= 2 {
		// Moving a file between two writable directories needs "refer";
		// without it git cannot move objects into place.
		rw = rw.WithRefer()
	}
	cfg := landlock.V11.BestEffort()
	// Networking and IPC scopes are the namespaces' business. Scoping
	// signals would even break the helper: before ABI 8 each thread
	// enforces the ruleset separately and gets a domain of its own, and a
	// thread may not signal a command another thread started.
	cfg.HandledAccessNet, cfg.Scoped = 0, 0
	fd, flags, err := cfg.NewRulesetFD(
		landlock.RODirs("/"),
		rw,
		landlock.RWFiles(devices...).WithIoctlDev().IgnoreIfMissing(),
	)
	if err != nil {
		return 0, fmt.Errorf("build the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return 0, errors.New("this kernel's Landlock cannot express the sandbox's rules")
	}
	defer unix.Close(fd)
	if err := llsys.AllThreadsPrctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("set no-new-privileges: %w", err)
	}
	if err := llsys.AllThreadsLandlockRestrictSelf(fd, flags); err != nil {
		return 0, fmt.Errorf("enforce Landlock: %w", err)
	}
	return abi, nil
}
