package launch

import (
	"os"

	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/ask"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/search"
	"github.com/tack-agent/tack/backend/tools/todo"
)

// Tools is the default tool set of one session, in the order the model sees
// them, and a function that ends their background work.
func Tools() (*tools.Registry, func()) {
	sh := bash.New(bash.Local{}, bash.Options{Environ: os.Environ()})
	r := tools.NewRegistry(fs.New(fs.NewTracker())...)
	r.Add(search.NewGlob())
	r.Add(search.NewGrep())
	for _, t := range sh.All() {
		r.Add(t)
	}
	r.Add(todo.New())
	r.Add(ask.New())
	return r, sh.Close
}
