package agent

import (
	"context"
	"errors"
)

// job is work that needs the agent idle (compaction, rewinds). It runs on
// the loop goroutine between turns, under a context that its caller's ctx
// and Cancel both end.
type job struct {
	ctx context.Context
	run func(ctx context.Context)
}

// idleJob queues run as a job and waits for it to finish. While a turn is
// running it refuses with busy instead; after other jobs it waits its turn.
func (a *Agent) idleJob(ctx context.Context, busy string, run func(ctx context.Context)) error {
	done := make(chan struct{})
	j := job{ctx: ctx, run: func(ctx context.Context) {
		defer close(done)
		run(ctx)
	}}
	a.mu.Lock()
	if a.inTurn {
		a.mu.Unlock()
		return errors.New(busy)
	}
	a.jobs = append(a.jobs, j)
	a.mu.Unlock()
	a.poke()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-a.done:
		return ErrClosed
	}
}

// runJobs runs queued jobs on the loop goroutine; a job whose caller gave
// up before it started does not run.
func (a *Agent) runJobs(ctx context.Context) {
	for {
		a.mu.Lock()
		if len(a.jobs) == 0 {
			a.mu.Unlock()
			return
		}
		j := a.jobs[0]
		a.jobs = a.jobs[1:]
		started := a.setStatusLocked(StatusRunning)
		a.mu.Unlock()
		if started {
			a.publish(StatusChanged{Status: StatusRunning})
		}
		if j.ctx.Err() == nil {
			a.runJob(ctx, j)
		}
	}
}

func (a *Agent) runJob(parent context.Context, j job) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	stop := context.AfterFunc(j.ctx, cancel)
	defer stop()
	a.mu.Lock()
	a.cancel = cancel
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.cancel = nil
		a.mu.Unlock()
	}()
	j.run(ctx)
}
