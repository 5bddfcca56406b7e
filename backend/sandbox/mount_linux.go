package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// devShm is given its own tmpfs, so that programs which keep semaphores and
// shared memory there work without writing the host's.
const devShm = "/dev/shm"

// mountLayout rearranges this process's private mount namespace: a fresh
// /proc that shows only the sandbox's processes, hidden paths covered by
// empty read-only file systems (with the exposed paths inside them bound
// back), protected paths bound read-only onto themselves, pinned ones bound
// onto themselves (a mount point cannot be renamed or removed), and for a
// read-only sandbox a private temp directory.
func mountLayout(l Layout, c Confinement) error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount a fresh /proc (a container that masks /proc forbids it): %w", err)
	}
	// Open what must stay reachable before anything covers it.
	keep := map[string]*os.File{}
	for _, p := range append(append([]string{}, l.Writable...), l.Exposed...) {
		if f, err := os.OpenFile(p, unix.O_PATH|unix.O_DIRECTORY, 0); err == nil {
			keep[p] = f
			defer f.Close()
		}
	}
	if err := hide(l, keep); err != nil {
		return err
	}
	for _, p := range l.Pinned {
		if err := bind(p, p, false); err != nil {
			return fmt.Errorf("pin %s: %w", p, err)
		}
	}
	for _, p := range l.Protected {
		if err := bind(p, p, true); err != nil {
			return fmt.Errorf("make %s read-only: %w", p, err)
		}
	}
	if isDir(devShm) {
		if err := syscall.Mount("tmpfs", devShm, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mount a private %s: %w", devShm, err)
		}
	}
	if c.ReadOnly && l.TempDir != "" {
		return privateTemp(l, keep)
	}
	return nil
}

// hide covers each hidden directory with an empty read-only tmpfs, and each
// hidden file with an empty file nobody may read.
func hide(l Layout, keep map[string]*os.File) error {
	var files []string
	for _, h := range l.Hidden {
		if covered(h, l.Hidden) {
			continue
		}
		fi, err := os.Stat(h)
		switch {
		case err != nil:
			continue
		case !fi.IsDir():
			files = append(files, h)
			continue
		}
		if err := syscall.Mount("tmpfs", h, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, "mode=711,size=1m"); err != nil {
			return fmt.Errorf("hide %s: %w", h, err)
		}
		if err := rebind(h, l.Exposed, keep, false); err != nil {
			return err
		}
		if err := remount(h, true); err != nil {
			return fmt.Errorf("hide %s: %w", h, err)
		}
	}
	if len(files) > 0 {
		return hideFiles(files, l.TempDir)
	}
	return nil
}

// covered reports whether p lies inside another of paths.
func covered(p string, paths []string) bool {
	for _, q := range paths {
		if q != p && within(p, q) {
			return true
		}
	}
	return false
}

// hideFiles binds an empty file of mode 000 onto each of files. The empty
// file lives on a scratch tmpfs that is detached again; the binds keep it.
func hideFiles(files []string, tempDir string) error {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	scratch, err := os.MkdirTemp(tempDir, "tack-sandbox-")
	if err != nil {
		return fmt.Errorf("hide files: %w", err)
	}
	defer os.Remove(scratch)
	if err := syscall.Mount("tmpfs", scratch, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, "mode=700,size=4k"); err != nil {
		return fmt.Errorf("hide files: %w", err)
	}
	defer syscall.Unmount(scratch, syscall.MNT_DETACH)
	empty := filepath.Join(scratch, "hidden")
	if err := os.WriteFile(empty, nil, 0); err != nil {
		return fmt.Errorf("hide files: %w", err)
	}
	for _, f := range files {
		if err := bind(empty, f, true); err != nil {
			return fmt.Errorf("hide %s: %w", f, err)
		}
	}
	return nil
}

// privateTemp replaces the temp directory with a private tmpfs for a
// read-only sandbox. What it covered that must stay reachable (a workspace
// in /tmp) is bound back read-only: Landlock lets the command write the
// new temp directory, and that grant would reach into what lies below it.
func privateTemp(l Layout, keep map[string]*os.File) error {
	if err := syscall.Mount("tmpfs", l.TempDir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("mount a private temp directory: %w", err)
	}
	return rebind(l.TempDir, append(append([]string{}, l.Writable...), l.Exposed...), keep, true)
}

// rebind binds back, read-only when asked, each of paths that lies strictly
// inside dir (just covered by a new mount), from the descriptor opened
// before it was covered.
func rebind(dir string, paths []string, keep map[string]*os.File, readOnly bool) error {
	for _, p := range paths {
		f := keep[p]
		if p == dir || !within(p, dir) || f == nil {
			continue
		}
		if err := os.MkdirAll(p, 0o711); err != nil {
			return fmt.Errorf("keep %s reachable: %w", p, err)
		}
		src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
		if err := bind(src, p, readOnly); err != nil {
			return fmt.Errorf("keep %s reachable: %w", p, err)
		}
	}
	return nil
}

// bind mounts src onto dst, then makes that mount read-only when asked.
func bind(src, dst string, readOnly bool) error {
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return err
	}
	if readOnly {
		return remount(dst, true)
	}
	return nil
}

// remount changes the flags of the mount at dst, keeping those it has: a
// mount inherited from outside the user namespace has its flags locked,
// and a remount that dropped one (noexec on /tmp, say) would be refused.
func remount(dst string, readOnly bool) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dst, &st); err != nil {
		return err
	}
	const kept = syscall.MS_RDONLY | syscall.MS_NOSUID | syscall.MS_NODEV | syscall.MS_NOEXEC |
		syscall.MS_NOATIME | syscall.MS_NODIRATIME | syscall.MS_RELATIME
	flags := uintptr(syscall.MS_REMOUNT|syscall.MS_BIND) | uintptr(st.Flags)&kept
	if readOnly {
		flags |= syscall.MS_RDONLY
	}
	return syscall.Mount("", dst, "", flags, "")
}
