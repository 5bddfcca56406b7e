package commands

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Receipts reports whether receipt names a finished file upload of the
// session sessionID.
type Receipts func(sessionID, receipt string) bool

// Options configures a Registry. The zero value is usable.
type Options struct {
	// Receipts resolves file attachments; nil makes every receipt unknown.
	Receipts Receipts
	// NewID mints command ids; nil uses random hex.
	NewID func() string
	// ObserverPanic is told about a change observer that panicked.
	ObserverPanic func(recovered any)
}

// Registry holds the global command layer and one layer per agent scope.
// Its methods are safe for concurrent use.
type Registry struct {
	opts Options

	mu        sync.RWMutex
	global    map[string]Command
	scoped    map[string]map[string]Command
	observers map[int]func()
	nextObs   int
}

// New makes an empty registry.
func New(opts Options) *Registry {
	if opts.NewID == nil {
		opts.NewID = randomID
	}
	return &Registry{
		opts:      opts,
		global:    map[string]Command{},
		scoped:    map[string]map[string]Command{},
		observers: map[int]func(){},
	}
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "cmd-" + hex.EncodeToString(b[:])
}

// Register adds a global command. A second command of the same name fails.
func (r *Registry) Register(cmd Command) error {
	return r.add("", cmd)
}

// RegisterFor adds a command for the agent whose session id is scope. For
// that agent only it shadows a global command of the same name. A second
// command of the same name in the scope fails.
func (r *Registry) RegisterFor(scope string, cmd Command) error {
	if scope == "" {
		return fmt.Errorf("register /%s: empty agent scope; use Register for a global command", cmd.Name)
	}
	return r.add(scope, cmd)
}

func (r *Registry) add(scope string, cmd Command) error {
	if !ValidName(cmd.Name) {
		return fmt.Errorf("register command %q: a name is lowercase letters, digits, '_', '-' or ':'", cmd.Name)
	}
	if cmd.Handler == nil {
		return fmt.Errorf("register /%s: no handler", cmd.Name)
	}
	r.mu.Lock()
	layer := r.global
	if scope != "" {
		if r.scoped[scope] == nil {
			r.scoped[scope] = map[string]Command{}
		}
		layer = r.scoped[scope]
	}
	if _, dup := layer[cmd.Name]; dup {
		r.mu.Unlock()
		return fmt.Errorf("register /%s: already registered in this scope; unregister it first", cmd.Name)
	}
	layer[cmd.Name] = cmd
	r.mu.Unlock()
	r.notify()
	return nil
}

// Unregister removes a global command and reports whether it was there.
func (r *Registry) Unregister(name string) bool {
	return r.remove("", name)
}

// UnregisterFor removes an agent-scoped command and reports whether it was
// there.
func (r *Registry) UnregisterFor(scope, name string) bool {
	if scope == "" {
		return false
	}
	return r.remove(scope, name)
}

func (r *Registry) remove(scope, name string) bool {
	r.mu.Lock()
	layer := r.global
	if scope != "" {
		layer = r.scoped[scope]
	}
	_, ok := layer[name]
	if ok {
		delete(layer, name)
		if scope != "" && len(layer) == 0 {
			delete(r.scoped, scope)
		}
	}
	r.mu.Unlock()
	if ok {
		r.notify()
	}
	return ok
}

// Find returns the command name resolves to for the agent scope: its own
// command if it has one, else the global one.
func (r *Registry) Find(scope, name string) (Command, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if cmd, ok := r.scoped[scope][name]; ok {
		return cmd, true
	}
	cmd, ok := r.global[name]
	return cmd, ok
}

// List returns the commands the agent scope sees, after shadowing, sorted
// by name, but the hidden ones.
func (r *Registry) List(scope string) []Command {
	r.mu.RLock()
	merged := make(map[string]Command, len(r.global)+len(r.scoped[scope]))
	for name, cmd := range r.global {
		merged[name] = cmd
	}
	for name, cmd := range r.scoped[scope] {
		merged[name] = cmd
	}
	r.mu.RUnlock()
	list := make([]Command, 0, len(merged))
	for _, cmd := range merged {
		if !cmd.Hidden {
			list = append(list, cmd)
		}
	}
	slices.SortFunc(list, func(a, b Command) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// Subscribe calls observe after every registration and removal, so
// discovery (completion menus, help) can refresh. The returned function
// stops the calls. An observer that panics is recovered: it neither undoes
// the change nor keeps later observers from being called.
func (r *Registry) Subscribe(observe func()) (unsubscribe func()) {
	r.mu.Lock()
	id := r.nextObs
	r.nextObs++
	r.observers[id] = observe
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.observers, id)
		r.mu.Unlock()
	}
}

func (r *Registry) notify() {
	r.mu.RLock()
	ids := slices.Sorted(maps.Keys(r.observers))
	observers := make([]func(), len(ids))
	for i, id := range ids {
		observers[i] = r.observers[id]
	}
	r.mu.RUnlock()
	for _, observe := range observers {
		r.callObserver(observe)
	}
}

func (r *Registry) callObserver(observe func()) {
	defer func() {
		if p := recover(); p != nil && r.opts.ObserverPanic != nil {
			r.opts.ObserverPanic(p)
		}
	}()
	observe()
}
