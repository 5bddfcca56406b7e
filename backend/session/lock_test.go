package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lockHolderEnv switches TestLockHolderProcess into a child that holds the
// log named by the variable until its stdin closes.
const lockHolderEnv = "TACK_SESSION_TEST_HOLD"

func TestLockHolderProcess(t *testing.T) {
	path := os.Getenv(lockHolderEnv)
	if path == "" {
		t.Skip("runs only as the child of TestSecondProcessIsToldWhoHoldsTheSession")
	}
	l, err := Open(path)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	l.Close()
}

func TestSecondOpenInTheSameProcessIsLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	first, err := Create(path, testHeader("s1"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	want := fmt.Sprintf("session s1 is open in process %d", os.Getpid())
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Fatalf("want ErrLocked saying %q, got %v", want, err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second, err := Open(path)
	if err != nil {
		t.Fatalf("want Open to succeed after Close, got %v", err)
	}
	second.Close()
}

func TestSecondProcessIsToldWhoHoldsTheSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, completedTurn(1, "a")...)

	child := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	child.Env = append(os.Environ(), lockHolderEnv+"="+path)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer stdin.Close()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("want the child to report locked, got %q (%v)", line, err)
	}

	_, err = Open(path)
	want := "session s1 is open in process " + strconv.Itoa(child.Process.Pid)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), want) {
		t.Fatalf("want ErrLocked saying %q, got %v", want, err)
	}
	if got := lockHolder(path); got != child.Process.Pid {
		t.Errorf("want lockHolder %d, got %d", child.Process.Pid, got)
	}

	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatalf("want Open to succeed once the holder exited, got %v", err)
	}
	l.Close()
}

func TestStaleLockFileOfADeadProcessDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path)
	if err := os.WriteFile(lockPath(path), []byte("999999\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := lockHolder(path); got != 0 {
		t.Errorf("want no holder for a stale lock file, got %d", got)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatalf("want a stale lock file ignored, got %v", err)
	}
	l.Close()
}
