package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrMissing is matched by the error of a checkpoint the store no longer
// holds: pruned, or the store was deleted or replaced.
var ErrMissing = errors.New("checkpoint is not in the store")

// exists reports whether commit is in the repository.
func (r *repo) exists(ctx context.Context, commit string) bool {
	_, err := r.run(ctx, nil, "cat-file", "-e", commit+"^{commit}")
	return err == nil
}

// plan diffs before, the workspace now, against target.
func (r *repo) plan(ctx context.Context, target, before string) (Plan, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range []string{target, before} {
		if !r.exists(ctx, id) {
			return Plan{}, fmt.Errorf("%w: checkpoint %s is not in %s (pruned, or the store was removed)", ErrMissing, short(id), r.dir)
		}
	}
	out, err := r.run(ctx, nil, "diff-tree", "-r", "-z", "--raw", "--no-renames", before, target)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Kind: KindGit, Target: target, Before: before}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		c, ok := parseRaw(string(fields[i]), string(fields[i+1]))
		if !ok || c.From.Mode == modeGitlink || c.To.Mode == modeGitlink {
			continue
		}
		if c.From.Absent() && r.onDisk(c.Path) {
			p.Kept = append(p.Kept, c.Path)
			continue
		}
		p.Changes = append(p.Changes, c)
	}
	return p, nil
}

// parseRaw reads one `diff-tree --raw -z` record: ":<mode> <mode> <oid>
// <oid> <status>" and its path.
func parseRaw(meta, path string) (Change, bool) {
	f := strings.Fields(strings.TrimPrefix(meta, ":"))
	if len(f) < 5 {
		return Change{}, false
	}
	from, err1 := strconv.ParseUint(f[0], 8, 32)
	to, err2 := strconv.ParseUint(f[1], 8, 32)
	if err1 != nil || err2 != nil {
		return Change{}, false
	}
	c := Change{Path: path}
	if from != 0 {
		c.From = State{Blob: f[2], Mode: uint32(from)}
	}
	if to != 0 {
		c.To = State{Blob: f[3], Mode: uint32(to)}
	}
	return c, true
}

// onDisk reports whether the workspace has something at path.
func (r *repo) onDisk(path string) bool {
	_, err := os.Lstat(filepath.Join(r.work, filepath.FromSlash(path)))
	return err == nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// catFile reads blobs through one `git cat-file --batch`.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func (r *repo) blobs(ctx context.Context) (*catFile, error) {
	cmd := exec.CommandContext(ctx, r.bin, "cat-file", "--batch")
	cmd.Env, cmd.Dir = r.env, r.work
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

func (c *catFile) read(_ context.Context, blob string) ([]byte, error) {
	if _, err := io.WriteString(c.in, blob+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("%w: blob %s: %s", ErrMissing, short(blob), strings.TrimSpace(head))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad size in %q", head)
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return data[:size], nil
}

func (c *catFile) close() {
	c.in.Close()
	_ = c.cmd.Wait()
}
