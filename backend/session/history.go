package session

// History reads transcript events back for a front door that shows the
// latest turns first and the earlier ones as the user scrolls up. A front
// door builds one block from a step's events (a tool card from its call
// and its result), so History starts where a step or a turn starts.

const (
	// historyReach is how many more events History reads at a time to
	// reach the start of a step.
	historyReach = 64
	// maxHistoryReach bounds that: a step longer than this is cut.
	maxHistoryReach = 4096
)

// History returns at least n of the transcript events before seq before
// (all of them when there are fewer), from the start of a step or turn,
// as they were logged, and whether earlier transcript events remain.
func (p *Projection) History(src Source, before int64, n int) ([]Event, bool, error) {
	return readHistory(src, before, n, p.TranscriptBefore)
}

// History is Projection.History over the log's own projection and file.
func (l *Log) History(before int64, n int) ([]Event, bool, error) {
	return readHistory(l, before, n, func(before int64, n int) ([]int64, bool) {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.st.proj.TranscriptBefore(before, n)
	})
}

func readHistory(src Source, before int64, n int, pick func(before int64, n int) ([]int64, bool)) ([]Event, bool, error) {
	seqs, more := pick(before, n)
	events, err := src.ReadEvents(seqs)
	if err != nil {
		return nil, false, err
	}
	for reach := 0; more && len(events) > 0 && !startsStep(events[0]) && reach < maxHistoryReach; reach += historyReach {
		seqs, more = pick(events[0].Seq, historyReach)
		earlier, err := src.ReadEvents(seqs)
		if err != nil {
			return nil, false, err
		}
		cut := 0
		for i := len(earlier) - 1; i >= 0; i-- {
			if startsStep(earlier[i]) {
				cut, more = i, more || i > 0
				break
			}
		}
		events = append(earlier[cut:], events...)
	}
	return events, more, nil
}

// startsStep reports whether a front door can start folding at e.
func startsStep(e Event) bool {
	switch e.Data.(type) {
	case TurnStart, StepStart:
		return true
	}
	return false
}
