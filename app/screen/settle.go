package screen

import "sync"

// settler calls Settled once no key has been typed for settleWait since
// the first frame, or settleLimit after it while keys keep coming.
type settler struct {
	clock   Clock
	settled func()

	mu      sync.Mutex
	started bool        // the first frame is out
	waits   uint64      // counts the waits; only the newest may settle
	stop    func() bool // cancels the newest wait
	done    bool
}

// start begins the wait, once the first frame is out.
func (st *settler) start() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.started = true
	st.wait()
	st.clock.AfterFunc(settleLimit, func() { st.fire(0) })
}

// typed starts the wait again: a key was echoed. Keys typed before the
// first frame are the first frame's.
func (st *settler) typed() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.started {
		st.wait()
	}
}

func (st *settler) wait() {
	if st.done {
		return
	}
	if st.stop != nil {
		st.stop()
	}
	st.waits++
	n := st.waits
	st.stop = st.clock.AfterFunc(settleWait, func() { st.fire(n) })
}

// fire settles, unless a key started another wait since wait n began;
// wait 0 is the limit's.
func (st *settler) fire(n uint64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done || (n != 0 && n != st.waits) {
		return
	}
	st.done = true
	go st.settled()
}
